//! `ludic compare GAME --variant A --variant B` (or several games): the same study of each, the
//! metrics side by side, significant differences from the first column marked.

use super::signals::{catch_signals, exit_code, note_late_signal};
use super::simulate::{StudyFormat, StudyOpts, check_study_args, play_study};
use super::{OK, USAGE, load_for_command};
use ludic::study::compare::{Column, write_comparison};

// Arguments of `ludic compare`.
#[derive(clap::Args)]
#[command(
    after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file. The columns are\neach --variant of each GAME (or each GAME): `--variant default` is the rules without a\nvariant, and a value with `=` is a set of options (`--variant stones=4,holes=6`); -o applies\nto every column. Every column is played with the same seed, number of games and agents.\nA value marked * differs from the first column's at p < 0.05 (two-sided: a two-proportion\nz-test for proportions, Welch's test with the normal approximation for means; no correction\nfor the number of metrics compared).\n\nExamples:\n  ludic compare GAME --variant default --variant NAME -n 100000\n  ludic compare GAME --variant default --variant rounds=match -n 10000 --format csv\n  ludic compare mine.game theirs.game -n 20000 --format json\n\n{}\n\nA signal stops the comparison as it stops simulate: every column is printed, those not\nfinished marked partial (JSON \"partial\": true at the top, a `# PARTIAL` first line in CSV).\n\nExit codes: 0 success, 1 invalid game file or unwritable output, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::study::METRICS_HELP, ludic::agents::AGENT_HELP)
)]
pub struct CompareArgs {
    /// Built-in games or .game files
    #[arg(required = true)]
    pub games: Vec<String>,
    /// A column: a variant's name, `default`, or options NAME=VALUE,… (repeatable)
    #[arg(long = "variant", value_name = "VARIANT")]
    pub variants: Vec<String>,
    /// Set an option in every column: -o NAME=VALUE (repeatable)
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub study: StudyOpts,
    #[arg(long, value_enum, default_value_t)]
    pub format: StudyFormat,
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
pub fn compare(args: &CompareArgs, colour: bool) -> u8 {
    let plan = args.study.resolve("compare");
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
    let (specs, range) = match check_study_args(&plan) {
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
        let study = play_study(g, source, &plan, &specs, range.clone(), name);
        columns.push(Column {
            name: name.clone(),
            study,
        });
    }
    let partial = columns.iter().any(|c| c.study.partial);
    let written = write_comparison(
        &mut std::io::stdout().lock(),
        &columns,
        args.format.into(),
        colour,
    )
    .map(|()| if partial { exit_code() } else { OK });
    if partial {
        to_stderr!("the games played so far are shown, the columns stopped marked partial");
    } else {
        note_late_signal();
    }
    super::finish(written)
}
