//! The engine: a [`Game`] compiled for play, the [`State`] of a game, and the interpreter of its
//! turn program.
//!
//! A turn is a program; it runs until a decision point (a `choose`, the order of drops in a
//! lap), a chance event, or the end of the game. The legal decisions are computed once, when the
//! point is reached, into a buffer the state keeps, so a playout allocates nothing per move once
//! the buffers have grown.
//!
//! # Layers
//!
//! The modules import each other only downward, in this order from the bottom (no circle; the
//! test `tests/layers.rs` checks it, and that the engine imports nothing of the language, only
//! [`crate::ir`] with its arithmetic, walkers and static evaluator):
//!
//! 1. **Data**: [`bits`] (bit sets), [`events`] (what the rules did), `fields` (field-by-field
//!    `Clone`), [`tokens`] (where each token is, the stacks), [`history`] (the position hash's
//!    keys and the positions seen).
//! 2. **The position**: [`state`] ([`State`] with its parts by concern: the sowing in
//!    progress, the limits' counters, the statistics, the loops, the pending throw; `Board`,
//!    `Regs`, the look-ahead's scratch copy), made of the data above.
//! 3. **Changes of the board**: `stacks` (tokens put, taken, carried) and `hash` (the hooks
//!    that keep the position's hash up to date), as methods of `Board`.
//! 4. **The compiled program**: [`compile`] (the IR compiled once into closures and bit-set
//!    queries; inside it `tables` → `num` → `memory` → `query` → `expr` → the program's `Op`s),
//!    which reads the position.
//! 5. **The interpreter**: `run` (the loop, whose dispatch calls the effects of statements
//!    by concern in its child modules), `enumerate` (the
//!    legal decisions), `sow` (sowing), [`lookahead`] (`leaving` conditions), each a set of
//!    methods of [`Game`].
//! 6. **The game**: this module, [`Game`] and the limits, and [`actions`] (the fixed ids of
//!    the decisions, computed with the game).
//!
//! Compiling a question about every site calls back the compiler's expression method for the
//! rest of its condition (a method of the shared `Compiler`, not an import), and the
//! interpreter's files add methods to [`Game`]; these calls go through the types, not the
//! modules' imports.

pub mod actions;
pub(crate) mod bits;
pub(crate) mod compile;
mod enumerate;
pub mod events;
mod fields;
mod hash;
pub(crate) mod history;
pub(crate) mod lookahead;
mod run;
mod sow;
mod stacks;
pub(crate) mod state;
pub mod tokens;

pub use events::{Event, Landing};
pub use state::{Decision, EndReason, Fault, IllegalMove, Outcome, Pending, State};
pub use tokens::Tokens;

use crate::ir;
use compile::Program;
use state::{Board, Regs};
use std::sync::Arc;

/// Work allowed between two decisions (instructions, drops, and sites or tokens visited by
/// questions about every site or token) before the game is stopped: a description whose loop
/// never reaches a decision cannot hang ludic.
pub const WORK_LIMIT: u64 = 50_000_000;
/// Laps allowed in one sowing before it is ended as a cycle.
pub const LAP_LIMIT: usize = 10_000;
/// Decisions allowed in one turn (a rule that offers the same player choice after choice for
/// ever cannot hang ludic): the game is then stopped as a draw.
pub const DECISION_LIMIT: u32 = 10_000;
/// Rounds allowed in one match: the game is then stopped as a draw.
pub const ROUND_LIMIT: u32 = 100_000;

/// A game ready to play: what the checker proved consistent ([`ir::Game`], whose fields and
/// methods it offers directly) and its compiled program.
#[derive(Clone)]
pub struct Game {
    ir: ir::Game,
    pub(crate) prog: Arc<Program>,
    /// the ids of its decisions (see [`actions`])
    pub(crate) actions: Arc<actions::ActionSpace>,
    /// where it was loaded from: its name (a built-in game's name, a path) and the hash of its
    /// source text (empty for a game built from an IR, see [`Game::new`])
    pub(crate) origin: Arc<(String, String)>,
}

// (for the library's own code: the IR's fields and methods are pub(crate))
#[doc(hidden)]
impl std::ops::Deref for Game {
    type Target = ir::Game;
    fn deref(&self) -> &ir::Game {
        &self.ir
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("ir", &self.ir).finish()
    }
}

impl Game {
    /// Compiles a checked game for play.
    pub(crate) fn new(ir: ir::Game) -> Self {
        let prog = Arc::new(compile::compile(&ir));
        let actions = Arc::new(actions::ActionSpace::new(&ir));
        Game {
            ir,
            prog,
            actions,
            origin: Arc::default(),
        }
    }

    /// The IR the game was compiled from.
    pub(crate) fn ir(&self) -> &ir::Game {
        &self.ir
    }

    /// The position before the start program runs: an empty board.
    pub(crate) fn empty(&self) -> State {
        let g = &self.ir;
        let t = &self.prog.t;
        let nk = g.pieces.len();
        let mut b = Board {
            nk,
            counts: vec![0; g.sites.len() * nk],
            kinds: g.sites.iter().map(|s| s.kind).collect(),
            owners: g
                .sites
                .iter()
                .map(|s| s.owner.map(|p| p.0 as i8).unwrap_or(-1))
                .collect(),
            bank: vec![0; g.players.len() * nk],
            mover: 0,
            sow_dir: 0,
            round: 0,
            round_first: 0,
            tallies: g.initial_tallies(),
            toks: Tokens::new(g, self.prog.kind_counts),
            fault: std::cell::Cell::new(None),
            index: state::Index {
                total: vec![0; g.sites.len()],
                bits: vec![0; t.layout.len()],
                existing: 0,
                shape: 0,
            },
            seen: history::Positions::new(g, t.keys.clone()),
        };
        b.reindex(g, &t.layout, &vec![0; nk]);
        State {
            b,
            r: Regs {
                vars: vec![0; self.prog.vars.max(1)],
                scratch: vec![0; self.prog.scratch.max(1)],
                work: 0,
                still: false,
            },
            turn: 0,
            pc: 0,
            sow: state::Sowing {
                hand: vec![0; nk],
                plan: Vec::with_capacity(64),
                planning: false,
                cursor: 0,
                // room for the position at the start of 256 laps of one sowing
                lap_keys: Vec::with_capacity(256),
                lap_snaps: Vec::with_capacity((g.sites.len() + 1) * nk * 256),
            },
            scratch: Vec::with_capacity(g.sites.len()),
            pending: Pending::Choice(0),
            moves: Vec::with_capacity(g.sites.len().max(32)),
            flow: state::TurnFlow {
                round_turn0: 0,
                limit_reached: false,
                turn_decisions: 0,
                another_turn: false,
                moves_left: self.prog.move_limit,
            },
            stats: state::Stats::default(),
            loops: state::Loops {
                lists: (0..g.loops)
                    .map(|_| Vec::with_capacity(g.sites.len().max(g.tokens.len())))
                    .collect(),
                at: vec![0; g.loops],
            },
            chance: state::Chance::default(),
            log: events::Log::default(),
            look: state::Look::default(),
        }
    }

    /// The start position: the start program has run up to the first decision or chance event.
    pub fn start(&self) -> State {
        let mut st = self.empty();
        self.run(&mut st);
        st
    }

    /// Whether the state is in the `between rounds` program (its decisions are between rounds).
    pub fn is_between_rounds(&self, st: &State) -> bool {
        self.between_start.is_some_and(|b| st.pc >= b) && !st.is_over()
    }

    /// Plays a decision after checking that it is legal; an illegal one leaves the state unchanged.
    pub fn play(&self, st: &mut State, d: Decision) -> Result<(), IllegalMove> {
        match st.pending {
            Pending::Over(_) => return Err(IllegalMove::GameOver),
            Pending::ChanceFirst | Pending::Throw(_) => return Err(IllegalMove::ChancePending),
            _ => {}
        }
        if !st.moves.contains(&d) || !self.passes_deferred(st, d) {
            return Err(IllegalMove::NotLegal(self.notation_of(st, d)));
        }
        self.play_unchecked(st, d);
        Ok(())
    }

    /// Decision `i` of [`State::moves`], drawn by a random player, if it is legal: always
    /// without deferred `leaving` tests; with them ([`State::defer_leaving`]), the decision is
    /// tested now, and when it fails it is dropped from the list and `None` returned (draw
    /// again from the rest: drawing until a decision is given draws uniformly from the legal
    /// ones, and ends, the first listed being legal). `i` must be below the number of
    /// decisions listed.
    #[inline]
    pub fn drawn_decision(&self, st: &mut State, i: usize) -> Option<Decision> {
        if i == 0 || !st.look.unchecked {
            return Some(st.moves[i]);
        }
        self.test_drawn(st, i)
    }

    /// Plays a decision taken from [`State::moves`] (not checked again).
    pub fn play_unchecked(&self, st: &mut State, d: Decision) {
        st.r.work = 0;
        st.flow.turn_decisions += 1;
        st.flow.moves_left = st.flow.moves_left.saturating_sub(1);
        if st.flow.moves_left == 0 {
            // the round's last allowed decision: the game ends at the next decision or chance
            // event, unless the rules end it (or the round) first
            st.flow.limit_reached = true;
        }
        if st.flow.turn_decisions > DECISION_LIMIT {
            self.finish(st, None, EndReason::DecisionLimit);
            return;
        }
        match (st.pending, d) {
            (Pending::Choice(id), Decision::Alt { alt, value }) => {
                let a = &self.choices[id as usize].alts[alt as usize];
                match (a.var, &a.to) {
                    (Some(v), Some((v2, _))) => {
                        st.r.set(v, (value >> 16) as i64);
                        st.r.set(*v2, (value & 0xffff) as i64);
                    }
                    (Some(v), None) => st.r.set(v, value as i64),
                    _ => {}
                }
                st.pc = a.target;
            }
            (Pending::Drop(k), Decision::Drop { slot }) => {
                if let Some(p) = st.sow.plan.get_mut(slot as usize) {
                    *p = k.0;
                }
            }
            _ => return,
        }
        self.run(st);
    }

    /// Plays a decision like [`Game::play`] and returns what it did, until the next decision
    /// or chance event (the events of the rules, for narration).
    pub fn play_narrated(&self, st: &mut State, d: Decision) -> Result<Vec<Event>, IllegalMove> {
        st.log.on = true;
        st.log.events.clear();
        let r = self.play(st, d);
        st.log.on = false;
        r.map(|()| std::mem::take(&mut st.log.events))
    }

    /// Applies a chance outcome like [`Game::play_chance`] and returns what followed it.
    pub fn play_chance_narrated(
        &self,
        st: &mut State,
        outcome: i64,
    ) -> Result<Vec<Event>, IllegalMove> {
        st.log.on = true;
        st.log.events.clear();
        let r = self.play_chance(st, outcome);
        st.log.on = false;
        r.map(|()| std::mem::take(&mut st.log.events))
    }

    /// The possible outcomes of the pending chance event, with their probabilities.
    pub fn chance_outcomes(&self, st: &State) -> Vec<(i64, f64)> {
        match st.pending {
            Pending::ChanceFirst => {
                let n = self.players.len();
                (0..n as i64).map(|p| (p, 1.0 / n as f64)).collect()
            }
            Pending::Throw(d) => self.dice[d as usize]
                .outcomes
                .iter()
                .enumerate()
                .map(|(i, o)| (i as i64, o.prob))
                .collect(),
            _ => vec![],
        }
    }

    /// The number of outcomes of the pending chance event (0 when none is pending).
    pub fn chance_count(&self, st: &State) -> usize {
        match st.pending {
            Pending::ChanceFirst => self.players.len(),
            Pending::Throw(d) => self.dice[d as usize].outcomes.len(),
            _ => 0,
        }
    }

    /// The probability of outcome `i` of the pending chance event (0 when there is none).
    pub fn chance_probability(&self, st: &State, i: usize) -> f64 {
        match st.pending {
            Pending::ChanceFirst if i < self.players.len() => 1.0 / self.players.len() as f64,
            Pending::Throw(d) => self.dice[d as usize]
                .outcomes
                .get(i)
                .map_or(0.0, |o| o.prob),
            _ => 0.0,
        }
    }

    /// The outcome of the pending chance event that a uniform number `x` in [0, 1) draws (the
    /// first whose cumulative probability exceeds `x`), without allocating; -1 when no chance
    /// event is pending.
    pub fn draw_chance(&self, st: &State, x: f64) -> i64 {
        let cum = match st.pending {
            Pending::ChanceFirst => &self.prog.first.cum,
            Pending::Throw(d) => &self.prog.dice[d as usize].cum,
            _ => return -1,
        };
        match cum.iter().position(|&c| x < c) {
            Some(i) => i as i64,
            None => cum.len() as i64 - 1,
        }
    }

    /// Applies the outcome of the pending chance event.
    pub fn play_chance(&self, st: &mut State, outcome: i64) -> Result<(), IllegalMove> {
        match st.pending {
            Pending::ChanceFirst if (0..self.players.len() as i64).contains(&outcome) => {
                st.b.mover = outcome as u8;
                st.b.round_first = outcome as u8;
                st.pc += 1;
                self.run(st);
                Ok(())
            }
            Pending::ChanceFirst => Err(IllegalMove::NotOutcome(outcome.to_string())),
            Pending::Throw(d) => match usize::try_from(outcome)
                .ok()
                .and_then(|i| self.dice[d as usize].outcomes.get(i))
            {
                Some(o) => {
                    let var = st.chance.landed(d, outcome as u16);
                    st.r.set(var, o.value);
                    st.pc += 1;
                    // the work allowed runs from one decision to the next, throws included:
                    // rules that throw for ever without a decision end at the step limit
                    self.run(st);
                    Ok(())
                }
                None => Err(IllegalMove::NotOutcome(outcome.to_string())),
            },
            Pending::Over(_) => Err(IllegalMove::GameOver),
            _ => Err(IllegalMove::NotOutcome(outcome.to_string())),
        }
    }

    /// Runs the program from where the state is (after building a position by hand).
    pub(crate) fn resume(&self, st: &mut State) {
        st.b.reindex(&self.ir, &self.prog.t.layout, &st.sow.hand);
        st.r.work = 0;
        self.run(st);
    }
}

impl Game {
    /// The hash of the state's position computed from scratch, which the hash kept up to date
    /// by every change must equal (`None` when the rules never ask `repeated`).
    pub fn position_hash_from_scratch(&self, st: &State) -> Option<u64> {
        let k = st.b.seen.keys.as_ref()?;
        let mover = k.mover.get(st.b.mover as usize).copied().unwrap_or(0);
        Some(history::mix(
            st.b.hash_from_scratch(self).wrapping_add(mover),
        ))
    }
}

impl Game {
    /// Whether the moves keep the counts of tokens of each kind at each site (what
    /// `count(s, K)` reads instead of walking the stack): only when the game has tokens and
    /// some compiled rule reads them.
    pub fn keeps_token_counts(&self) -> bool {
        self.prog.kind_counts && !self.ir.tokens.is_empty()
    }

    /// Whether the counts of tokens of each kind at each site that the moves keep up to date
    /// (what `count(s, K)` reads) equal those of the stacks counted token by token; true when
    /// no counts are kept ([`Game::keeps_token_counts`]): then nothing can disagree.
    pub fn token_counts_agree(&self, st: &State) -> bool {
        st.b.toks.kinds_agree()
    }
}

#[cfg(test)]
mod tests {
    /// A game is shared by the threads of a search; each has its own states.
    #[test]
    fn games_are_shared_and_states_sent_across_threads() {
        fn shared<T: Send + Sync>() {}
        fn sent<T: Send>() {}
        shared::<super::Game>();
        sent::<super::State>();
    }
}
