//! `ludic report FILE.json [--out report.html]`: the HTML report (charts and the table of every
//! metric) of a study, a comparison or a sweep, from its JSON.

use super::{FAILED, OK, USAGE, read_text_file};
use crate::cli::output::{Named, check_outputs};
use ludic::output::{error_text, write_whole};
use std::io::{self, Write};

/// The most a result file may have (a sweep of many points, each with its histograms).
const MAX_INPUT_BYTES: u64 = 256 << 20;

// Arguments of `ludic report`.
#[derive(clap::Args)]
#[command(
    after_help = "FILE is the JSON of a study (`ludic simulate --format json`, `ludic merge`), of a comparison\n(`ludic compare --format json`) or of a sweep (`ludic sweep --format json`). The report is\none self-contained HTML file: inline styles and SVG charts, no script, no address outside\nit, the same bytes for the same input (no date). It holds the header of the run (game,\naxes, games per point, seed, agents), for a sweep each main metric (first_player_score,\ndraw, turns.mean, decisiveness, branching) against each axis with its 95% interval, the\nlengths of the games, who wins by seat, and the table of every metric (each cell carries\nthe JSON's exact number in its data-value attribute).\n\nExamples:\n  ludic simulate GAME -n 10000 --format json > study.json\n  ludic report study.json --out study.html\n  ludic compare GAME --variant default --variant NAME -n 10000 --format json > cmp.json\n  ludic report cmp.json > cmp.html\n  ludic report sweep.json --out sweep.html\n\nExit codes: 0 success, 1 unreadable or invalid FILE or unwritable output, 2 usage error\n(--out naming FILE itself)."
)]
pub struct ReportArgs {
    /// The JSON of a study, a comparison or a sweep
    pub file: String,
    /// Write the report to this file (default: standard output)
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
}

/// `ludic report FILE`
pub fn report(args: &ReportArgs) -> u8 {
    let f = &args.file;
    if let Some(out) = &args.out {
        let inputs = [Named::new("the report's input", f)];
        if let Err(e) = check_outputs(&inputs, &[Named::new("the report (--out)", out)], true) {
            to_stderr!("error: {e}");
            return USAGE;
        }
    }
    let html = match read_text_file(f, MAX_INPUT_BYTES, "a result file")
        .and_then(|text| serde_json::from_str(&text).map_err(|e| format!("`{f}` is not JSON: {e}")))
        .and_then(|v| ludic::study::html::report(&v, f))
    {
        Ok(h) => h,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    match &args.out {
        None => super::finish(io::stdout().lock().write_all(html.as_bytes()).map(|()| OK)),
        Some(path) => match write_whole(path, html.as_bytes(), true) {
            Ok(()) => {
                super::finish(writeln!(io::stdout(), "report written to {path}").map(|()| OK))
            }
            Err(e) => {
                to_stderr!(
                    "error: cannot write the report to `{path}`: {}",
                    error_text(&e)
                );
                FAILED
            }
        },
    }
}
