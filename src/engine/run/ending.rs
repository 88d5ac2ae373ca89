//! The end of the game: by the rules (`end game`), at a limit, or scored.

use super::super::compile::EndOp;
use super::super::{EndReason, Game, Outcome, Pending, State};
use crate::ir::Player;

impl Game {
    /// The end of a game at a limit: the turn limit's when it is reached (also when the move
    /// limit is reached at once), else the move limit's.
    #[cold]
    #[inline(never)]
    pub(super) fn end_at_limit(&self, st: &mut State) {
        let (reason, end) = if st.turn - st.flow.round_turn0 >= self.turn_limit {
            (EndReason::TurnLimit, &self.prog.limit_ends[0])
        } else {
            (EndReason::MoveLimit, &self.prog.limit_ends[1])
        };
        let winner = self.winner_by(st, end);
        self.finish(st, winner, reason);
    }

    /// `end game …`: the game ends by the rules (the program stops).
    pub(super) fn end_game(&self, st: &mut State, rule: &EndOp, said: Option<u32>) -> bool {
        let winner = self.winner_by(st, rule);
        self.finish_said(st, winner, EndReason::Rules, said);
        true
    }

    /// The winner an end rule gives: none for a draw, the highest score, or the player named.
    fn winner_by(&self, st: &mut State, end: &EndOp) -> Option<Player> {
        match end {
            EndOp::Draw => None,
            EndOp::Score => self.score_winner(st),
            EndOp::Winner(p) => {
                let p = p(&st.b, &mut st.r);
                self.player_index(p).map(|p| self.side_of(Player(p as u8)))
            }
        }
    }

    /// The side with the highest score (the value of its captures), or none on equal scores.
    pub(super) fn score_winner(&self, st: &State) -> Option<Player> {
        let sides = self.sides.len();
        let mut best: Option<(usize, i64)> = None;
        let mut tie = false;
        for side in 0..sides {
            let score: i64 = (side..self.players.len())
                .step_by(sides)
                .map(|p| st.score(self, Player(p as u8)))
                .sum();
            match best {
                Some((_, b)) if score == b => tie = true,
                Some((_, b)) if score < b => {}
                _ => {
                    best = Some((side, score));
                    tie = false;
                }
            }
        }
        match (best, tie) {
            (Some((s, _)), false) => Some(Player(s as u8)),
            _ => None,
        }
    }

    pub(crate) fn finish(&self, st: &mut State, winner: Option<Player>, reason: EndReason) {
        self.finish_said(st, winner, reason, None);
    }

    /// The end of the game, with the `end game` statement that says why (if any).
    pub(crate) fn finish_said(
        &self,
        st: &mut State,
        winner: Option<Player>,
        reason: EndReason,
        said: Option<u32>,
    ) {
        st.moves.clear();
        // A fault of the rules stops the game whatever ended it then.
        let (winner, reason, said) = match st.b.fault.get() {
            Some(f) => (None, EndReason::Fault(f), None),
            None => (winner, reason, said),
        };
        st.pending = Pending::Over(Outcome {
            winner,
            reason,
            said,
        });
    }
}
