//! Perft: the number of distinct complete turn sequences of a given depth from a position, by
//! the same move generator that play uses (a tool to pin a description down).

use crate::engine::Game;
use crate::engine::{Pending, State};

/// Why perft could not count.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    #[error(
        "the game has chance events (dice, a random first player): perft counts decisions only"
    )]
    Chance,
}

/// The number of distinct sequences of exactly `depth` complete turns from `st`. A turn is
/// complete when the next one starts or the game ends; each decision inside a turn (a hop of a
/// chain, stopping) is part of its sequence. A sequence after which the game is over before
/// `depth` turns contributes nothing to the count (as checkmate does in chess perft).
pub fn perft(g: &Game, st: &State, depth: u32) -> Result<u64, PerftError> {
    if depth == 0 {
        return Ok(1);
    }
    if st.is_over() {
        return Ok(0);
    }
    within_turn(g, st, st.turn(), depth)
}

fn within_turn(g: &Game, st: &State, turn: u32, depth: u32) -> Result<u64, PerftError> {
    match st.pending() {
        Pending::ChanceFirst | Pending::Throw(_) => Err(PerftError::Chance),
        Pending::Over(_) => Ok(0),
        Pending::Choice(_) | Pending::Drop(_) => {
            let mut total = 0;
            for &d in st.moves() {
                let mut next = st.clone();
                g.play_unchecked(&mut next, d);
                total += if next.is_over() || next.turn() != turn {
                    perft(g, &next, depth - 1)?
                } else {
                    within_turn(g, &next, turn, depth)?
                };
            }
            Ok(total)
        }
    }
}
