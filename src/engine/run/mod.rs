//! The interpreter loop: runs the compiled turn program until a decision, a chance event or the
//! end of the game. `run` dispatches each instruction to a method by concern, in the child
//! modules: `control` (the turn's flow: choices, loops, rounds, chance), `pieces` (pieces,
//! owners, kinds, holdings and tallies), `sowing` (the laps of a sowing), `tokens` (individual
//! pieces) and `ending` (the end of the game and at a limit).

mod control;
mod ending;
mod pieces;
mod sowing;
mod tokens;

use super::compile::Op;
use super::{EndReason, Game, State, WORK_LIMIT};

/// No site (a cursor or a token's site off the board).
const NONE: u16 = u16::MAX;

impl Game {
    /// Where the program could loop (a jump back, a relay, the next element of a loop) and
    /// before it stops for a decision or a chance event: false (and the game is over) when the
    /// rules faulted or ran past the work allowed between two decisions.
    #[inline(always)]
    fn checkpoint(&self, st: &mut State) -> bool {
        if st.r.work > WORK_LIMIT {
            self.finish(st, None, EndReason::StepLimit);
            return false;
        }
        if let Some(f) = st.b.fault.get() {
            self.finish(st, None, EndReason::Fault(f));
            return false;
        }
        true
    }

    /// Runs the program until the next decision point, chance event or the end.
    pub(crate) fn run(&self, st: &mut State) {
        st.moves.clear();
        let prog = &*self.prog;
        if st.is_over() {
            st.moves.clear();
            return;
        }
        loop {
            st.r.work += 1;
            let Some(op) = prog.code.get(st.pc as usize) else {
                self.end_turn(st);
                if !self.checkpoint(st) {
                    return;
                }
                continue;
            };
            // each arm: true when the program stops (a decision, a chance event, the end)
            let stop = match op {
                Op::Jump(t) => self.jump(st, *t),
                Op::JumpIfNot(c, t) => {
                    let v = c(&st.b, &mut st.r);
                    st.pc = if v == 0 { *t } else { st.pc + 1 };
                    *t <= st.pc && !self.checkpoint(st)
                }
                Op::SetVar(v, e) => {
                    let x = e(&st.b, &mut st.r);
                    st.r.set(*v, x);
                    st.pc += 1;
                    false
                }
                // the turn's flow
                Op::Choose(id) => self.choose(st, *id),
                Op::EndTurn => {
                    self.end_turn(st);
                    !self.checkpoint(st)
                }
                Op::EndRound => self.end_round(st),
                Op::NewRound => self.new_round(st),
                Op::SetMover(p) => self.set_mover(st, p),
                Op::First(p) => self.first(st, p.as_ref()),
                Op::Throw { dice, var } => self.throw(st, *dice, *var),
                Op::ForTokens { slot, q } => self.for_tokens(st, *slot, q),
                Op::ForSites { slot, set } => self.for_sites(st, *slot, set),
                Op::ForNext { slot, var, end } => self.for_next(st, *slot, *var, *end),
                Op::AnotherTurn => {
                    st.flow.another_turn = true;
                    st.pc += 1;
                    false
                }
                Op::EndGame(rule, said) => self.end_game(st, rule, *said),
                // pieces, owners, kinds, holdings and tallies
                Op::SetOwner(s, p) => self.set_owner(st, s, p),
                Op::SetKind(s, k) => self.set_kind(st, s, k),
                Op::SetTokenKind(t, k) => self.set_token_kind(st, t, k),
                Op::Capture { set, keep, to } => self.capture(st, set, keep, to),
                Op::Place {
                    count,
                    piece,
                    on,
                    from,
                } => self.place(st, count, *piece, on, from.as_ref()),
                Op::Give {
                    count,
                    piece,
                    from,
                    to,
                } => self.give(st, count, *piece, from, to),
                Op::SetTally {
                    slot,
                    player,
                    value,
                } => self.set_tally(st, *slot, player.as_ref(), value),
                Op::SetTallyAt(at) => self.set_tally_at(st, at),
                Op::ForgetPositions => {
                    st.b.seen.forget();
                    st.pc += 1;
                    false
                }
                // sowing
                Op::SowStart { from, dir, lap } => {
                    self.sow_start(st, from, dir);
                    // A lap entered only from its start (`single`) follows at once: one
                    // dispatch for the two (the lap still counted as a step of work).
                    match prog.code.get(st.pc as usize).filter(|_| *lap) {
                        Some(Op::SowLap {
                            orders,
                            skip,
                            last,
                            on_cycle,
                            sown,
                            single: true,
                        }) => {
                            st.r.work += 1;
                            let lap = (*sown, true);
                            self.sow_lap_op(st, *orders, skip.as_ref(), *last, *on_cycle, lap)
                        }
                        _ => false,
                    }
                }
                Op::SowLap {
                    orders,
                    skip,
                    last,
                    on_cycle,
                    sown,
                    single,
                } => self.sow_lap_op(
                    st,
                    *orders,
                    skip.as_ref(),
                    *last,
                    *on_cycle,
                    (*sown, *single),
                ),
                Op::Relay { site, lap } => self.relay(st, site, *lap),
                // tokens
                Op::PlaceTokens {
                    count,
                    piece,
                    on,
                    area,
                    owner,
                } => {
                    self.place_tokens(st, count, *piece, on.as_ref(), *area, owner.as_ref());
                    st.pc += 1;
                    false
                }
                Op::Move {
                    token,
                    to,
                    onto_site,
                    carry,
                } => {
                    let t = token(&st.b, &mut st.r);
                    let to = to(&st.b, &mut st.r);
                    self.move_token(st, t, to, *onto_site, *carry);
                    st.pc += 1;
                    false
                }
                Op::Send { token, area } => self.send(st, token, *area),
            };
            if stop {
                return;
            }
        }
    }
}
