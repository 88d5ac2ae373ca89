//! `ludic simulate GAME -n N`: random playouts, their results and speed.

use super::{Format, OK, fmt_options, load_for_command};
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
    let mut s = SimStats {
        wins: vec![0; g.sides.len()],
        moves_min: u64::MAX,
        rounds_min: u64::MAX,
        ..SimStats::default()
    };
    let start = g.start();
    let mut st = g.start();
    for i in 0..n {
        let mut choices = 0u64;
        let moves = random_playout(g, &start, &mut st, &mut rng, |n| choices += n as u64);
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
        if i % 64 == 63 {
            on_progress(i + 1);
        }
    }
    if s.playouts == 0 {
        s.moves_min = 0;
        s.rounds_min = 0;
    }
    s
}

/// `ludic simulate GAME -n N`
pub fn simulate(
    game: &str,
    n: u64,
    seed: u64,
    options: &[String],
    variant: Option<&str>,
    format: Format,
) -> u8 {
    let (_, _, g) = match load_for_command(game, options, variant) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let show_progress = std::io::stderr().is_terminal() && n >= 1000;
    let t0 = Instant::now();
    let mut last = Instant::now();
    let stats = run_playouts(&g, n, seed, |done| {
        if show_progress && last.elapsed().as_millis() >= 500 {
            last = Instant::now();
            let _ = write!(std::io::stderr(), "\r{done}/{n} playouts…");
        }
    });
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
                    "playouts": stats.playouts,
                    "wins": wins,
                    "draws": stats.draws,
                    "turn_limit_reached": stats.turn_limit,
                    "step_limit_reached": stats.step_limit,
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
                writeln!(
                    out,
                    "{}: {} random playouts (seed {seed}; {})",
                    g.meta.name,
                    stats.playouts,
                    fmt_options(&g)
                )?;
                for (i, p) in g.sides.iter().enumerate() {
                    let w = stats.wins[i];
                    writeln!(out, "  {p} wins: {w} ({:.1}%)", 100.0 * mean(w))?;
                }
                writeln!(
                    out,
                    "  draws: {} ({} at the turn limit of {})",
                    stats.draws, stats.turn_limit, g.turn_limit
                )?;
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
                    "  {:.0} playouts/s, {:.0} moves/s ({secs:.2} s)",
                    stats.playouts as f64 / secs,
                    stats.moves_total as f64 / secs
                )?;
            }
        }
        Ok(OK)
    })();
    super::finish(written)
}
