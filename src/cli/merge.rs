//! `ludic merge results/*.json`: the results of the shards of one study (`simulate --shard i/N
//! --format json`), merged into the result of the whole study; or those of the shards of one
//! comparison (`compare --shard i/N --format json`), merged column by column into the whole
//! comparison; or the files of the tasks of a sweep (`sweep --only K --shard i/N --format
//! json --output FILE`), merged point by point into the whole sweep.

use super::output::{Named, check_outputs};
use super::simulate::StudyFormat;
use super::{FAILED, OK, USAGE, read_text_file};
use ludic::study::compare::{Column, write_comparison};
use ludic::study::merge::{Shard, merge, merge_columns, read_shard};
use ludic::study::report::{Output, Study, write_study};
use ludic::study::sweep::{self, Sweep};
use serde_json::Value;
use std::io::Write;

/// The exit code of a merge that lacks shards: its result is printed, marked partial.
pub const INCOMPLETE: u8 = 3;

/// The most a result file may have (its histograms are small).
const MAX_RESULT_BYTES: u64 = 64 << 20;

/// The most a sweep's file may have (a study a point).
const MAX_SWEEP_BYTES: u64 = 256 << 20;

/// A file to merge: a study's or a comparison's shard, or a part of a sweep.
enum Part {
    Shard(Shard),
    Sweep(Box<Sweep>),
}

/// Reads one result file.
fn read_part(f: &str) -> Result<Part, String> {
    let text = read_text_file(f, MAX_SWEEP_BYTES, "a study's result")?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("`{f}` is not JSON: {e}"))?;
    if v.get("format").and_then(Value::as_str) == Some(sweep::FORMAT) {
        return Sweep::from_json(&v, f).map(|s| Part::Sweep(Box::new(s)));
    }
    if text.len() as u64 > MAX_RESULT_BYTES {
        return Err(format!(
            "`{f}` is larger than {MAX_RESULT_BYTES} bytes, the most a study's result may have"
        ));
    }
    read_shard(&v, f).map(Part::Shard)
}

/// Where the merged result goes: standard output, or `--output` written whole.
fn write_out(
    path: Option<&str>,
    code: u8,
    write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
) -> u8 {
    let mut bytes = vec![];
    if let Err(e) = write(&mut bytes) {
        to_stderr!("error: cannot write the output: {e}");
        return FAILED;
    }
    match path {
        None => super::finish(std::io::stdout().lock().write_all(&bytes).map(|()| code)),
        Some(p) => match ludic::output::write_whole(p, &bytes, true) {
            Ok(()) => code,
            Err(e) => {
                to_stderr!(
                    "error: cannot write `{p}`: {}",
                    ludic::output::error_text(&e)
                );
                FAILED
            }
        },
    }
}

// Arguments of `ludic merge`.
#[derive(clap::Args)]
#[command(
    after_help = "The shards must come from one study: the same game file, options, seed, agents, -n and\n--quick, none stopped by Ctrl-C, no shard twice, each shard's statistics agreeing with its\nranges and -n. The merged result equals that of one run of all the games (its statistics bit\nfor bit); with shards missing it is the result of those given, marked partial (exit 3).\nThe shards of a comparison (compare --shard I/N) merge column by column, with the same\nchecks, into the comparison's table.\n\nExamples:\n  for i in 1 2 3 4; do ludic simulate GAME -n 1000000 --shard $i/4 --format json > part$i.json; done\n  ludic merge part*.json\n  parallel ludic simulate GAME -n 100000000 --shard {}/64 --format json '>' part{}.json ::: $(seq 64)\n  ludic merge part*.json --format json > study.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 1/2 --format json > c1.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 2/2 --format json > c2.json\n  ludic merge c1.json c2.json\n\nThe files of a sweep (sweep --output, each holding points, or shards of points: `sweep\n--plan` prints their tasks) merge point by point, the shards of a point as a study's, into\nthe sweep (partial, exit 3, while a point is missing):\n  ludic merge sweep-parts/*.json --output sweep.json\n\nExit codes: 0 success, 1 unreadable, mismatched or damaged results, 2 usage error, 3 shards\nmissing (the partial result is printed)."
)]
pub struct MergeArgs {
    /// The results (JSON) of `simulate --shard I/N --format json` (or compare's, or the
    /// sweep files of `sweep --output`)
    #[arg(required = true)]
    pub files: Vec<String>,
    /// text (the default), json or csv (with --output: by its extension when not given)
    #[arg(long, value_enum)]
    pub format: Option<StudyFormat>,
    /// Write the merged result to FILE (whole) rather than to standard output
    #[arg(long, value_name = "FILE")]
    pub output: Option<String>,
}

/// `ludic merge FILE...`
pub fn merge_results(args: &MergeArgs, colour: bool) -> u8 {
    let files = &args.files;
    let by_extension = |p: &String| match p.to_ascii_lowercase() {
        p if p.ends_with(".csv") => StudyFormat::Csv,
        p if p.ends_with(".json") => StudyFormat::Json,
        _ => StudyFormat::Text,
    };
    let output = Output::from(
        args.format
            .or_else(|| args.output.as_ref().map(by_extension))
            .unwrap_or_default(),
    );
    let out = args.output.as_deref();
    if let Some(path) = out {
        let inputs: Vec<Named> = files
            .iter()
            .map(|f| Named::new("a file merged", f))
            .collect();
        if let Err(e) = check_outputs(&inputs, &[Named::new("the output (--output)", path)], false)
        {
            to_stderr!("error: {e}");
            return USAGE;
        }
    }
    let mut studies = vec![];
    let mut comparisons = vec![];
    let mut sweeps = vec![];
    for f in files {
        match read_part(f) {
            Ok(Part::Shard(Shard::Study(s))) => studies.push((f.clone(), *s)),
            Ok(Part::Shard(Shard::Comparison(c))) => comparisons.push((f.clone(), c)),
            Ok(Part::Sweep(s)) => sweeps.push((f.clone(), *s)),
            Err(e) => {
                to_stderr!("error: {e}");
                return FAILED;
            }
        }
        let kinds = [
            studies.first().map(|(f, _)| (f, "a study (simulate)")),
            comparisons
                .first()
                .map(|(f, _)| (f, "a comparison (compare)")),
            sweeps.first().map(|(f, _)| (f, "a sweep (sweep)")),
        ];
        if let [(a, ka), (b, kb), ..] = kinds.iter().flatten().collect::<Vec<_>>()[..] {
            to_stderr!(
                "error: `{a}` is {ka} and `{b}` {kb}: they do not merge\nhint: merge the files of each kind apart"
            );
            return FAILED;
        }
    }
    if !sweeps.is_empty() {
        return merge_sweeps(&sweeps, output, colour, out);
    }
    if !comparisons.is_empty() {
        return merge_comparison(&comparisons, output, colour, out);
    }
    let merged = match merge(&studies) {
        Ok(m) => m,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    let n = merged.stats.games;
    if merged.partial {
        to_stderr!(
            "note: the shards merged hold {n} of the study's {} games: the result is partial (exit {INCOMPLETE})",
            merged.requested
        );
    }
    let code = if merged.partial { INCOMPLETE } else { OK };
    write_out(out, code, |w| write_study(w, &merged, output, colour))
}

/// The parts of a sweep, merged point by point and written as `sweep` writes it.
fn merge_sweeps(parts: &[(String, Sweep)], output: Output, colour: bool, out: Option<&str>) -> u8 {
    let merged = match sweep::merge(parts) {
        Ok(m) => m,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    if merged.partial {
        let size = merged.spec().size().unwrap_or(0);
        to_stderr!(
            "note: the files merged hold {} of the sweep's {size} points done: the result is partial (exit {INCOMPLETE})",
            merged.done().count()
        );
    }
    let code = if merged.partial { INCOMPLETE } else { OK };
    write_out(out, code, |w| {
        sweep::output::write_sweep(w, &merged, output, colour)
    })
}

/// The shards of a comparison, merged column by column and written as `compare` writes it.
fn merge_comparison(
    parts: &[(String, Vec<(String, Study)>)],
    output: Output,
    colour: bool,
    out: Option<&str>,
) -> u8 {
    let columns = match merge_columns(parts) {
        Ok(c) => c,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    let partial = columns.iter().any(|(_, s)| s.partial);
    if let Some((_, s)) = columns.iter().find(|(_, s)| s.partial) {
        to_stderr!(
            "note: the shards merged hold {} of the comparison's {} games of each column: the result is partial (exit {INCOMPLETE})",
            s.stats.games,
            s.requested
        );
    }
    let columns: Vec<Column> = columns
        .into_iter()
        .map(|(name, study)| Column { name, study })
        .collect();
    let code = if partial { INCOMPLETE } else { OK };
    write_out(out, code, |w| write_comparison(w, &columns, output, colour))
}
