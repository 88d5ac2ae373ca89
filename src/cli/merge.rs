//! `ludic merge results/*.json`: the results of the shards of one study (`simulate --shard i/N
//! --format json`), merged into the result of the whole study.

use super::{FAILED, OK, read_text_file};
use crate::study::merge::merge;
use crate::study::report::{Output, Study, write_study};

/// The exit code of a merge that lacks shards: its result is printed, marked partial.
pub const INCOMPLETE: u8 = 3;

/// The most a result file may have (its histograms are small).
const MAX_RESULT_BYTES: u64 = 64 << 20;

/// `ludic merge FILE...`
pub fn merge_results(files: &[String], output: Output, colour: bool) -> u8 {
    let mut parts = vec![];
    for f in files {
        let text = match read_text_file(f, MAX_RESULT_BYTES, "a study's result") {
            Ok(t) => t,
            Err(e) => {
                to_stderr!("error: {e}");
                return FAILED;
            }
        };
        let study = serde_json::from_str(&text)
            .map_err(|e| format!("`{f}` is not JSON: {e}"))
            .and_then(|v| Study::from_json(&v, f));
        match study {
            Ok(s) => parts.push((f.clone(), s)),
            Err(e) => {
                to_stderr!("error: {e}");
                return FAILED;
            }
        }
    }
    let merged = match merge(&parts) {
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
