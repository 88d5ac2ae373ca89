//! `ludic match GAME --agent A --agent B -n N`: games between two computer players with the
//! seats alternated, and the table of their results: wins, draws and losses, the score with a
//! 95% confidence interval (Wilson) and the Elo difference. The games are played at once on
//! the cores by the runner of the studies ([`ludic::study::run_games`]), game `i` with
//! generators seeded by (seed, `i`): the same games for any `-j` when the agents have playout
//! budgets.

use super::progress::MatchProgress;
use super::signals::{
    catch_signals, dropped_text, exit_code, note_late_signal, signal_name, stop_on_signal,
};
use super::{
    FAILED, Format, OK, OptionArgs, USAGE, deprecated, fmt_options, game_file, load_for_command,
};
use crate::cli::output::{Named, check_outputs};
use ludic::Player;
use ludic::agents::mcts::thousands;
use ludic::agents::{
    Agent, AgentSpec, AgentTally, GameEnd, GameSetup, Watch, default_threads, play_game,
};

pub use super::elo::elo;
use super::elo::{elo_json, elo_text};
use ludic::Game;
use ludic::output::{error_text, write_whole};
use ludic::record::{FinalPosition, Record, Step};
use ludic::render::final_position;
use ludic::source_hash;
pub use ludic::study::stats::wilson;
use ludic::study::{Control, run_games};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

// Arguments of `ludic match`.
#[derive(clap::Args)]
#[command(
    after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nAgent A plays the first side in even games (0, 2, ...) and the second side in odd games;\nwith more than two sides, A plays one side a game in turn and B all the others. The table\ngives each agent's wins, draws and losses, its score (a win 1, a draw 1/2) with a 95%\nWilson interval, the Elo difference with its interval, and the share of decisions that\nwere real choices (more than one legal decision). For the game's own metrics (balance,\nlength, branching, and skill as a score) played by agents, see `ludic simulate --agent A\n--agent B`; match is for the agents: their table, Elo and the records of their games.\n\n-j games are played at once (default: every core), each search on one thread unless\n--threads or the agent's spec (mcts:threads=K) says more; by default -j is the cores\ndivided by the threads of a search. Game i plays with generators seeded by (seed, i): the\nsame seed gives the same games for any -j when the agents have a playout budget (not a\ntime budget). At a terminal a progress line shows the games done, A's score so far, the\nplayouts a second and the time left. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the match at\nonce: the games in progress are dropped (their searches stopped), the games finished are\nprinted, marked partial, and with --record-dir each has its record. A second signal ends at\nonce.\n\nExamples:\n  ludic match GAME --agent mcts --agent random -n 100\n  ludic match GAME --agent mcts:playouts=2000 --agent mcts:playouts=200 -n 20\n  ludic match GAME --agent mcts:playouts=20000 --agent mcts --threads 2 -j 1\n  ludic match GAME --agent random --agent random -n 1000 --format json\n  ludic match GAME --agent mcts:time=200ms --agent random -n 10 --record-dir games/\n\nExit codes: 0 success, 1 invalid game file or unwritable record, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::agents::AGENT_HELP)
)]
pub struct MatchArgs {
    /// A built-in game or a .game file
    pub game: String,
    /// An agent (give two: A, then B; see Agents below)
    #[arg(long = "agent", value_name = "AGENT", required = true)]
    pub agents: Vec<String>,
    /// Number of games
    #[arg(short = 'n', long = "games", value_name = "N", default_value_t = 100)]
    pub n: u64,
    /// Games played at once (default: every core, shared with the searches' threads); the
    /// results do not depend on it
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Threads of each search, unless an agent's spec says (default: 1)
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Seed of the match: game i draws from generators seeded by (seed, i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub opts: OptionArgs,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Write each game's record (as `play --record` does) into this folder (new or empty)
    #[arg(long, value_name = "DIR")]
    pub record_dir: Option<String>,
    /// Write the records into a folder that is not empty (files of the same names are
    /// replaced)
    #[arg(long, requires = "record_dir")]
    pub force: bool,
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// The score: a win 1, a draw ½, a loss 0, over the games (0.5 with no game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }
    fn add(&mut self, r: f64) {
        if r == 1.0 {
            self.wins += 1;
        } else if r == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
    fn json(&self) -> Value {
        json!({"wins": self.wins, "draws": self.draws, "losses": self.losses})
    }
}

/// What one agent did over the match.
#[derive(Clone, Debug, Default)]
struct Tally {
    total: Wdl,
    /// by the side it played (agent A: one side a game; agent B: the others)
    by_side: Vec<Wdl>,
    decisions: u64,
    /// decisions with more than one legal decision
    choices: u64,
    playouts: u64,
    searched: u64,
    thinking: Duration,
}

impl Tally {
    /// Adds what an agent did in one game (its decisions, playouts and time).
    fn absorb(&mut self, game: &Tally) {
        self.decisions += game.decisions;
        self.choices += game.choices;
        self.playouts += game.playouts;
        self.searched += game.searched;
        self.thinking += game.thinking;
    }
}

/// The result of one game.
struct Played {
    /// the side agent A played
    a_side: Player,
    /// A's reward: 1 a win, ½ a draw, 0 a loss
    a_reward: f64,
    /// how the game ended (`rules`, `turn_limit`, ..., `forfeit`)
    reason: &'static str,
    /// the sentence of a forfeit
    forfeit: Option<String>,
    decisions: u64,
    steps: Vec<Step>,
    result: Option<Value>,
    /// the last position (with a record)
    last: Option<FinalPosition>,
    /// what each agent did in it (by_side empty)
    tallies: [Tally; 2],
    /// how long it took
    length: Duration,
}

/// Plays game `i` of the match: agent A on side `i mod sides`, agent B on every other side,
/// by the library's game loop ([`ludic::agents::play_game`]: its chance events and each
/// agent's decisions draw from generators seeded by (`seed`, `i`) only, so that the game is
/// the same whichever thread plays it and whenever). The playouts of the searches are added
/// to `playouts` as they run (for the progress). None when the program is asked to stop
/// during the game.
fn play_one(
    g: &Game,
    specs: &[AgentSpec; 2],
    i: u64,
    seed: u64,
    record: bool,
    playouts: &AtomicU64,
) -> Option<Played> {
    let a_side = ludic::agents::match_side(g, i);
    let mut agents: Vec<Box<dyn Agent>> = specs
        .iter()
        .map(|s| {
            s.build()
                .unwrap_or_else(|| Box::new(ludic::agents::RandomAgent))
        })
        .collect();
    struct Count<'a>(&'a AtomicU64);
    impl Watch for Count<'_> {
        fn playouts(&mut self, n: u64) {
            self.0.fetch_add(n, Ordering::Relaxed);
        }
    }
    let seat = |p: Player| usize::from(g.side_of(p) != a_side);
    let setup = GameSetup {
        seed,
        index: i,
        record,
    };
    let p = play_game(g, &mut agents, &seat, &setup, &mut Count(playouts))?;
    let tally = |t: &AgentTally| Tally {
        total: Wdl::default(),
        by_side: vec![],
        decisions: t.decisions,
        choices: t.choices,
        playouts: t.playouts,
        searched: t.searched,
        thinking: t.thinking,
    };
    // A's reward: 1 when its side wins, 0 when another does or it forfeits, ½ for a draw
    // (B plays every other side: its forfeit is A's win, with any number of sides)
    let a_reward = match (&p.end, p.end.winner(g)) {
        (GameEnd::Forfeit(f), _) => f64::from(u8::from(f.agent != 0)),
        (_, Some(w)) if w == a_side => 1.0,
        (_, Some(_)) => 0.0,
        (_, None) => 0.5,
    };
    Some(Played {
        a_side,
        a_reward,
        reason: p.end.code(),
        decisions: p.decisions,
        result: Some(p.end.json(g)),
        last: record.then(|| final_position(g, &p.state)),
        steps: p.steps,
        tallies: [tally(&p.tallies[0]), tally(&p.tallies[1])],
        length: p.length,
        forfeit: p.end.forfeit().map(|f| f.text(g)),
    })
}

/// The path of game `i`'s record in the folder (numbered from 1, `width` digits).
fn record_path(dir: &str, i: u64, width: usize) -> String {
    std::path::Path::new(dir)
        .join(format!("game-{:0width$}.json", i + 1))
        .to_string_lossy()
        .into_owned()
}

/// The threads of the searches of `specs` (one for an agent that does not search).
fn search_threads(specs: &[AgentSpec]) -> usize {
    specs
        .iter()
        .map(|s| match s {
            AgentSpec::Mcts(c) => c.threads.max(1),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
}

/// Whether the command line gave the short flag `-C` (as `-C N`, `-CN` or `-C=N`), as opposed
/// to its long spelling: for a flag whose short spelling changed meaning.
fn gave_short_flag(c: char) -> bool {
    let short = format!("-{c}");
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == short || (a.starts_with(&short) && !a.starts_with("--")))
}

/// `ludic match GAME --agent A --agent B -n N`
pub fn run_match(args: &MatchArgs) -> u8 {
    if args.jobs.is_some() && gave_short_flag('j') {
        deprecated(
            "`-j` in match now means games played at once (it meant the threads of a search: write `--threads N` for that); old scripts play N games at once, one search thread each, and a seed gives the same games for any -j",
        );
    }
    catch_signals();
    let (label, source, g) =
        match load_for_command(&args.game, &args.opts.options, args.opts.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let mut specs = match match_agents(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // the standard error of external programs goes next to the records
    for s in specs.iter_mut() {
        if let (AgentSpec::Command(c), Some(dir)) = (s, &args.record_dir) {
            c.log_dir = Some(dir.into());
        }
    }
    if args.n == 0 {
        to_stderr!("error: -n must be at least 1");
        return USAGE;
    }
    // Games at once: as asked, or as many as the cores hold searches (only one agent of a
    // game searches at a time), never more than the games.
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| (default_threads() / search_threads(&specs)).max(1))
        .clamp(1, usize::try_from(args.n).unwrap_or(usize::MAX));
    let width = args.n.to_string().len();
    if let Some(dir) = &args.record_dir
        && let Err(code) = prepare_record_dir(args, dir, width)
    {
        return code;
    }
    let head = RecordHead {
        g: &g,
        label: &label,
        source: &source,
        specs: &specs,
        seed: args.seed,
    };
    let (results, ctl, write_error) = play_match(args, &head, jobs, width);
    super::note_agent_logs(&specs);
    if let Some(e) = write_error {
        to_stderr!("error: {e}");
        return FAILED;
    }
    let n = results.tallies[0].total.games();
    // (stopped before the first game ended, the table is one of no games: still printed, so
    // that what reads it is told the match is partial)
    let partial = n < args.n;
    let summary = Summary {
        g: &g,
        args,
        specs: &specs,
        results: &results,
        n,
        partial,
        jobs,
    };
    let out = &mut std::io::stdout().lock();
    let written = match args.format {
        Format::Json => summary.write_json(out),
        Format::Text => summary.write_text(out),
    }
    .map(|()| if partial { exit_code() } else { OK });
    if partial {
        to_stderr!(
            "interrupted by {}: the results of the {n} games played are shown, marked partial{}",
            signal_name(),
            dropped_text(ctl.dropped.load(Ordering::Relaxed))
        );
    } else {
        note_late_signal();
    }
    super::finish(written)
}

/// The two agents of a match (computers, A then B); the error (said) is the exit code.
fn match_agents(args: &MatchArgs) -> Result<[AgentSpec; 2], u8> {
    if args.agents.len() != 2 {
        to_stderr!(
            "error: a match is between two agents: give --agent twice (e.g. --agent mcts --agent random)"
        );
        return Err(USAGE);
    }
    // A search uses one thread unless --threads or its spec says: the games are what run in
    // parallel, so that a seed gives the same games for any -j.
    let threads = args.threads.map_or(1, usize::from).max(1);
    let mut specs = vec![];
    for a in &args.agents {
        match AgentSpec::parse(a, threads) {
            Ok(AgentSpec::Human) => {
                to_stderr!("error: a match is played by computer agents: `human` cannot play one");
                return Err(USAGE);
            }
            Ok(s) => specs.push(s),
            Err(e) => {
                to_stderr!("error: {e}");
                return Err(USAGE);
            }
        }
    }
    Ok([specs[0].clone(), specs[1].clone()])
}

/// The folder of the records (--record-dir), made; the error (said) is the exit code.
fn prepare_record_dir(args: &MatchArgs, dir: &str, width: usize) -> Result<(), u8> {
    // the records of an earlier match are not overwritten without a word
    let used = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some());
    if used && !args.force {
        to_stderr!(
            "error: the folder `{dir}` is not empty: its records would be replaced\nhint: give an empty or new folder, or --force to write into it"
        );
        return Err(USAGE);
    }
    if std::path::Path::new(dir).exists() && !std::path::Path::new(dir).is_dir() {
        to_stderr!("error: `{dir}` is not a folder");
        return Err(USAGE);
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        to_stderr!("error: cannot create the folder `{dir}`: {e}");
        return Err(FAILED);
    }
    // a used folder (--force): none of the files to write may be a folder, a FIFO, a
    // device, a link to nothing, the game file or standard output
    if used {
        let paths: Vec<String> = (0..args.n).map(|i| record_path(dir, i, width)).collect();
        let outputs: Vec<Named> = paths.iter().map(|p| Named::new("the record", p)).collect();
        let inputs = [Named::new(
            "the game file being played",
            game_file(&args.game),
        )];
        if let Err(e) = check_outputs(&inputs, &outputs, true) {
            to_stderr!("error: {e}");
            return Err(USAGE);
        }
    }
    Ok(())
}

/// What every record of a match has in common.
struct RecordHead<'a> {
    g: &'a Game,
    label: &'a str,
    source: &'a str,
    specs: &'a [AgentSpec; 2],
    seed: u64,
}

impl RecordHead<'_> {
    /// Writes the record of a game to `path`, whole.
    fn write(&self, p: Played, path: &str) -> Result<(), String> {
        let g = self.g;
        let mut agents = BTreeMap::new();
        for (pi, name) in g.players().iter().enumerate() {
            let k = usize::from(g.side_of(Player(pi as u8)) != p.a_side);
            agents.insert(name.clone(), self.specs[k].describe());
        }
        let rec = Record {
            format: ludic::record::FORMAT,
            game: self.label.to_string(),
            title: g.title().to_string(),
            source_hash: source_hash(self.source),
            options: g.option_values(),
            seed: Some(self.seed),
            agents,
            steps: p.steps,
            result: p.result,
            last: p.last,
        };
        let text = serde_json::to_string_pretty(&rec).unwrap_or_default() + "\n";
        write_whole(path, text.as_bytes(), false)
            .map_err(|e| format!("cannot write `{path}`: {}", error_text(&e)))
    }
}

/// The results of the games of a match so far.
struct Results {
    /// agent A's, then B's
    tallies: [Tally; 2],
    /// how the games ended, by reason
    reasons: BTreeMap<&'static str, u64>,
    decisions: u64,
    seconds: f64,
    /// the games lost by a forfeit: their number (from 0) and the forfeit in words
    forfeits: Vec<(u64, String)>,
}

impl Results {
    fn new(nsides: usize) -> Results {
        let mut tallies: [Tally; 2] = Default::default();
        for t in tallies.iter_mut() {
            t.by_side = vec![Wdl::default(); nsides];
        }
        Results {
            tallies,
            reasons: BTreeMap::new(),
            decisions: 0,
            seconds: 0.0,
            forfeits: vec![],
        }
    }

    /// Counts game `i`; A's reward (1 when its side wins, 0 when another does or it
    /// forfeits, ½ for a draw).
    fn add(&mut self, i: u64, p: &Played) -> f64 {
        if let Some(f) = &p.forfeit {
            self.forfeits.push((i, f.clone()));
        }
        let ra = p.a_reward;
        let tallies = &mut self.tallies;
        tallies[0].total.add(ra);
        tallies[0].by_side[p.a_side.0 as usize].add(ra);
        tallies[1].total.add(1.0 - ra);
        let nsides = tallies[1].by_side.len();
        for s in (0..nsides).filter(|&s| s != p.a_side.0 as usize) {
            tallies[1].by_side[s].add(1.0 - ra);
        }
        for (t, game) in tallies.iter_mut().zip(&p.tallies) {
            t.absorb(game);
        }
        *self.reasons.entry(p.reason).or_default() += 1;
        self.decisions += p.decisions;
        ra
    }
}

/// Plays the games of a match on `jobs` threads, with the progress line, each record written
/// as its game ends (with --record-dir); stopped by a signal or a record that cannot be
/// written (the error).
fn play_match(
    args: &MatchArgs,
    head: &RecordHead,
    jobs: usize,
    width: usize,
) -> (Results, Control, Option<String>) {
    let g = head.g;
    let mut results = Results::new(g.sides().len().max(1));
    let mut write_error: Option<String> = None;
    let playouts = AtomicU64::new(0);
    let progress = RefCell::new(MatchProgress::new(args.n, jobs, head.label));
    let record = args.record_dir.is_some();
    let ctl = Control::default();
    let stopping = || {
        if stop_on_signal(&ctl, true) {
            progress.borrow_mut().stopping();
        }
    };
    // a signal during the load stops the match before its first game
    stopping();
    let t0 = Instant::now();
    run_games(
        0..args.n,
        jobs,
        1,
        &ctl,
        || (),
        |_, i| {
            let p = play_one(g, head.specs, i, args.seed, record, &playouts);
            if p.is_none() {
                ctl.dropped.fetch_add(1, Ordering::Relaxed);
            }
            p
        },
        |i, p| {
            let ra = results.add(i, &p);
            progress.borrow_mut().game_done(ra, p.length);
            if let Some(dir) = &args.record_dir
                && write_error.is_none()
                && let Err(e) = head.write(p, &record_path(dir, i, width))
            {
                write_error = Some(e);
                ctl.stop.store(true, Ordering::Relaxed);
            }
        },
        |_| {
            stopping();
            progress.borrow_mut().tick(playouts.load(Ordering::Relaxed));
        },
    );
    progress.borrow().finish();
    results.seconds = t0.elapsed().as_secs_f64();
    (results, ctl, write_error)
}

/// The forfeits the text of a match lists (the first ones by game).
const SHOWN_FORFEITS: usize = 5;

/// The table of a match, for printing.
struct Summary<'a> {
    g: &'a Game,
    args: &'a MatchArgs,
    specs: &'a [AgentSpec; 2],
    results: &'a Results,
    /// the games played
    n: u64,
    partial: bool,
    jobs: usize,
}

impl Summary<'_> {
    /// The table as JSON.
    fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        let Summary {
            g,
            args,
            specs,
            results,
            n,
            partial,
            jobs,
        } = *self;
        let tallies = &results.tallies;
        let score = tallies[0].total.score();
        let (lo, hi) = wilson(score, n);
        let (reasons, decisions_total, secs) =
            (&results.reasons, results.decisions, results.seconds);
        let names = ["A", "B"];
        let agents: Vec<Value> = (0..2)
            .map(|k| {
                let t = &tallies[k];
                let s = t.total.score();
                let (l, h) = wilson(s, n);
                let by_side: BTreeMap<&str, Value> = g
                    .sides()
                    .iter()
                    .zip(&t.by_side)
                    .filter(|(_, w)| w.games() > 0)
                    .map(|(name, w)| (name.as_str(), w.json()))
                    .collect();
                json!({
                    "name": names[k],
                    "spec": args.agents[k],
                    "agent": specs[k].describe(),
                    "wins": t.total.wins,
                    "draws": t.total.draws,
                    "losses": t.total.losses,
                    "score": s,
                    "score_low": l,
                    "score_high": h,
                    "by_side": by_side,
                    "decisions": t.decisions,
                    "real_choices": t.choices,
                    "playouts": t.playouts,
                    "searched_decisions": t.searched,
                    "thinking_seconds": t.thinking.as_secs_f64(),
                })
            })
            .collect();
        let mut v = json!({
            "game": g.title(),
            "options": g.option_values(),
            "seed": args.seed,
            "games": n,
            "requested": args.n,
            "partial": partial,
            "agents": agents,
            "interval": "wilson 95%",
            "elo": elo_json(elo(score)),
            "elo_low": elo_json(elo(lo)),
            "elo_high": elo_json(elo(hi)),
            "ended_by": reasons,
            "decisions_mean": decisions_total as f64 / n.max(1) as f64,
            "jobs": jobs,
            "seconds": secs,
        });
        if !results.forfeits.is_empty() {
            let mut f = results.forfeits.clone();
            f.sort();
            v["forfeits"] = f
                .iter()
                .map(|(i, why)| json!({"game": i + 1, "why": why}))
                .collect();
        }
        super::write_json(out, &v)
    }

    /// The table as text.
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        let Summary {
            g,
            args,
            specs,
            results,
            n,
            partial,
            jobs,
        } = *self;
        let tallies = &results.tallies;
        let nsides = g.sides().len().max(1);
        let score = tallies[0].total.score();
        let (lo, hi) = wilson(score, n);
        let (reasons, decisions_total, secs) =
            (&results.reasons, results.decisions, results.seconds);
        let names = ["A", "B"];
        writeln!(
            out,
            "{}: {n} games{}, seats alternated (seed {}; {})",
            g.title(),
            if partial {
                format!(" of {} (PARTIAL: stopped by {})", args.n, signal_name())
            } else {
                String::new()
            },
            args.seed,
            fmt_options(g)
        )?;
        writeln!(out, "  A = {}", specs[0].describe())?;
        writeln!(out, "  B = {}", specs[1].describe())?;
        if nsides > 2 {
            writeln!(
                out,
                "  ({nsides} sides: A plays one side a game, in turn; B plays all the others)"
            )?;
        }
        writeln!(
            out,
            "  {:<5} {:>6} {:>6} {:>6} {:>7}   95% CI (Wilson)",
            "agent", "wins", "draws", "losses", "score"
        )?;
        for k in 0..2 {
            let t = &tallies[k].total;
            let (l, h) = wilson(t.score(), n);
            writeln!(
                out,
                "  {:<5} {:>6} {:>6} {:>6} {:>6.1}%   {:.1}% .. {:.1}%",
                names[k],
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                100.0 * l,
                100.0 * h
            )?;
        }
        let seats: Vec<String> = g
            .sides()
            .iter()
            .zip(&tallies[0].by_side)
            .map(|(s, w)| format!("as {s} {}-{}-{}", w.wins, w.draws, w.losses))
            .collect();
        writeln!(out, "  A by side (wins-draws-losses): {}", seats.join(", "))?;
        writeln!(
            out,
            "  Elo difference A - B: {} (95% CI {} .. {})",
            elo_text(elo(score)),
            elo_text(elo(lo)),
            elo_text(elo(hi))
        )?;
        for k in 0..2 {
            let t = &tallies[k];
            let share = if t.decisions == 0 {
                0.0
            } else {
                100.0 * t.choices as f64 / t.decisions as f64
            };
            let mut line = format!(
                "  {}: {} decisions, {share:.0}% of them real choices",
                names[k],
                thousands(t.decisions)
            );
            if let Some(per) = t.playouts.checked_div(t.searched) {
                let secs = t.thinking.as_secs_f64();
                line.push_str(&format!(
                    "; {} playouts and {:.2} s a searched decision ({} playouts/s)",
                    thousands(per),
                    secs / t.searched as f64,
                    thousands((t.playouts as f64 / secs.max(1e-9)) as u64)
                ));
            }
            writeln!(out, "{line}")?;
        }
        let ended: Vec<String> = reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
        writeln!(
            out,
            "  games ended by: {}; {:.1} decisions a game; {secs:.1} s, {jobs} game{} at once",
            ended.join(", "),
            decisions_total as f64 / n.max(1) as f64,
            if jobs == 1 { "" } else { "s" }
        )?;
        let mut forfeits = results.forfeits.clone();
        forfeits.sort();
        for (i, why) in forfeits.iter().take(SHOWN_FORFEITS) {
            writeln!(out, "  game {}: {why}", i + 1)?;
        }
        if forfeits.len() > SHOWN_FORFEITS {
            writeln!(
                out,
                "  ... and {} more forfeits (all in --format json)",
                forfeits.len() - SHOWN_FORFEITS
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludic::study::stream_seed;

    #[test]
    fn wilson_interval_and_elo() {
        let (l, h) = wilson(0.5, 100);
        assert!(
            (l - 0.4038).abs() < 1e-3 && (h - 0.5962).abs() < 1e-3,
            "{l} {h}"
        );
        let (l, h) = wilson(1.0, 100);
        assert!((l - 0.9630).abs() < 1e-3 && h == 1.0, "{l} {h}");
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn streams_differ() {
        assert_ne!(stream_seed(1, 0, 0), stream_seed(1, 0, 1));
        assert_ne!(stream_seed(1, 0, 0), stream_seed(1, 1, 0));
    }
}
