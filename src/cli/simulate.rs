//! `ludic simulate GAME -n N`: many games (random playouts, one agent on every side, or two
//! agents with seats alternated) on every core, and the metrics of the game (see
//! [`ludic::study`]); a progress bar at a terminal; Ctrl-C (or SIGTERM, SIGHUP) stops and reports
//! the games played (see [`super::signals`]).

use super::signals::{
    catch_signals, dropped_text, exit_code, note_late_signal, signal_name, stop_on_signal,
};
use super::{OK, USAGE, load_for_command};
use ludic::agents::{AgentSpec, default_threads};
use ludic::check::option_map;
use ludic::engine::Game;
use ludic::study::merge::{parse_shard, shard_range};
use ludic::study::report::{Output, Study, write_study};
use ludic::study::{Control, Plan, run};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// How the games of a study are played (shared by `simulate` and `compare`).
pub struct StudyArgs {
    /// games to play
    pub n: u64,
    pub seed: u64,
    /// none: random playouts; one: that agent on every side; two: A against B
    pub agents: Vec<String>,
    /// games played at once (`-j`; default: every core)
    pub jobs: Option<usize>,
    /// `i/N`: play only shard i of N
    pub shard: Option<String>,
    /// only the cheap metrics (no score following)
    pub quick: bool,
}

/// The agents of a study from their specs (a searching agent uses one thread unless its spec
/// says otherwise: the games are what run in parallel); the error is the exit code.
pub(crate) fn study_agents(agents: &[String]) -> Result<Vec<AgentSpec>, u8> {
    if agents.len() > 2 {
        to_stderr!("error: give --agent once (it plays every side) or twice (A against B)");
        return Err(USAGE);
    }
    let mut specs = vec![];
    for a in agents {
        match AgentSpec::parse(a, 1) {
            Ok(AgentSpec::Human) => {
                to_stderr!("error: a study is played by computer agents: `human` cannot play");
                return Err(USAGE);
            }
            Ok(s) => specs.push(s),
            Err(e) => {
                to_stderr!("error: {e}");
                return Err(USAGE);
            }
        }
    }
    if specs == [AgentSpec::Random] {
        specs.clear();
    }
    Ok(specs)
}

/// Checks the arguments that do not depend on the game: (agents, range of games).
pub(crate) fn check_study_args(
    a: &StudyArgs,
) -> Result<(Vec<AgentSpec>, std::ops::Range<u64>), u8> {
    let specs = study_agents(&a.agents)?;
    let range = match a.shard.as_deref().map(parse_shard) {
        None => 0..a.n,
        Some(Ok((i, n))) => shard_range(a.n, i, n),
        Some(Err(e)) => {
            to_stderr!("error: {e}");
            return Err(USAGE);
        }
    };
    Ok((specs, range))
}

/// Plays a study of `g` (`label` names it on the progress bar), with a progress bar when
/// standard error is a terminal; a signal stops it (the study is then partial: the games
/// finished are counted, a game in progress is dropped), and says so on standard error.
pub(crate) fn play_study(
    g: &Game,
    source: &str,
    a: &StudyArgs,
    specs: &[AgentSpec],
    range: std::ops::Range<u64>,
    label: &str,
) -> Study {
    let threads = a.jobs.unwrap_or_else(default_threads).max(1);
    let plan = Plan {
        seed: a.seed,
        range: range.clone(),
        threads,
        full: !a.quick,
        agents: specs,
    };
    let total = range.end - range.start;
    let bar = super::progress::study_bar(total, label);
    catch_signals();
    let ctl = Control::default();
    let agents = !specs.is_empty();
    // a signal during the load stops the study before its first game
    stop_on_signal(&ctl, agents);
    let t0 = Instant::now();
    let stats = run(g, &plan, &ctl, g.sides.len(), |done| {
        stop_on_signal(&ctl, agents);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let partial = stats.games < total;
    if partial {
        to_stderr!(
            "interrupted by {}: {label}: {} of {} games played{}",
            signal_name(),
            stats.games,
            total,
            dropped_text(ctl.dropped.load(Ordering::Relaxed))
        );
    }
    Study {
        game: g.meta.name.clone(),
        source_hash: ludic::source_hash(source),
        options: option_map(g),
        sides: g.sides.clone(),
        rounds_game: g.between_start.is_some(),
        seed: a.seed,
        agents: specs.iter().map(AgentSpec::describe).collect(),
        full: !a.quick,
        requested: a.n,
        ranges: (!partial).then(|| {
            if range.is_empty() {
                vec![]
            } else {
                vec![[range.start, range.end]]
            }
        }),
        partial,
        stats,
        seconds: t0.elapsed().as_secs_f64(),
        threads: Some(threads),
    }
}

/// Arguments of `ludic simulate`.
pub struct SimulateArgs {
    pub game: String,
    pub options: Vec<String>,
    pub variant: Option<String>,
    pub study: StudyArgs,
    pub output: Output,
    pub colour: bool,
}

/// `ludic simulate GAME -n N`
pub fn simulate(args: &SimulateArgs) -> u8 {
    catch_signals();
    let (label, source, g) =
        match load_for_command(&args.game, &args.options, args.variant.as_deref()) {
            Ok(x) => x,
            Err(c) => return c,
        };
    let (specs, range) = match check_study_args(&args.study) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let study = play_study(&g, &source, &args.study, &specs, range, &label);
    let written = write_study(
        &mut std::io::stdout().lock(),
        &study,
        args.output,
        args.colour,
    )
    .map(|()| if study.partial { exit_code() } else { OK });
    if study.partial {
        to_stderr!("the results of the games played are shown, marked partial");
    } else {
        note_late_signal();
    }
    super::finish(written)
}
