//! The turn's flow: jumps, choices, the end of a turn and of a round, who moves, chance events
//! and loops. Each method of an instruction says whether the program stops there.

use super::super::compile::{CSet, Num, Question, TokQuery};
use super::super::events::Event;
use super::super::{EndReason, Game, Pending, State};
use crate::ir::{Player, VarId};

impl Game {
    /// The end of a turn: the next player (or the same after `another turn`) is to move at
    /// the start of the turn program. A look-ahead stops there, at the end of the mover's
    /// turn, before the next turn's program runs (see `lookahead`).
    #[inline(always)]
    pub(crate) fn end_turn(&self, st: &mut State) {
        // `another turn`: the same player plays the next turn
        let passes = !std::mem::take(&mut st.flow.another_turn);
        if passes {
            let next = st.b.mover as usize + 1;
            st.b.mover = if next == self.players.len() {
                0
            } else {
                next as u8
            };
        } else {
            st.log.push(|| Event::AnotherTurn {
                player: Player(st.b.mover),
            });
        }
        st.turn += 1;
        st.flow.turn_decisions = 0;
        st.b.seen.turn_begins(st.b.mover);
        st.pc = self.turn_start;
        st.sow.planning = false;
        if st.turn - st.flow.round_turn0 >= self.turn_limit {
            // A game won by the last allowed turn is won: the tests at the start of the next
            // turn still run, and the limit ends the game only where it would go on.
            st.flow.limit_reached = true;
        }
        if passes && st.look.active {
            self.look_ends_turn(st);
        }
    }

    /// A look-ahead reached the end of the mover's turn: the turn passes as in play (the next
    /// player to move, the turn counted), but the program goes on at a `choose`, where a
    /// look-ahead stops (`look_stops`), instead of the start of the next turn's program.
    #[cold]
    #[inline(never)]
    fn look_ends_turn(&self, st: &mut State) {
        st.pc = self.prog.look_halt;
    }

    /// At a decision or a chance event: true (and the game ends as a draw, or scored as the
    /// limit says) when the round's last allowed turn, or its last allowed decision, is over.
    pub(super) fn stops_at_limit(&self, st: &mut State) -> bool {
        if st.flow.limit_reached {
            self.end_at_limit(st);
        }
        st.flow.limit_reached
    }

    /// `Jump`: a jump back is a checkpoint.
    #[inline(always)]
    pub(super) fn jump(&self, st: &mut State, t: u32) -> bool {
        if t <= st.pc && !self.checkpoint(st) {
            return true;
        }
        st.pc = t;
        false
    }

    /// `choose`: the legal decisions are listed; the program stops for them, goes to `else`
    /// when there is none, or the player passes.
    #[inline(always)]
    pub(super) fn choose(&self, st: &mut State, id: u32) -> bool {
        if st.look.active {
            // A look-ahead stops where the next choice is reached, before its
            // decisions are listed (see `lookahead`).
            self.look_stops(st, id);
            return true;
        }
        self.enumerate(st, id);
        let otherwise = self.prog.choices[id as usize].otherwise;
        if !self.checkpoint(st) {
            return true;
        }
        if let (true, Some(t)) = (st.moves.is_empty(), otherwise) {
            st.pc = t; // `else { … }`
            false
        } else if self.stops_at_limit(st) {
            true
        } else if st.moves.is_empty() {
            // No legal decision: the player passes (the rest of his turn is skipped).
            st.stats.passed(st.b.mover);
            st.log.push(|| Event::Passed {
                player: Player(st.b.mover),
            });
            self.end_turn(st);
            !self.checkpoint(st)
        } else {
            st.pending = Pending::Choice(id);
            true
        }
    }

    /// `end round`: the `between rounds` program runs, or without one the game ends scored.
    pub(super) fn end_round(&self, st: &mut State) -> bool {
        if st.look.active {
            // the round ends the mover's turn: a look-ahead stops before `between rounds`
            return true;
        }
        match self.between_start {
            Some(at) => {
                st.sow.planning = false;
                st.flow.limit_reached = false;
                st.flow.another_turn = false;
                st.flow.moves_left = self.prog.move_limit;
                st.pc = at;
                false
            }
            None => {
                let winner = self.score_winner(st);
                self.finish(st, winner, EndReason::Rules);
                true
            }
        }
    }

    /// The end of the start program or of `between rounds`: a round begins.
    pub(super) fn new_round(&self, st: &mut State) -> bool {
        if st.b.round >= super::super::ROUND_LIMIT {
            self.finish(st, None, EndReason::RoundLimit);
            return true;
        }
        st.b.round += 1;
        st.b.mover = st.b.round_first;
        st.b.seen.round_begins(st.b.mover);
        st.flow.round_turn0 = st.turn;
        st.flow.limit_reached = false;
        st.flow.another_turn = false;
        st.flow.moves_left = self.prog.move_limit;
        st.sow.planning = false;
        st.pc = self.turn_start;
        !self.checkpoint(st)
    }

    /// `set mover = P`.
    pub(super) fn set_mover(&self, st: &mut State, p: &Num) -> bool {
        let p = p(&st.b, &mut st.r);
        if let Some(p) = self.player_index(p) {
            st.b.mover = p as u8;
        }
        st.pc += 1;
        false
    }

    /// `first P`, or `first random` (a chance event: the program stops).
    pub(super) fn first(&self, st: &mut State, p: Option<&Num>) -> bool {
        match p {
            Some(p) => {
                let p = p(&st.b, &mut st.r);
                if let Some(p) = self.player_index(p) {
                    st.b.mover = p as u8;
                    st.b.round_first = p as u8;
                }
                st.pc += 1;
                false
            }
            None => {
                if self.checkpoint(st) && !self.stops_at_limit(st) {
                    st.pending = Pending::ChanceFirst;
                }
                true
            }
        }
    }

    /// `throw dice as v`: a chance event (the program stops).
    pub(super) fn throw(&self, st: &mut State, dice: u16, var: VarId) -> bool {
        if !self.checkpoint(st) || self.stops_at_limit(st) {
            return true;
        }
        st.chance.wait(var);
        st.pending = Pending::Throw(dice);
        true
    }

    /// The start of `for` over tokens: the matching tokens listed in the loop's slot.
    #[inline]
    pub(super) fn for_tokens(&self, st: &mut State, slot: u16, q: &TokQuery) -> bool {
        let mut list = std::mem::take(&mut st.loops.lists[slot as usize]);
        list.clear();
        q.for_each(&st.b, &mut st.r, |_, _, x| {
            list.push(x as u16);
            true
        });
        st.loops.lists[slot as usize] = list;
        st.loops.at[slot as usize] = 0;
        st.pc += 1;
        false
    }

    /// The start of `for` over a set: its sites listed in the loop's slot.
    #[inline]
    pub(super) fn for_sites(&self, st: &mut State, slot: u16, set: &CSet) -> bool {
        let mut list = std::mem::take(&mut st.loops.lists[slot as usize]);
        list.clear();
        set.for_each(&st.b, &mut st.r, &mut |_, _, s| {
            list.push(s as u16);
            true
        });
        st.loops.lists[slot as usize] = list;
        st.loops.at[slot as usize] = 0;
        st.pc += 1;
        false
    }

    /// The next element of a loop into its variable, or the end of the loop.
    #[inline]
    pub(super) fn for_next(&self, st: &mut State, slot: u16, var: VarId, end: u32) -> bool {
        let (list, i) = (
            &st.loops.lists[slot as usize],
            &mut st.loops.at[slot as usize],
        );
        match list.get(*i) {
            Some(&x) => {
                *i += 1;
                st.r.set(var, x as i64);
                st.pc += 1;
            }
            None => st.pc = end,
        }
        !self.checkpoint(st)
    }
}
