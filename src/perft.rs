//! Perft: the number of distinct complete turn sequences of a given depth from a position, by
//! the same move generator that play uses (a tool to pin a description down).

use crate::engine::{Game, Pending, State};

/// Positions perft visits at most by default (a description whose tree is astronomically large
/// is reported instead of hanging): about ten seconds of counting.
pub const PERFT_LIMIT: u64 = 50_000_000;
/// The engine's work (statements run, sites and tokens visited; see `engine::WORK_LIMIT`)
/// perft spends at most by default, over all the decisions it plays: a game whose turns run
/// long (every one stopped at the work limit) is reported instead of taking minutes.
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
    #[error("more than {0} units of work (the turns run long): perft stopped")]
    TooMuchWork(u64),
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

/// [`perft`] within `limits`. The walk keeps its own stack (no recursion), so a turn of many
/// decisions cannot overflow the program's stack, and reuses the states it has finished with.
pub fn perft_with(
    g: &Game,
    st: &State,
    depth: u32,
    limits: PerftLimits,
) -> Result<u64, PerftError> {
    // (position, complete turns still to play, the turn it is in, decisions taken in it)
    let mut stack: Vec<(State, u32, u32, u32)> = vec![(st.clone(), depth, st.turn(), 0)];
    let mut free: Vec<State> = vec![];
    let mut count = 0;
    let mut visited = 0u64;
    let mut work = 0u64;
    while let Some((st, left, turn, decided)) = stack.pop() {
        if decided > PERFT_TURN_LIMIT {
            return Err(PerftError::LongTurn(PERFT_TURN_LIMIT));
        }
        visited += 1;
        if visited > limits.positions {
            return Err(PerftError::TooMany(limits.positions));
        }
        if left > 0 {
            match st.pending() {
                Pending::Over(_) => {}
                Pending::ChanceFirst | Pending::Throw(_) => return Err(PerftError::Chance),
                Pending::Choice(_) | Pending::Drop(_) => {
                    for &d in st.moves().iter().rev() {
                        let mut next = match free.pop() {
                            Some(mut n) => {
                                n.clone_from(&st);
                                n
                            }
                            None => st.clone(),
                        };
                        g.play_unchecked(&mut next, d);
                        work += next.r.work.max(1);
                        if work > limits.work {
                            return Err(PerftError::TooMuchWork(limits.work));
                        }
                        if next.is_over() || next.turn() != turn {
                            let t = next.turn();
                            stack.push((next, left - 1, t, 0));
                        } else {
                            stack.push((next, left, turn, decided + 1));
                        }
                    }
                }
            }
        } else {
            count += 1;
        }
        free.push(st);
    }
    Ok(count)
}
