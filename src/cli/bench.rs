//! `ludic bench [GAME...]`: random playouts of each game for a fixed time on one thread, for
//! the speed of the engine: playouts/s, decisions/s, decisions per playout.

use super::{Format, OK, OptionArgs, USAGE, load_for_command};
use ludic::Settings;
use ludic::builtin;
use ludic::load_game;
use ludic::study::random_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::json;
use std::io::Write;
use std::time::Instant;

/// One game to time: a name (built-in or file), options and a variant.
struct Case {
    game: String,
    options: Vec<String>,
    variant: Option<String>,
}

impl Case {
    fn label(&self) -> String {
        let mut l = self.game.clone();
        if let Some(v) = &self.variant {
            l.push_str(&format!(" --variant \"{v}\""));
        }
        for o in &self.options {
            l.push_str(&format!(" -o {o}"));
        }
        l
    }
}

/// Every built-in game, each of its variants, and a match of each game with an option that
/// takes the value `match`.
fn default_cases() -> Vec<Case> {
    let mut cases = vec![];
    for (name, src) in builtin::GAMES {
        let Ok(g) = load_game(src, &Settings::default()) else {
            continue;
        };
        let case = |options: Vec<String>, variant: Option<String>| Case {
            game: name.to_string(),
            options,
            variant,
        };
        cases.push(case(vec![], None));
        for v in g.all_variants() {
            cases.push(case(vec![], Some(v.name.to_string())));
        }
        for o in g.all_options() {
            if o.words.contains(&"match") {
                cases.push(case(vec![format!("{}=match", o.name)], None));
            }
        }
    }
    cases
}

/// How long each game of `bench` plays.
#[derive(Clone, Copy, Debug)]
pub enum BenchFor {
    /// playouts for this many seconds (at least one)
    Seconds(f64),
    /// exactly this many playouts
    Playouts(u64),
}

// Arguments of `ludic bench`.
#[derive(clap::Args)]
#[command(
    after_help = "Without GAME: every built-in game, each of its variants, and a match of each game with an\noption that takes the value `match`. Options and a variant given apply to every GAME.\nWith --playouts N, each game plays exactly N playouts (the same ones on any machine): for\ncomparing two builds by counts that do not depend on the load, e.g. instructions under\n`valgrind --tool=callgrind`.\n\nExamples:\n  ludic bench\n  ludic bench GAME --seconds 5\n  ludic bench my.game --variant NAME --format json\n  valgrind --tool=callgrind ludic bench GAME --playouts 2000"
)]
pub struct BenchArgs {
    /// Built-in games or .game files (default: every built-in game)
    pub games: Vec<String>,
    /// Seconds of playouts for each game
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Play exactly this many playouts for each game instead of timing --seconds
    #[arg(long, value_name = "N", conflicts_with = "seconds")]
    pub playouts: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub opts: OptionArgs,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `ludic bench [GAME...] [--seconds S | --playouts N]`
pub fn bench(args: &BenchArgs) -> u8 {
    let time = match args.playouts {
        Some(n) => BenchFor::Playouts(n),
        None => BenchFor::Seconds(args.seconds),
    };
    bench_for(
        &args.games,
        time,
        args.seed,
        &args.opts.options,
        args.opts.variant.as_deref(),
        args.format,
    )
}

/// The benchmark of each game, for a time or a number of playouts.
fn bench_for(
    games: &[String],
    time: BenchFor,
    seed: u64,
    options: &[String],
    variant: Option<&str>,
    format: Format,
) -> u8 {
    match time {
        BenchFor::Seconds(s) if !(s > 0.0 && s.is_finite()) => {
            to_stderr!("error: --seconds must be a positive number of seconds");
            return USAGE;
        }
        BenchFor::Playouts(0) => {
            to_stderr!("error: --playouts must be at least 1");
            return USAGE;
        }
        _ => {}
    }
    super::finish(bench_to(
        &mut std::io::stdout().lock(),
        games,
        time,
        seed,
        options,
        variant,
        format,
    ))
}

fn bench_to(
    w: &mut impl Write,
    games: &[String],
    time: BenchFor,
    seed: u64,
    options: &[String],
    variant: Option<&str>,
    format: Format,
) -> std::io::Result<u8> {
    let cases: Vec<Case> = if games.is_empty() {
        default_cases()
    } else {
        games
            .iter()
            .map(|g| Case {
                game: g.clone(),
                options: options.to_vec(),
                variant: variant.map(str::to_string),
            })
            .collect()
    };
    let mut rows = vec![];
    if format == Format::Text {
        writeln!(
            w,
            "{:<52} {:>12} {:>14} {:>10}",
            "game (random playouts, one thread)", "playouts/s", "decisions/s", "dec/game"
        )?;
    }
    for case in &cases {
        let g = match load_for_command(&case.game, &case.options, case.variant.as_deref()) {
            Ok((_, _, g)) => g,
            Err(code) => return Ok(code),
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let start = g.start();
        // A state of its own (not a clone of the start: that would drop its reserved room).
        let mut st = g.start();
        let (mut playouts, mut decisions) = (0u64, 0u64);
        let t0 = Instant::now();
        while match time {
            BenchFor::Seconds(s) => playouts == 0 || t0.elapsed().as_secs_f64() < s,
            BenchFor::Playouts(n) => playouts < n,
        } {
            decisions += random_playout(&g, &start, &mut st, &mut rng, |_| {});
            playouts += 1;
        }
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        let (pps, dps) = (playouts as f64 / secs, decisions as f64 / secs);
        let per = decisions as f64 / playouts as f64;
        match format {
            Format::Text => {
                writeln!(
                    w,
                    "{:<52} {pps:>12.0} {dps:>14.0} {per:>10.1}",
                    case.label()
                )?;
                w.flush()?;
            }
            Format::Json => rows.push(json!({
                "game": case.game,
                "options": case.options,
                "variant": case.variant,
                "playouts": playouts,
                "decisions": decisions,
                "seconds": secs,
                "playouts_per_second": pps,
                "decisions_per_second": dps,
                "decisions_per_playout": per,
            })),
        }
    }
    if format == Format::Json {
        super::write_json(w, &rows)?;
    }
    Ok(OK)
}
