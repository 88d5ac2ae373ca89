//! `ludic bench [GAME...]`: random playouts of each game for a fixed CPU time (or number) on
//! one thread, for the speed of the engine: playouts and decisions per CPU-second, decisions
//! per playout, each the median of interleaved rounds, with the machine's load.

use super::{OK, OptionArgs, USAGE, load_for_command};
use ludic::Settings;
use ludic::builtin;
use ludic::load_game;
use ludic::study::random_playout;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::json;
use std::io::{IsTerminal, Write};

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

/// How long each game of `bench` plays in a round.
#[derive(Clone, Copy, Debug)]
pub enum BenchFor {
    /// playouts for this many CPU-seconds (at least one)
    Seconds(f64),
    /// exactly this many playouts
    Playouts(u64),
}

/// How `bench` writes its table.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BenchFormat {
    /// aligned columns
    #[default]
    Text,
    /// a Markdown table, to paste into a note
    Markdown,
    /// one object a game, with each round
    Json,
}

// Arguments of `ludic bench`.
#[derive(clap::Args)]
#[command(
    after_help = "Without GAME: every built-in game, each of its variants, and a match of each game with an\noption that takes the value `match`. Options and a variant given apply to every GAME.\nThe games run one after another, round after round (interleaved, so that a change of the\nmachine's load touches them all), each timed by the CPU time of its thread; a row gives the\nmedian of its rounds, and the table ends with the load average at the start and the end.\nWith --playouts N, each game plays exactly N playouts a round (the same ones on any\nmachine): for comparing two builds by counts that do not depend on the load, e.g.\ninstructions under `valgrind --tool=callgrind` (tests/bench/instructions.sh).\n\nExamples:\n  ludic bench\n  ludic bench GAME --seconds 5 --rounds 5\n  ludic bench --format markdown\n  ludic bench my.game --variant NAME --format json\n  ludic bench chess --test-all\n  valgrind --tool=callgrind ludic bench GAME --playouts 2000"
)]
pub struct BenchArgs {
    /// Built-in games or .game files (default: every built-in game)
    pub games: Vec<String>,
    /// CPU-seconds of playouts for each game in each round
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Play exactly this many playouts for each game in each round instead of timing --seconds
    #[arg(long, value_name = "N", conflicts_with = "seconds")]
    pub playouts: Option<u64>,
    /// Rounds: each row is the median of its rounds [default: 3; 1 with --playouts]
    #[arg(long, value_name = "R")]
    pub rounds: Option<u32>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Test the `leaving` condition of every decision listed, as for a player shown all the
    /// legal decisions (by default a playout tests only the decisions it draws: the same
    /// draws, fewer look-aheads)
    #[arg(long)]
    pub test_all: bool,
    #[command(flatten)]
    pub opts: OptionArgs,
    #[arg(long, value_enum, default_value_t)]
    pub format: BenchFormat,
}

/// `ludic bench [GAME...] [--seconds S | --playouts N] [--rounds R]`
pub fn bench(args: &BenchArgs) -> u8 {
    let time = match args.playouts {
        Some(0) => {
            to_stderr!("error: --playouts must be at least 1");
            return USAGE;
        }
        Some(n) => BenchFor::Playouts(n),
        None if !(args.seconds > 0.0 && args.seconds.is_finite()) => {
            to_stderr!("error: --seconds must be a positive number of seconds");
            return USAGE;
        }
        None => BenchFor::Seconds(args.seconds),
    };
    let rounds = match args.rounds {
        Some(r) if !(1..=1000).contains(&r) => {
            to_stderr!("error: --rounds {r}: give a whole number from 1 to 1000");
            return USAGE;
        }
        Some(r) => r,
        None if args.playouts.is_some() => 1,
        None => 3,
    };
    let cases: Vec<Case> = if args.games.is_empty() {
        default_cases()
    } else {
        let variant = args.opts.variant.as_deref();
        args.games
            .iter()
            .map(|g| Case {
                game: g.clone(),
                options: args.opts.options.clone(),
                variant: variant.map(str::to_string),
            })
            .collect()
    };
    // every game is loaded (and its errors told) before any is timed
    let mut games = vec![];
    for case in cases {
        match load_for_command(&case.game, &case.options, case.variant.as_deref()) {
            Ok((_, _, g)) => games.push((case, g)),
            Err(code) => return code,
        }
    }
    let plan = Plan {
        time,
        rounds,
        seed: args.seed,
        defer: !args.test_all,
    };
    super::finish(bench_to(
        &mut std::io::stdout().lock(),
        &games,
        plan,
        args.format,
    ))
}

/// What each game plays: for how long a round, how many rounds, from which seed.
#[derive(Clone, Copy)]
struct Plan {
    time: BenchFor,
    rounds: u32,
    seed: u64,
    /// the `leaving` tests deferred to the decisions drawn (see `State::defer_leaving`)
    defer: bool,
}

/// One round of one game.
#[derive(Clone, Copy)]
struct Round {
    playouts: u64,
    decisions: u64,
    /// CPU-seconds of this thread
    seconds: f64,
}

/// One game's random playouts for one round, from the seed (every round plays the same
/// playouts, as many as its time allows).
fn play_round(g: &ludic::Game, time: BenchFor, seed: u64, defer: bool) -> Round {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = g.start();
    // A state of its own (not a clone of the start: that would drop its reserved room).
    let mut st = g.start();
    let (mut playouts, mut decisions) = (0u64, 0u64);
    let t0 = cpu_seconds();
    while match time {
        BenchFor::Seconds(s) => playouts == 0 || cpu_seconds() - t0 < s,
        BenchFor::Playouts(n) => playouts < n,
    } {
        decisions += random_playout(g, &start, &mut st, &mut rng, defer);
        playouts += 1;
    }
    let seconds = (cpu_seconds() - t0).max(1e-9);
    Round {
        playouts,
        decisions,
        seconds,
    }
}

/// The CPU time this thread has used, in seconds (the wall clock where the system does not
/// tell it).
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    if let Ok(t) = nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID) {
        return t.tv_sec() as f64 + t.tv_nsec() as f64 * 1e-9;
    }
    static T0: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    T0.get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// The load average of the last minute (Linux's /proc/loadavg), when the system tells it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The median of some numbers (the mean of the two middle ones for an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn bench_to(
    w: &mut impl Write,
    games: &[(Case, ludic::Game)],
    plan: Plan,
    format: BenchFormat,
) -> std::io::Result<u8> {
    let load_start = load_average();
    let mut rounds: Vec<Vec<Round>> = vec![vec![]; games.len()];
    let progress = std::io::stderr().is_terminal() && plan.rounds > 1;
    for r in 0..plan.rounds {
        for (i, (case, g)) in games.iter().enumerate() {
            if progress {
                eprint!("\x1b[2K\rround {}/{}: {}", r + 1, plan.rounds, case.label());
            }
            rounds[i].push(play_round(g, plan.time, plan.seed, plan.defer));
        }
    }
    if progress {
        eprint!("\x1b[2K\r");
    }
    let load = (load_start, load_average());
    write_table(w, games, &rounds, plan, load, format)?;
    Ok(OK)
}

/// The table: each game's median rates over its rounds.
fn write_table(
    w: &mut impl Write,
    games: &[(Case, ludic::Game)],
    rounds: &[Vec<Round>],
    plan: Plan,
    load: (Option<f64>, Option<f64>),
    format: BenchFormat,
) -> std::io::Result<()> {
    let mut rows = vec![];
    let head = ("playouts/CPU-s", "decisions/CPU-s", "dec/game");
    match format {
        BenchFormat::Text => writeln!(
            w,
            "{:<52} {:>15} {:>16} {:>10}",
            "game (random playouts, one thread)", head.0, head.1, head.2
        )?,
        BenchFormat::Markdown => {
            writeln!(w, "| game | {} | {} | {} |", head.0, head.1, head.2)?;
            writeln!(w, "|---|---:|---:|---:|")?;
        }
        BenchFormat::Json => {}
    }
    for ((case, _), runs) in games.iter().zip(rounds) {
        let pps = median(runs.iter().map(|r| r.playouts as f64 / r.seconds).collect());
        let dps = median(
            runs.iter()
                .map(|r| r.decisions as f64 / r.seconds)
                .collect(),
        );
        let (playouts, decisions): (u64, u64) = runs
            .iter()
            .fold((0, 0), |(p, d), r| (p + r.playouts, d + r.decisions));
        let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
        let per = decisions as f64 / playouts as f64;
        match format {
            BenchFormat::Text => writeln!(
                w,
                "{:<52} {pps:>15.0} {dps:>16.0} {per:>10.1}",
                case.label()
            )?,
            BenchFormat::Markdown => writeln!(
                w,
                "| `{}` | {} | {} | {per:.1} |",
                case.label(),
                grouped(pps),
                grouped(dps)
            )?,
            BenchFormat::Json => rows.push(json!({
                "game": case.game,
                "options": case.options,
                "variant": case.variant,
                "playouts": playouts,
                "decisions": decisions,
                "seconds": seconds,
                "playouts_per_second": pps,
                "decisions_per_second": dps,
                "decisions_per_playout": per,
                "rounds": runs.iter().map(|r| json!({
                    "playouts": r.playouts,
                    "decisions": r.decisions,
                    "seconds": r.seconds,
                })).collect::<Vec<_>>(),
            })),
        }
    }
    let each = match plan.time {
        BenchFor::Seconds(s) => format!("{s} CPU-s"),
        BenchFor::Playouts(n) => format!("{n} playouts"),
    };
    let shown = |l: Option<f64>| l.map_or("unknown".to_string(), |l| format!("{l:.2}"));
    let footer = format!(
        "median of {} round{} of {each} a game, games interleaved, seed {}; load average {} at the start, {} at the end",
        plan.rounds,
        if plan.rounds == 1 { "" } else { "s" },
        plan.seed,
        shown(load.0),
        shown(load.1),
    );
    match format {
        BenchFormat::Text => writeln!(w, "{footer}")?,
        BenchFormat::Markdown => writeln!(w, "\n{footer}")?,
        BenchFormat::Json => super::write_json(w, &rows)?,
    }
    Ok(())
}

/// A rate as a whole number with thousands separated by commas (`1,101,465`).
fn grouped(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
