//! `ludic simulate GAME -n N`: random playouts (or games of one agent on every side), their
//! results and speed.

use super::{Format, OK, USAGE, fmt_options, load_for_command};
use crate::agents::{Agent, AgentSpec, Event, default_threads};
use crate::check::option_map;
use crate::engine::Game;
use crate::engine::{EndReason, Pending, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Results of random playouts.
#[derive(Clone, Debug, Default)]
pub struct SimStats {
    pub playouts: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub turn_limit: u64,
    pub step_limit: u64,
    /// games stopped because the rules asked for something impossible (see `Fault`)
    pub faults: u64,
    pub moves_total: u64,
    pub moves_min: u64,
    pub moves_max: u64,
    pub choices_total: u64,
    pub cycles_cut: u64,
    pub rounds_total: u64,
    pub rounds_min: u64,
    pub rounds_max: u64,
    /// games ended by `limit … moves`
    pub move_limit: u64,
}

/// One random playout from `start` into `st` (its buffers reused): the number of decisions.
/// Chance events are drawn and decisions picked uniformly by `rng`.
pub fn random_playout(
    g: &Game,
    start: &State,
    st: &mut State,
    rng: &mut Xoshiro256PlusPlus,
    mut on_decision: impl FnMut(usize),
) -> u64 {
    st.clone_from(start);
    let mut moves = 0u64;
    loop {
        match st.pending() {
            Pending::Over(_) => return moves,
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(st, rng.random());
                let _ = g.play_chance(st, o);
            }
            _ => {
                let m = st.moves();
                on_decision(m.len());
                let d = m[rng.random_range(0..m.len())];
                g.play_unchecked(st, d);
                moves += 1;
            }
        }
    }
}

/// Plays `n` random games from `seed`; `on_progress` is called now and then with the count done.
pub fn run_playouts(g: &Game, n: u64, seed: u64, mut on_progress: impl FnMut(u64)) -> SimStats {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = SimStats::new(g);
    let start = g.start();
    let mut st = g.start();
    for i in 0..n {
        let mut choices = 0u64;
        let moves = random_playout(g, &start, &mut st, &mut rng, |n| choices += n as u64);
        s.add(&st, moves, choices);
        if i % 64 == 63 {
            on_progress(i + 1);
        }
    }
    s.finish();
    s
}

/// Plays `n` games from `seed` with `agent` deciding for every player (it is told every
/// step); `on_progress` is called after each game with the count done.
pub fn run_games<A: Agent + ?Sized>(
    g: &Game,
    n: u64,
    seed: u64,
    agent: &mut A,
    mut on_progress: impl FnMut(u64),
) -> SimStats {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = SimStats::new(g);
    let start = g.start();
    let mut st = g.start();
    for i in 0..n {
        st.clone_from(&start);
        let (mut moves, mut choices) = (0u64, 0u64);
        loop {
            match st.pending() {
                Pending::Over(_) => break,
                Pending::ChanceFirst | Pending::Throw(_) => {
                    let o = g.draw_chance(&st, rng.random());
                    agent.observe(g, &st, Event::Chance(o));
                    let _ = g.play_chance(&mut st, o);
                }
                _ => {
                    choices += st.moves().len() as u64;
                    let d = agent.decide(g, &st, &mut rng, &mut |_| {}).decision;
                    agent.observe(g, &st, Event::Decision(d));
                    g.play_unchecked(&mut st, d);
                    moves += 1;
                }
            }
        }
        s.add(&st, moves, choices);
        on_progress(i + 1);
    }
    s.finish();
    s
}

impl SimStats {
    fn new(g: &Game) -> SimStats {
        SimStats {
            wins: vec![0; g.sides.len()],
            moves_min: u64::MAX,
            rounds_min: u64::MAX,
            ..SimStats::default()
        }
    }

    /// Counts a finished game of `moves` decisions among `choices` legal ones in all.
    fn add(&mut self, st: &State, moves: u64, choices: u64) {
        let s = self;
        s.choices_total += choices;
        if let Some(o) = st.outcome() {
            match o.winner {
                Some(p) => s.wins[p.0 as usize] += 1,
                None => s.draws += 1,
            }
            match o.reason {
                EndReason::TurnLimit => s.turn_limit += 1,
                EndReason::StepLimit | EndReason::DecisionLimit | EndReason::RoundLimit => {
                    s.step_limit += 1
                }
                EndReason::Fault(_) => s.faults += 1,
                EndReason::Rules => {}
                EndReason::MoveLimit => s.move_limit += 1,
            }
        }
        s.playouts += 1;
        s.moves_total += moves;
        s.moves_min = s.moves_min.min(moves);
        s.moves_max = s.moves_max.max(moves);
        s.cycles_cut += st.cycles_cut() as u64;
        let r = st.round() as u64;
        s.rounds_total += r;
        s.rounds_min = s.rounds_min.min(r);
        s.rounds_max = s.rounds_max.max(r);
    }

    fn finish(&mut self) {
        if self.playouts == 0 {
            self.moves_min = 0;
            self.rounds_min = 0;
        }
    }
}

/// Arguments of `ludic simulate`.
pub struct SimulateArgs {
    pub game: String,
    /// games to play
    pub n: u64,
    pub seed: u64,
    pub options: Vec<String>,
    pub variant: Option<String>,
    /// the agent deciding for every player (random playouts when none)
    pub agent: Option<String>,
    /// threads of a searching agent (default: every core)
    pub threads: Option<usize>,
    pub format: Format,
}

/// `ludic simulate GAME -n N`
pub fn simulate(args: &SimulateArgs) -> u8 {
    let (_, _, g) = match load_for_command(&args.game, &args.options, args.variant.as_deref()) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let (n, seed, format) = (args.n, args.seed, args.format);
    let threads = args.threads.unwrap_or_else(default_threads).max(1);
    let spec = match args.agent.as_deref().map(|a| AgentSpec::parse(a, threads)) {
        None => AgentSpec::Random,
        Some(Ok(AgentSpec::Human)) => {
            to_stderr!("error: simulate plays computer agents: `human` cannot play");
            return USAGE;
        }
        Some(Ok(s)) => s,
        Some(Err(e)) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    let random = spec == AgentSpec::Random;
    let show_progress = std::io::stderr().is_terminal() && (n >= 1000 || !random);
    let t0 = Instant::now();
    let mut last = Instant::now();
    let progress = |done: u64| {
        if show_progress && last.elapsed().as_millis() >= 500 {
            last = Instant::now();
            let _ = write!(std::io::stderr(), "\r{done}/{n} games…");
        }
    };
    // Random playouts take the engine's fast path (the same games as an agent-less run).
    let stats = match spec.build() {
        Some(mut agent) if !random => run_games(&g, n, seed, agent.as_mut(), progress),
        _ => run_playouts(&g, n, seed, progress),
    };
    if show_progress {
        let _ = write!(std::io::stderr(), "\r                              \r");
    }
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let mean = |x: u64| {
        if stats.playouts == 0 {
            0.0
        } else {
            x as f64 / stats.playouts as f64
        }
    };
    let branching = if stats.moves_total == 0 {
        0.0
    } else {
        stats.choices_total as f64 / stats.moves_total as f64
    };
    let wins: BTreeMap<String, u64> = g
        .sides
        .iter()
        .cloned()
        .zip(stats.wins.iter().copied())
        .collect();
    let out = &mut std::io::stdout().lock();
    let written = (|| -> std::io::Result<u8> {
        match format {
            Format::Json => {
                let v = json!({
                    "game": g.meta.name,
                    "options": option_map(&g),
                    "seed": seed,
                    "agent": spec.describe(),
                    "playouts": stats.playouts,
                    "wins": wins,
                    "draws": stats.draws,
                    "turn_limit_reached": stats.turn_limit,
                    "step_limit_reached": stats.step_limit,
                    "move_limit_reached": stats.move_limit,
                    "faults": stats.faults,
                    "moves_mean": mean(stats.moves_total),
                    "moves_min": stats.moves_min,
                    "moves_max": stats.moves_max,
                    "branching_mean": branching,
                    "cycles_cut": stats.cycles_cut,
                    "rounds_mean": mean(stats.rounds_total),
                    "rounds_min": stats.rounds_min,
                    "rounds_max": stats.rounds_max,
                    "seconds": secs,
                    "playouts_per_second": stats.playouts as f64 / secs,
                    "moves_per_second": stats.moves_total as f64 / secs,
                });
                super::write_json(out, &v)?;
            }
            Format::Text => {
                let what = if random {
                    "random playouts".to_string()
                } else {
                    format!("games of {} against itself", spec.describe())
                };
                writeln!(
                    out,
                    "{}: {} {what} (seed {seed}; {})",
                    g.meta.name,
                    stats.playouts,
                    fmt_options(&g)
                )?;
                for (i, p) in g.sides.iter().enumerate() {
                    let w = stats.wins[i];
                    writeln!(out, "  {p} wins: {w} ({:.1}%)", 100.0 * mean(w))?;
                }
                if g.turn_limit == u32::MAX {
                    writeln!(out, "  draws: {}", stats.draws)?;
                } else {
                    writeln!(
                        out,
                        "  draws: {} ({} at the turn limit of {})",
                        stats.draws, stats.turn_limit, g.turn_limit
                    )?;
                }
                if g.move_limit != u32::MAX {
                    writeln!(
                        out,
                        "  ended at the move limit of {}: {}",
                        g.move_limit, stats.move_limit
                    )?;
                }
                if stats.faults > 0 {
                    writeln!(
                        out,
                        "  stopped because the rules asked for something impossible: {}",
                        stats.faults
                    )?;
                }
                if stats.step_limit > 0 {
                    writeln!(
                        out,
                        "  stopped for running too long without a decision: {}",
                        stats.step_limit
                    )?;
                }
                writeln!(
                    out,
                    "  moves per game: mean {:.1}, min {}, max {}",
                    mean(stats.moves_total),
                    stats.moves_min,
                    stats.moves_max
                )?;
                if g.between_start.is_some() {
                    writeln!(
                        out,
                        "  rounds per game: mean {:.2}, min {}, max {}",
                        mean(stats.rounds_total),
                        stats.rounds_min,
                        stats.rounds_max
                    )?;
                }
                writeln!(out, "  legal choices per decision: mean {branching:.2}")?;
                if stats.cycles_cut > 0 {
                    writeln!(
                        out,
                        "  sowings ended because their position repeated: {}",
                        stats.cycles_cut
                    )?;
                }
                writeln!(
                    out,
                    "  {:.0} {}/s, {:.0} moves/s ({secs:.2} s)",
                    stats.playouts as f64 / secs,
                    if random { "playouts" } else { "games" },
                    stats.moves_total as f64 / secs
                )?;
            }
        }
        Ok(OK)
    })();
    super::finish(written)
}
