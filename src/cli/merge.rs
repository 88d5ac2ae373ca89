//! `ludic merge results/*.json`: the results of the shards of one study (`simulate --shard i/N
//! --format json`), merged into the result of the whole study; or those of the shards of one
//! comparison (`compare --shard i/N --format json`), merged column by column into the whole
//! comparison.

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

/// `ludic merge FILE...`
pub fn merge_results(files: &[String], output: Output, colour: bool) -> u8 {
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
