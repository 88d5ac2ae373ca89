//! Playing the games of a study on several threads, with results that do not depend on the
//! number of threads: game `i` draws from generators seeded by (run seed, `i`) only, threads
//! take chunks of indices as they go, and their statistics (integer sums) are added up.

use super::metrics::{Observer, Stats};
use crate::Player;
use crate::agents::{
    Agent, AgentSpec, GameEnd, GameSetup, RandomAgent, Watch, draw_legal, play_game,
};
use crate::{Game, Outcome, Pending, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

pub use crate::agents::game::stream_seed;

/// One random playout from `start` into `st` (its buffers reused): the number of decisions.
/// Chance events are drawn and decisions picked uniformly by `rng`; with `defer`, the
/// `leaving` tests of the decisions are deferred to the one drawn ([`State::defer_leaving`];
/// `st` is left so), else every decision listed is tested.
#[inline]
pub fn random_playout(
    g: &Game,
    start: &State,
    st: &mut State,
    rng: &mut Xoshiro256PlusPlus,
    defer: bool,
) -> u64 {
    st.clone_from(start);
    st.defer_leaving(defer);
    let mut moves = 0u64;
    loop {
        match st.pending() {
            Pending::Over(_) => return moves,
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(st, rng.random());
                let _ = g.play_chance(st, o);
            }
            _ => {
                let d = draw_legal(g, st, rng);
                g.play_unchecked(st, d);
                moves += 1;
            }
        }
    }
}

/// A random playout watched by an observer (its buffers reused): the game is added to `stats`.
pub fn observed_playout<const FULL: bool>(
    g: &Game,
    start: &State,
    st: &mut State,
    rng: &mut Xoshiro256PlusPlus,
    obs: &mut Observer<FULL>,
    stats: &mut Stats,
) {
    st.clone_from(start);
    obs.reset();
    loop {
        match st.pending() {
            Pending::Over(_) => break,
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(st, rng.random());
                let _ = g.play_chance(st, o);
            }
            _ => {
                let m = st.moves();
                obs.decision(g, st, m.len());
                let d = m[rng.random_range(0..m.len())];
                g.play_unchecked(st, d);
            }
        }
    }
    obs.end(g, st, stats, None);
}

/// Game `i` played by agents ([`crate::agents::play_game`]): with one spec, it decides for
/// every side; with two, agent A plays side `i mod sides` and agent B every other side (as
/// in `ludic match`). False, and nothing added to `stats`, when a stop was requested
/// ([`crate::interrupt`]) during the game: a search cut short is not the agent's play, so
/// the game is dropped. A game an agent forfeits counts as lost by its side (with two
/// agents, by the agent), in [`Stats::forfeits`] too; `ctl` keeps the first one's sentence.
fn agent_game(
    g: &Game,
    specs: &[AgentSpec],
    i: u64,
    seed: u64,
    obs: &mut Observer<true>,
    stats: &mut Stats,
    ctl: &Control,
) -> bool {
    let sides = g.sides.len().max(1) as u64;
    let a_side = Player((i % sides) as u8);
    let mut agents: Vec<Box<dyn Agent>> = specs
        .iter()
        .map(|s| s.build().unwrap_or_else(|| Box::new(RandomAgent)))
        .collect();
    struct Watcher<'a>(&'a mut Observer<true>);
    impl Watch for Watcher<'_> {
        fn decision(&mut self, g: &Game, st: &State) {
            self.0.decision(g, st, st.moves().len());
        }
    }
    obs.reset();
    let two = specs.len() == 2;
    let seat = |p: Player| usize::from(two && g.side_of(p) != a_side);
    let setup = GameSetup {
        seed,
        index: i,
        record: false,
    };
    let Some(p) = play_game(g, &mut agents, &seat, &setup, &mut Watcher(obs)) else {
        return false;
    };
    let a = two.then_some(a_side);
    match &p.end {
        GameEnd::Over(_) => obs.end(g, &p.state, stats, a),
        GameEnd::Forfeit(f) => {
            let o = Outcome {
                winner: p.end.winner(g),
                reason: crate::EndReason::Rules,
                said: None,
            };
            obs.end_as(g, &p.state, stats, a, o, Some(f.agent != 0));
            stats.forfeits += 1;
            if let Ok(mut first) = ctl.forfeit.lock()
                && first.as_ref().is_none_or(|(j, _)| i < *j)
            {
                *first = Some((i, f.text(g)));
            }
        }
    }
    true
}

/// What to play.
pub struct Plan<'a> {
    pub seed: u64,
    /// the indices of the games to play (all of them, or a shard's)
    pub range: Range<u64>,
    pub threads: usize,
    /// every metric (false: the quick ones, without following the score)
    pub full: bool,
    /// no agent: random playouts; one: it decides for every side; two: A against B
    pub agents: &'a [AgentSpec],
}

/// Shared with the caller while a study runs: a flag that stops it between games (a signal),
/// the count of games done, and of games dropped (stopped in progress, not counted).
#[derive(Default)]
pub struct Control {
    pub stop: AtomicBool,
    pub done: AtomicU64,
    pub dropped: AtomicU64,
    /// the first game (by number) an agent forfeited, and the forfeit in words
    pub forfeit: Mutex<Option<(u64, String)>>,
}

impl Control {
    /// Whether the games are to stop: `stop` set, or a stop requested of the whole program
    /// ([`crate::interrupt`], which the searches obey at once).
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || crate::interrupt::requested()
    }
}

/// Plays the games of `plan` and returns their statistics; `tick` is called on the calling
/// thread about ten times a second with the games done. When `ctl` says to stop, the threads
/// stop after the game they are playing (a random playout ends; an agents' game ends at
/// once, dropped, when the whole program is asked to stop): the statistics are those of the
/// games finished, with one thread those of a prefix of the range.
pub fn run(g: &Game, plan: &Plan, ctl: &Control, sides: usize, tick: impl FnMut(u64)) -> Stats {
    let random = plan.agents.is_empty() || plan.agents == [AgentSpec::Random];
    let two = plan.agents.len() == 2;
    // Random games are short: a chunk of them per claim; an agent's game is long: one.
    let chunk = if random { 64 } else { 1 };
    struct Worker {
        stats: Stats,
        start: State,
        st: State,
        full: Observer<true>,
        quick: Observer<false>,
    }
    let workers = run_games(
        plan.range.clone(),
        plan.threads,
        chunk,
        ctl,
        || Worker {
            stats: Stats::new(sides, plan.full, two),
            start: g.start(),
            st: g.start(),
            full: Observer::<true>::default(),
            quick: Observer::<false>::default(),
        },
        |w, i| {
            if !random {
                if !agent_game(g, plan.agents, i, plan.seed, &mut w.full, &mut w.stats, ctl) {
                    ctl.dropped.fetch_add(1, Ordering::Relaxed);
                }
            } else {
                let seed = stream_seed(plan.seed, i, 0);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                if plan.full {
                    observed_playout(g, &w.start, &mut w.st, &mut rng, &mut w.full, &mut w.stats);
                } else {
                    observed_playout(g, &w.start, &mut w.st, &mut rng, &mut w.quick, &mut w.stats);
                }
            }
            None::<()>
        },
        |_, ()| {},
        tick,
    );
    let mut total = Stats::new(sides, plan.full, two);
    for w in &workers {
        total.merge(&w.stats);
    }
    total
}

/// Where a thread of [`run_games`] sends the results of its games.
enum Results<T> {
    Bounded(mpsc::SyncSender<T>),
    Unbounded(mpsc::Sender<T>),
}

impl<T> Results<T> {
    fn send(&self, x: T) {
        // (a closed channel: the caller is gone, nobody is left to tell)
        match self {
            Results::Bounded(tx) => {
                let _ = tx.send(x);
            }
            Results::Unbounded(tx) => {
                let _ = tx.send(x);
            }
        }
    }
}

/// The parallel runner of `simulate`, `compare` and `match`: plays the games of `range` on
/// `threads` threads, which claim `chunk` indices at a time, so that which thread plays game
/// `i` does not matter as long as game `i` draws only from generators seeded by its index.
///
/// Each thread has its own state, made by `worker`; `play(state, i)` plays game `i`, and what
/// it returns (`Some`) is handed to `on_result` on the calling thread, in the order the games
/// finish (the threads wait while four results a thread are not yet handled). `tick` is
/// called on the calling thread about ten times a second, and at the end, with the games
/// done. When `ctl` says to stop ([`Control::stopping`]) the threads stop after the game
/// they are playing, even within a chunk: one thread plays a prefix of `range`. Returns the
/// threads' states (to merge what they gathered).
#[allow(clippy::too_many_arguments)]
pub fn run_games<W: Send, R: Send>(
    range: Range<u64>,
    threads: usize,
    chunk: u64,
    ctl: &Control,
    worker: impl Fn() -> W + Sync,
    play: impl Fn(&mut W, u64) -> Option<R> + Sync,
    mut on_result: impl FnMut(u64, R),
    mut tick: impl FnMut(u64),
) -> Vec<W> {
    let next = AtomicU64::new(range.start);
    let end = range.end;
    let chunk = chunk.max(1);
    // Bounded: threads wait for `on_result` when it falls behind (writing records is slower
    // than playing random games), so that a stop leaves no backlog of results to handle.
    let (tx, rx) = mpsc::sync_channel::<(u64, R)>(threads.clamp(1, 1024) * 4);
    let body = |tx: Results<(u64, R)>| {
        let mut w = worker();
        'claims: loop {
            let c = next.fetch_add(chunk, Ordering::Relaxed);
            if c >= end {
                break;
            }
            let mut played = 0;
            for i in c..(c + chunk).min(end) {
                if ctl.stopping() {
                    ctl.done.fetch_add(played, Ordering::Relaxed);
                    break 'claims;
                }
                let r = play(&mut w, i);
                played += 1;
                if let Some(r) = r {
                    ctl.done.fetch_add(played, Ordering::Relaxed);
                    played = 0;
                    tx.send((i, r));
                }
            }
            ctl.done.fetch_add(played, Ordering::Relaxed);
        }
        w
    };
    std::thread::scope(|s| {
        let body = &body;
        // as many threads as the system gives (a thread it refuses is not a failure: the games
        // are the same on fewer threads); with none, the games are played on this one
        let mut handles = vec![];
        for _ in 0..threads.max(1) {
            let tx = Results::Bounded(tx.clone());
            match std::thread::Builder::new().spawn_scoped(s, move || body(tx)) {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        drop(tx);
        // (played here, the results wait unbounded until the games are over)
        let (inline, rx) = if handles.is_empty() {
            let (tx, rx) = mpsc::channel();
            (Some(body(Results::Unbounded(tx))), rx)
        } else {
            (None, rx)
        };
        let tick_every = Duration::from_millis(100);
        let mut last = Instant::now();
        loop {
            let wait = tick_every.saturating_sub(last.elapsed());
            match rx.recv_timeout(wait) {
                Ok((i, r)) => on_result(i, r),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if last.elapsed() >= tick_every {
                last = Instant::now();
                tick(ctl.done.load(Ordering::Relaxed));
            }
        }
        tick(ctl.done.load(Ordering::Relaxed));
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(w) => w,
                Err(e) => std::panic::resume_unwind(e),
            })
            .chain(inline)
            .collect()
    })
}

/// Plays the study of `plan` on `g` ([`run`]) and gives its result as `ludic simulate`
/// writes it: `source_hash` is the hash of the game's text ([`crate::source_hash`]),
/// `requested` the study's number of games (`-n`, of which `plan.range` is played). The study
/// is partial when `ctl` stopped it before every game of the range was played.
pub fn study(
    g: &Game,
    source_hash: &str,
    requested: u64,
    plan: &Plan,
    ctl: &Control,
    tick: impl FnMut(u64),
) -> super::Study {
    let t0 = Instant::now();
    let stats = run(g, plan, ctl, g.sides().len(), tick);
    let range = &plan.range;
    let partial = stats.games < range.end - range.start;
    super::Study {
        game: g.title().to_string(),
        source_hash: source_hash.to_string(),
        options: g.option_values(),
        sides: g.sides().to_vec(),
        rounds_game: g.has_rounds(),
        seed: plan.seed,
        agents: plan.agents.iter().map(AgentSpec::describe).collect(),
        full: plan.full,
        requested,
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
        threads: Some(plan.threads),
    }
}
