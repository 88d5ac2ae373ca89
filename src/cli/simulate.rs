//! `ludic simulate GAME -n N`: many games (random playouts, one agent on every side, or two
//! agents with seats alternated) on every core, and the metrics of the game (see
//! [`ludic::study`]); a progress bar at a terminal; Ctrl-C (or SIGTERM, SIGHUP) stops and reports
//! the games played (see [`super::signals`]).

use super::signals::{
    catch_signals, dropped_text, exit_code, note_late_signal, signal_name, stop_on_signal,
};
use super::{OK, OptionArgs, USAGE, deprecated, load_for_command};
use ludic::Game;
use ludic::agents::{AgentSpec, default_threads};

use ludic::study::merge::{parse_shard, shard_range};
use ludic::study::report::{Output, Study, write_study};
use ludic::study::{Control, Plan};
use std::sync::atomic::Ordering;

/// Output of the study commands (simulate, compare, merge).
#[derive(Clone, Copy, clap::ValueEnum, Default)]
pub enum StudyFormat {
    /// a table
    #[default]
    Text,
    Json,
    Csv,
}

impl From<StudyFormat> for Output {
    fn from(f: StudyFormat) -> Self {
        match f {
            StudyFormat::Text => Output::Table,
            StudyFormat::Json => Output::Json,
            StudyFormat::Csv => Output::Csv,
        }
    }
}

// How the games of a study are played (simulate, compare): their arguments.
#[derive(clap::Args, Clone)]
pub struct StudyOpts {
    /// Number of games (random playouts, or games of the agents)
    #[arg(short = 'n', long = "games", value_name = "N", default_value_t = 1000)]
    pub n: u64,
    /// The old spelling of -n (deprecated)
    #[arg(long = "playouts", value_name = "N", hide = true, conflicts_with = "n")]
    pub old_playouts: Option<u64>,
    /// Seed of the run: game i draws from generators seeded by (seed, i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// No agent: random playouts; once: that agent on every side; twice: A against B, seats
    /// alternated (see Agents below)
    #[arg(long = "agent", value_name = "AGENT")]
    pub agents: Vec<String>,
    /// Games played at once (default: every core); the results do not depend on it
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// The old spelling of -j (deprecated)
    #[arg(long = "threads", value_name = "N", hide = true, conflicts_with = "jobs", value_parser = clap::value_parser!(u16).range(1..))]
    pub old_threads: Option<u16>,
    /// Play only shard I of N (a block of the games; see `ludic merge`)
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Only the cheap metrics: no following of the score (decisiveness, lead changes, branching
    /// by tenth of the game)
    #[arg(long)]
    pub quick: bool,
}

impl StudyOpts {
    /// The arguments resolved, with a note on standard error for each old spelling used in
    /// `command`.
    pub fn resolve(&self, command: &str) -> StudyArgs {
        if self.old_playouts.is_some() {
            deprecated(&format!(
                "`--playouts` in {command} is the number of games: write `-n N` (or `--games N`)"
            ));
        }
        if self.old_threads.is_some() {
            deprecated(&format!(
                "`--threads` in {command} is the number of games played at once: write `-j N` (or `--jobs N`); `--threads` is the threads of a search in play and match"
            ));
        }
        StudyArgs {
            n: self.old_playouts.unwrap_or(self.n),
            seed: self.seed,
            agents: self.agents.clone(),
            jobs: self.jobs.or(self.old_threads).map(usize::from),
            shard: self.shard.clone(),
            quick: self.quick,
        }
    }
}

/// How the games of a study are played (shared by `simulate` and `compare`), the old
/// spellings resolved.
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
    let study =
        ludic::study::run::study(g, &ludic::source_hash(source), a.n, &plan, &ctl, |done| {
            stop_on_signal(&ctl, agents);
            bar.set_position(done);
        });
    bar.finish_and_clear();
    after_study(&study, total, &ctl, specs, label);
    study
}

/// After a study of `total` games: says on standard error when agents forfeited games, where the logs of
/// `cmd:` agents are, and when a signal stopped the study (it is then partial).
pub(crate) fn after_study(
    study: &Study,
    total: u64,
    ctl: &Control,
    specs: &[AgentSpec],
    label: &str,
) {
    let stats = &study.stats;
    if stats.forfeits > 0 {
        let first = ctl
            .forfeit
            .lock()
            .ok()
            .and_then(|f| f.clone())
            .map(|(i, why)| format!("; the first, game {}: {why}", i + 1))
            .unwrap_or_default();
        to_stderr!(
            "warning: {label}: {} of the games ended by a forfeit (an agent could not decide), counted as lost by its side{first}",
            stats.forfeits
        );
    }
    super::note_agent_logs(specs);
    if study.partial {
        to_stderr!(
            "interrupted by {}: {label}: {} of {} games played{}",
            signal_name(),
            stats.games,
            total,
            dropped_text(ctl.dropped.load(Ordering::Relaxed))
        );
    }
}

// Arguments of `ludic simulate`.
#[derive(clap::Args)]
#[command(
    after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nsimulate reports the game's metrics; for the agents' own table (wins, score, Elo) and the\nrecords of their games, see `ludic match`.\n\nGame i of a run plays with generators seeded by (seed, i): the results are the same for any\n-j. A searching agent uses one thread (mcts:threads=K for more). At a terminal a progress\nbar shows the rate and the time left. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the run\nwithin a second and prints the games finished, marked partial (JSON \"partial\": true, a\n`# PARTIAL` first line in CSV); an agents' game in progress is dropped, its search stopped;\nwith -j 1 the games finished are the first ones. A second signal ends at once.\n\nExamples:\n  ludic simulate GAME -n 100000\n  ludic simulate GAME -n 1000 --variant NAME --seed 1 --format json\n  ludic simulate GAME -n 1000 -o rounds=match --format csv\n  ludic simulate GAME -n 200 --agent mcts:playouts=300           (the agent on every side)\n  ludic simulate GAME -n 200 --agent mcts:playouts=1000 --agent mcts:playouts=100   (skill)\n  ludic simulate GAME -n 1000000 --shard 3/8 --format json > part3.json   (see `ludic merge`)\n\n{}\n\nExit codes: 0 success, 1 invalid game file or unwritable output, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::study::METRICS_HELP, ludic::agents::AGENT_HELP)
)]
pub struct SimulateArgs {
    /// A built-in game or a .game file
    pub game: String,
    #[command(flatten)]
    pub study: StudyOpts,
    #[command(flatten)]
    pub opts: OptionArgs,
    /// text (a table), json (with the statistics `ludic merge` reads) or csv
    #[arg(long, value_enum, default_value_t)]
    pub format: StudyFormat,
}

/// `ludic simulate GAME -n N`
pub fn simulate(args: &SimulateArgs, colour: bool) -> u8 {
    let plan = args.study.resolve("simulate");
    catch_signals();
    let (label, source, g) =
        match load_for_command(&args.game, &args.opts.options, args.opts.variant.as_deref()) {
            Ok(x) => x,
            Err(c) => return c,
        };
    let (specs, range) = match check_study_args(&plan) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let study = play_study(&g, &source, &plan, &specs, range, &label);
    let written = write_study(
        &mut std::io::stdout().lock(),
        &study,
        args.format.into(),
        colour,
    )
    .map(|()| if study.partial { exit_code() } else { OK });
    if study.partial {
        to_stderr!("the results of the games played are shown, marked partial");
    } else {
        note_late_signal();
    }
    super::finish(written)
}
