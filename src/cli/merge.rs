//! `ludic merge results/*.json`: the results of the shards of one study (`simulate --shard i/N
//! --format json`), merged into the result of the whole study; or those of the shards of one
//! comparison (`compare --shard i/N --format json`), merged column by column into the whole
//! comparison.

use super::simulate::StudyFormat;
use super::{FAILED, OK, read_text_file};
use ludic::study::compare::{Column, write_comparison};
use ludic::study::merge::{Shard, merge, merge_columns, read_shard};
use ludic::study::report::{Output, Study, write_study};
use serde_json::Value;

/// The exit code of a merge that lacks shards: its result is printed, marked partial.
pub const INCOMPLETE: u8 = 3;

/// The most a result file may have (its histograms are small).
const MAX_RESULT_BYTES: u64 = 64 << 20;

/// Reads one result file.
fn read_part(f: &str) -> Result<Shard, String> {
    let text = read_text_file(f, MAX_RESULT_BYTES, "a study's result")?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("`{f}` is not JSON: {e}"))?;
    read_shard(&v, f)
}

// Arguments of `ludic merge`.
#[derive(clap::Args)]
#[command(
    after_help = "The shards must come from one study: the same game file, options, seed, agents, -n and\n--quick, none stopped by Ctrl-C, no shard twice, each shard's statistics agreeing with its\nranges and -n. The merged result equals that of one run of all the games (its statistics bit\nfor bit); with shards missing it is the result of those given, marked partial (exit 3).\nThe shards of a comparison (compare --shard I/N) merge column by column, with the same\nchecks, into the comparison's table.\n\nExamples:\n  for i in 1 2 3 4; do ludic simulate GAME -n 1000000 --shard $i/4 --format json > part$i.json; done\n  ludic merge part*.json\n  parallel ludic simulate GAME -n 100000000 --shard {}/64 --format json '>' part{}.json ::: $(seq 64)\n  ludic merge part*.json --format json > study.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 1/2 --format json > c1.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 2/2 --format json > c2.json\n  ludic merge c1.json c2.json\n\nExit codes: 0 success, 1 unreadable, mismatched or damaged results, 2 usage error, 3 shards\nmissing (the partial result is printed)."
)]
pub struct MergeArgs {
    /// The results (JSON) of `simulate --shard I/N --format json`
    #[arg(required = true)]
    pub files: Vec<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: StudyFormat,
}

/// `ludic merge FILE...`
pub fn merge_results(args: &MergeArgs, colour: bool) -> u8 {
    let (files, output) = (&args.files, Output::from(args.format));
    let mut studies = vec![];
    let mut comparisons = vec![];
    for f in files {
        match read_part(f) {
            Ok(Shard::Study(s)) => studies.push((f.clone(), *s)),
            Ok(Shard::Comparison(c)) => comparisons.push((f.clone(), c)),
            Err(e) => {
                to_stderr!("error: {e}");
                return FAILED;
            }
        }
        if let (Some((a, _)), Some((b, _))) = (studies.first(), comparisons.first()) {
            to_stderr!(
                "error: `{b}` is a comparison (compare) and `{a}` a study (simulate): they do not merge"
            );
            return FAILED;
        }
    }
    if !comparisons.is_empty() {
        return merge_comparison(&comparisons, output, colour);
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
    let written =
        write_study(&mut std::io::stdout().lock(), &merged, output, colour).map(|()| code);
    super::finish(written)
}

/// The shards of a comparison, merged column by column and written as `compare` writes it.
fn merge_comparison(parts: &[(String, Vec<(String, Study)>)], output: Output, colour: bool) -> u8 {
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
    let written =
        write_comparison(&mut std::io::stdout().lock(), &columns, output, colour).map(|()| code);
    super::finish(written)
}
