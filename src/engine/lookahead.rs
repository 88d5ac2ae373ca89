//! `leaving C`: a decision is legal only if the position after it satisfies C. Each such
//! decision is played on a scratch copy of the state (kept in the state and reused, so that a
//! playout allocates nothing once it exists) up to the end of the mover's turn (where the turn
//! passes, `end_turn`, or the round ends, before the next turn's program or `between rounds`
//! runs: its automatic rules are not the decision's doing), the next choice of the same turn
//! (where the program stops, before the choice's decisions are listed; after `another turn`,
//! the mover's next turn is his too), the next order of drops, chance event or end of the
//! game, and C is tested there with `mover` still the player who decides.
//!
//! A look-ahead does not look ahead: it stops at the next choice without listing its
//! decisions, so no `leaving` of that choice is tested, and a look-ahead costs the way to the
//! next choice (not the decisions there). Its work counts toward the work allowed between two
//! decisions (`WORK_LIMIT`), so no number of decisions can make one decision point run for
//! ever.
//!
//! A random player need not test every decision: with the tests deferred
//! (`State::defer_leaving`, for the random playouts of `ludic bench` and of the searches), a
//! choice's decisions are tested in order only up to the first that passes (whether the choice
//! has a legal decision, and so its `else`, the turn's pass and the limits, stay as the rules
//! say), and `Game::drawn_decision` tests a decision when it is drawn, dropping it for another
//! draw when it fails: the same uniform draw from the legal decisions, with a look-ahead for
//! each decision drawn instead of each listed.

use super::compile::Num;
use super::{Decision, Game, Pending, State, WORK_LIMIT};

impl Game {
    /// A look-ahead has reached choice `id`: it stops there (unless the rules faulted or ran
    /// past the work allowed).
    #[cold]
    #[inline(never)]
    pub(crate) fn look_stops(&self, st: &mut State, id: u32) {
        if st.r.work > WORK_LIMIT {
            self.finish(st, None, super::EndReason::StepLimit);
        } else if let Some(f) = st.b.fault.get() {
            self.finish(st, None, super::EndReason::Fault(f));
        } else {
            st.pending = Pending::Choice(id);
        }
    }

    /// Keeps, of the legal decisions just listed for choice `id`, those whose `leaving`
    /// condition holds after them (a choice without `leaving` costs one test); with the tests
    /// deferred, those from the first that passes.
    #[inline(always)]
    pub(crate) fn keep_leaving(&self, st: &mut State, id: u32) {
        if self.prog.choices[id as usize].looks && !st.moves.is_empty() {
            // (left set from an earlier choice, it only sends the decisions drawn to a test
            // that passes: the choice has no `leaving`)
            st.look.unchecked = false;
            if st.look.defer {
                self.keep_from_first_leaving(st, id);
            } else {
                self.filter_leaving(st, id);
            }
        }
    }

    /// The scratch copy of `st`, taken out of it (made the first time).
    fn take_scratch(&self, st: &mut State) -> Box<State> {
        match st.look.scratch.take() {
            Some(s) => s,
            None => Box::new(self.empty()),
        }
    }

    /// Whether decision `d` of choice `id` passes its `leaving` test (played on `scratch`).
    fn passes_leaving(&self, st: &mut State, scratch: &mut State, id: u32, d: Decision) -> bool {
        let ch = &self.prog.choices[id as usize];
        match d {
            Decision::Alt { alt, value } => {
                match ch.alts.get(alt as usize).and_then(|a| a.leaving.as_ref()) {
                    Some(cond) => {
                        self.look_start(st, scratch, id, alt, value);
                        self.leads_to(st, scratch, id, alt, value, cond)
                    }
                    None => true,
                }
            }
            Decision::Drop { .. } => true,
        }
    }

    /// With the `leaving` tests deferred: drops the decisions listed before the first that
    /// passes its test (they fail theirs), the others kept untested (all dropped when none
    /// passes).
    #[inline(never)]
    fn keep_from_first_leaving(&self, st: &mut State, id: u32) {
        let mut scratch = self.take_scratch(st);
        // (taken out of the state: the look-aheads do not copy them)
        let mut moves = std::mem::take(&mut st.moves);
        let mut first = None;
        for (i, &d) in moves.iter().enumerate() {
            if self.passes_leaving(st, &mut scratch, id, d) {
                first = Some(i);
                break;
            }
            if st.r.work > WORK_LIMIT {
                // the decision point stops the game (`checkpoint`)
                break;
            }
        }
        match first {
            Some(k) => {
                moves.drain(..k);
                st.look.unchecked = moves.len() > 1;
            }
            None => moves.clear(),
        }
        st.moves = moves;
        st.look.scratch = Some(scratch);
    }

    /// Decision `i` of `st`'s, whose `leaving` test was deferred: `None`, and the decision
    /// dropped from the list, when it fails the test (see [`Game::drawn_decision`]).
    #[inline(never)]
    pub(crate) fn test_drawn(&self, st: &mut State, i: usize) -> Option<Decision> {
        let d = st.moves[i];
        let Pending::Choice(id) = st.pending else {
            return Some(d);
        };
        let pass = self.passes_alone(st, id, d);
        if !pass {
            st.moves.swap_remove(i);
        }
        st.look.unchecked = st.moves.len() > 1;
        pass.then_some(d)
    }

    /// `passes_leaving` for one decision of `st`'s, on its scratch copy (the list
    /// of decisions taken out while the copy is made: it does not copy them).
    fn passes_alone(&self, st: &mut State, id: u32, d: Decision) -> bool {
        let mut scratch = self.take_scratch(st);
        let moves = std::mem::take(&mut st.moves);
        let pass = self.passes_leaving(st, &mut scratch, id, d);
        st.look.scratch = Some(scratch);
        st.moves = moves;
        pass
    }

    /// Whether decision `d`, one of `st`'s, is legal: with deferred `leaving` tests, a
    /// decision after the first passes its test (see [`State::defer_leaving`]).
    pub(crate) fn passes_deferred(&self, st: &mut State, d: Decision) -> bool {
        let Pending::Choice(id) = st.pending else {
            return true;
        };
        !st.look.unchecked || st.moves.first() == Some(&d) || self.passes_alone(st, id, d)
    }

    #[inline(never)]
    fn filter_leaving(&self, st: &mut State, id: u32) {
        let mut scratch = self.take_scratch(st);
        let mut moves = std::mem::take(&mut st.moves);
        let mut kept = 0;
        for i in 0..moves.len() {
            let d = moves[i];
            let keep = self.passes_leaving(st, &mut scratch, id, d);
            if keep {
                moves[kept] = d;
                kept += 1;
            }
            if st.r.work > WORK_LIMIT {
                // the decision point stops the game (`checkpoint`)
                break;
            }
        }
        moves.truncate(kept);
        st.moves = moves;
        st.look.scratch = Some(scratch);
    }

    /// Plays decision (`alt`, `value`) of choice `id` on the scratch copy `sc` (made by
    /// `look_start`) up to where the look-ahead stops and tests `cond` there.
    fn leads_to(
        &self,
        st: &mut State,
        sc: &mut State,
        id: u32,
        alt: u8,
        value: i32,
        cond: &Num,
    ) -> bool {
        // the work done so far goes on counting in the scratch copy
        self.run(sc);
        st.r.work = sc.r.work;
        // The condition reads the position after the decision, with the choice's variables
        // as decided and `mover` the player who decided.
        self.set_choice_values(sc, id, alt, value);
        sc.b.seen.to_move = Some(sc.b.mover);
        sc.b.mover = st.b.mover;
        cond(&sc.b, &mut sc.r) != 0
    }

    /// Whether decision `d` (listed at choice `id`, before the `leaving` tests) passes its
    /// `leaving` test when played on a scratch copy made for it alone (`st.clone()`: every
    /// part of `st` copied, nothing kept from an earlier look-ahead) whose history takes the
    /// look-ahead's positions itself (no overlay): the reference for the scratch copy the
    /// engine reuses.
    #[cfg(test)]
    pub(crate) fn leaves_on_fresh_copy(&self, st: &State, id: u32, d: Decision) -> bool {
        let Decision::Alt { alt, value } = d else {
            return true;
        };
        let alts = &self.prog.choices[id as usize].alts;
        let Some(cond) = alts.get(alt as usize).and_then(|a| a.leaving.as_ref()) else {
            return true;
        };
        let (mut from, mut sc) = (st.clone(), Box::new(st.clone()));
        self.look_start(&from, &mut sc, id, alt, value);
        sc.b.seen.end_overlay();
        self.leads_to(&mut from, &mut sc, id, alt, value, cond)
    }

    /// Whether decision `d`, taken from `st`'s legal decisions, completes the mover's turn
    /// (the turn passes or the game ends before the next choice of the same turn): played as a
    /// look-ahead plays it, on `sc`, without listing the decisions of the position it reaches.
    /// False when that does not tell (a drop, or the turn stopping at a choice, an order of
    /// drops, a chance event or the end of a round): the decision must then be played.
    /// `sc.r.work` is the work it took.
    pub(crate) fn completes_turn(&self, st: &State, sc: &mut State, d: Decision) -> bool {
        let (Pending::Choice(id), Decision::Alt { alt, value }) = (st.pending, d) else {
            return false;
        };
        self.look_start(st, sc, id, alt, value);
        sc.r.work = 0;
        self.run(sc);
        sc.is_over() || sc.turn != st.turn
    }

    /// Makes the scratch copy `sc` the position `st` with decision (`alt`, `value`) of choice
    /// `id` taken, ready to run up to where a look-ahead stops.
    fn look_start(&self, st: &State, sc: &mut State, id: u32, alt: u8, value: i32) {
        sc.clone_from(st);
        sc.look.active = true;
        // the turn's positions go to an overlay: the next look-ahead copies no history
        sc.b.seen.start_overlay();
        sc.log.on = false;
        sc.pending = Pending::Choice(id);
        sc.flow.turn_decisions += 1;
        self.set_choice_values(sc, id, alt, value);
        sc.pc = self.choices[id as usize].alts[alt as usize].target;
    }

    /// Sets the variables of alternative `alt` of choice `id` to decision `value`.
    fn set_choice_values(&self, sc: &mut State, id: u32, alt: u8, value: i32) {
        let a = &self.choices[id as usize].alts[alt as usize];
        match (a.var, &a.to) {
            (Some(v), Some((v2, _))) => {
                sc.r.set(v, (value >> 16) as i64);
                sc.r.set(*v2, (value & 0xffff) as i64);
            }
            (Some(v), None) => sc.r.set(v, value as i64),
            _ => {}
        }
    }
}
