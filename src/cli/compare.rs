//! `ludic compare GAME --variant A --variant B` (or several games): the same study of each, the
//! metrics side by side, significant differences from the first column marked.

use super::signals::{catch_signals, exit_code, note_late_signal};
use super::simulate::{StudyArgs, check_study_args, play_study};
use super::{OK, USAGE, load_for_command};
use ludic::study::compare::{Column, write_comparison};
use ludic::study::report::Output;

/// Arguments of `ludic compare`.
pub struct CompareArgs {
    /// built-in games or .game files
    pub games: Vec<String>,
    /// the variants (`default`: the rules without a variant; `NAME=VALUE,…`: options)
    pub variants: Vec<String>,
    /// options applied to every column
    pub options: Vec<String>,
    pub study: StudyArgs,
    pub output: Output,
    pub colour: bool,
}

/// A column's variant: (variant name, extra options).
fn column_settings(v: &str) -> (Option<String>, Vec<String>) {
    if v == "default" {
        (None, vec![])
    } else if v.contains('=') {
        (
            None,
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        )
    } else {
        (Some(v.to_string()), vec![])
    }
}

/// `ludic compare`
pub fn compare(args: &CompareArgs) -> u8 {
    catch_signals();
    let variants: Vec<Option<&str>> = if args.variants.is_empty() {
        vec![None]
    } else {
        args.variants.iter().map(|v| Some(v.as_str())).collect()
    };
    if args.games.len() * variants.len() < 2 {
        to_stderr!(
            "error: nothing to compare: give two variants or more (--variant A --variant B; `default` is the rules without one) or several games"
        );
        return USAGE;
    }
    let (specs, range) = match check_study_args(&args.study) {
        Ok(x) => x,
        Err(c) => return c,
    };
    // Every column is loaded before any is played: a typo stops the comparison at once.
    let mut loaded = vec![];
    for game in &args.games {
        for v in &variants {
            let (variant, mut options) = v.map(column_settings).unwrap_or_default();
            let mut all = args.options.clone();
            all.append(&mut options);
            let (label, source, g) = match load_for_command(game, &all, variant.as_deref()) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let name = match (args.games.len() > 1, v) {
                (true, Some(v)) => format!("{label} {v}"),
                (true, None) => label,
                (false, Some(v)) => v.to_string(),
                (false, None) => "default".into(),
            };
            loaded.push((name, source, g));
        }
    }
    // After a signal the columns still to play are played with no game (each marked partial):
    // the output has every column, and says which are incomplete.
    let mut columns = vec![];
    for (name, source, g) in &loaded {
        let study = play_study(g, source, &args.study, &specs, range.clone(), name);
        columns.push(Column {
            name: name.clone(),
            study,
        });
    }
    let partial = columns.iter().any(|c| c.study.partial);
    let written = write_comparison(
        &mut std::io::stdout().lock(),
        &columns,
        args.output,
        args.colour,
    )
    .map(|()| if partial { exit_code() } else { OK });
    if partial {
        to_stderr!("the games played so far are shown, the columns stopped marked partial");
    } else {
        note_late_signal();
    }
    super::finish(written)
}
