//! Perft: the number of distinct complete turn sequences of a given depth from a position, by
//! the same move generator that play uses (a tool to pin a description down).
//!
//! The last turn's decisions are not followed into the position they reach: each is played as
//! a `leaving` look-ahead plays it, up to the end of the turn, and counted when the turn is
//! complete there (the decisions of the next position are never listed: on chess, that is
//! nearly all the work). A decision after which the turn goes on, or whose end the look-ahead
//! cannot see (a drop, an order of drops, a chance event, the end of a round), is played in
//! full as any other. tests/perft.rs checks this against a walk that plays every decision.

use crate::engine::{Game, Pending, State};

/// Positions perft visits at most by default (a description whose tree is astronomically large
/// is reported instead of hanging): about ten seconds of counting.
pub const PERFT_LIMIT: u64 = 50_000_000;
/// The engine's work (statements run, sites and tokens visited; see `engine::WORK_LIMIT`)
/// and the decisions it lists, that perft spends at most by default, over all the decisions
/// it plays: a game whose turns run long (every one stopped at the work limit), or whose
/// positions have a great many decisions, is reported instead of taking minutes.
pub const PERFT_WORK_LIMIT: u64 = 20 * crate::engine::WORK_LIMIT;
/// Decisions of one turn perft follows at most (a turn that never ends is reported).
pub const PERFT_TURN_LIMIT: u32 = 1_000;

/// How far perft may go before it stops and says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftLimits {
    /// positions visited
    pub positions: u64,
    /// the engine's work, summed over every decision played
    pub work: u64,
}

impl Default for PerftLimits {
    fn default() -> Self {
        PerftLimits {
            positions: PERFT_LIMIT,
            work: PERFT_WORK_LIMIT,
        }
    }
}

/// Why perft could not count.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    #[error(
        "the game has chance events (dice, a random first player): perft counts decisions only"
    )]
    Chance,
    #[error("more than {0} positions to visit: perft stopped")]
    TooMany(u64),
    #[error("a turn of more than {0} decisions: perft stopped")]
    LongTurn(u32),
    #[error(
        "more than {0} units of work (long turns, or many decisions a position): perft stopped"
    )]
    TooMuchWork(u64),
    /// the program was asked to stop ([`crate::interrupt`]): the sequences counted until then
    /// (fewer than the total)
    #[error("stopped before the end: {0} sequences counted so far, not the total")]
    Stopped(u64),
}

/// The number of distinct sequences of exactly `depth` complete turns from `st`. A turn is
/// complete when the next one starts or the game ends; each decision inside a turn (a hop of a
/// chain, stopping) is part of its sequence. A sequence after which the game is over before
/// `depth` turns contributes nothing to the count (as checkmate does in chess perft).
pub fn perft(g: &Game, st: &State, depth: u32) -> Result<u64, PerftError> {
    perft_limited(g, st, depth, PERFT_LIMIT)
}

/// [`perft`], visiting at most `limit` positions.
pub fn perft_limited(g: &Game, st: &State, depth: u32, limit: u64) -> Result<u64, PerftError> {
    let limits = PerftLimits {
        positions: limit,
        ..PerftLimits::default()
    };
    perft_with(g, st, depth, limits)
}

/// One position on the walk's path: the state, its legal decisions, the next one to try,
/// and where it stands (complete turns still to play, the turn it is in, decisions taken in
/// it).
struct Frame {
    st: State,
    moves: Vec<crate::engine::Decision>,
    next: usize,
    left: u32,
    turn: u32,
    decided: u32,
}

/// The walk's counters and limits.
struct Walk {
    limits: PerftLimits,
    count: u64,
    visited: u64,
    work: u64,
}

impl Walk {
    /// Counts the engine's work: an error past the limit.
    fn add_work(&mut self, work: u64) -> Result<(), PerftError> {
        self.work += work;
        if self.work > self.limits.work {
            return Err(PerftError::TooMuchWork(self.limits.work));
        }
        Ok(())
    }

    /// Visits a position: counts it, and tells whether its decisions are to be followed.
    fn visit(&mut self, st: &State, left: u32, decided: u32) -> Result<bool, PerftError> {
        if decided > PERFT_TURN_LIMIT {
            return Err(PerftError::LongTurn(PERFT_TURN_LIMIT));
        }
        self.visited += 1;
        if self.visited > self.limits.positions {
            return Err(PerftError::TooMany(self.limits.positions));
        }
        if self.visited.is_multiple_of(1024) && crate::interrupt::requested() {
            return Err(PerftError::Stopped(self.count));
        }
        if left == 0 {
            self.count += 1;
            return Ok(false);
        }
        match st.pending() {
            Pending::Over(_) => Ok(false),
            Pending::ChanceFirst | Pending::Throw(_) => Err(PerftError::Chance),
            Pending::Choice(_) | Pending::Drop(_) => Ok(true),
        }
    }
}

/// [`perft`] within `limits`. The walk is depth first with its own stack (no recursion), so a
/// turn of many decisions cannot overflow the program's stack, and it keeps one state and one
/// list of decisions for each position on the current path: its memory grows with the depth,
/// not with the number of decisions at a position (a start with 79,000 decisions kept every
/// child as a whole state before). A stop asked of the program ([`crate::interrupt`]) is
/// obeyed within 1,024 positions, with the count so far.
pub fn perft_with(
    g: &Game,
    st: &State,
    depth: u32,
    limits: PerftLimits,
) -> Result<u64, PerftError> {
    let mut walk = Walk {
        limits,
        count: 0,
        visited: 0,
        work: 0,
    };
    if !walk.visit(st, depth, 0)? {
        return Ok(walk.count);
    }
    // frames[..on] are the path; those past it are kept to be reused
    let mut frames: Vec<Frame> = vec![Frame {
        st: st.clone(),
        moves: st.moves().to_vec(),
        next: 0,
        left: depth,
        turn: st.turn(),
        decided: 0,
    }];
    let mut on = 1;
    let mut scratch = st.clone();
    while on > 0 {
        let top = &mut frames[on - 1];
        let Some(&d) = top.moves.get(top.next) else {
            on -= 1;
            continue;
        };
        top.next += 1;
        let (left, turn, decided) = (top.left, top.turn, top.decided);
        // The last turn's decisions: one that completes the turn is a sequence, counted without
        // listing the decisions of the position it reaches (played as a look-ahead plays it).
        if left == 1 && g.completes_turn(&frames[on - 1].st, &mut scratch, d) {
            walk.add_work(scratch.r.work.max(1))?;
            walk.visit(&scratch, 0, 0)?;
            continue;
        }
        if frames.len() == on {
            let st = frames[on - 1].st.clone();
            frames.push(Frame {
                st,
                moves: vec![],
                next: 0,
                left: 0,
                turn: 0,
                decided: 0,
            });
        }
        let (path, rest) = frames.split_at_mut(on);
        let child = &mut rest[0];
        child.st.clone_from(&path[on - 1].st);
        g.play_unchecked(&mut child.st, d);
        // the engine's work, and the decisions it listed at the new position
        walk.add_work(child.st.r.work.max(1) + child.st.moves().len() as u64)?;
        (child.left, child.turn, child.decided) = if child.st.is_over() || child.st.turn() != turn {
            (left - 1, child.st.turn(), 0)
        } else {
            (left, turn, decided + 1)
        };
        if walk.visit(&child.st, child.left, child.decided)? {
            child.moves.clear();
            child.moves.extend_from_slice(child.st.moves());
            child.next = 0;
            on += 1;
        }
    }
    Ok(walk.count)
}
