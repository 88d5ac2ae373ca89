//! Which tallies a board shows: those the rules can change, and those that moved.

use super::*;

/// For each tally, whether a board shows it: when the rules can change it
/// ([`tallies_that_change`]), or when it is not its first value.
pub(crate) fn tallies_shown(g: &Game, st: &State) -> Vec<bool> {
    let live = tallies_that_change(g);
    g.tallies
        .iter()
        .zip(live)
        .map(|(t, live)| {
            live || (!t.per_site
                && (0..g.players.len().max(1)).any(|p| {
                    let p = t.per_player.then_some(Player(p as u8));
                    st.tally_value(t, p).is_some_and(|v| v != t.init)
                }))
        })
        .collect()
}

/// For each tally, whether the rules of this game and option set can change it: some
/// `set` of it can be reached from the start, the turn or the `between rounds` program (a
/// condition on options alone, `if rounds != match { end game }`, is followed one way only).
/// A tally that never changes is not shown on the board.
pub fn tallies_that_change(g: &Game) -> Vec<bool> {
    let n = g.code.len();
    let mut seen = vec![false; n];
    let mut todo: Vec<u32> = vec![0, g.turn_start];
    todo.extend(g.between_start);
    let mut written = vec![false; g.tally_slots];
    while let Some(pc) = todo.pop() {
        let Some(i) = g.code.get(pc as usize) else {
            continue;
        };
        if std::mem::replace(&mut seen[pc as usize], true) {
            continue;
        }
        let next = pc + 1;
        match i {
            Instr::Jump(t) => todo.push(*t),
            Instr::JumpIfNot(Expr::Const(c), t) => todo.push(if *c != 0 { next } else { *t }),
            Instr::JumpIfNot(_, t) => todo.extend([next, *t]),
            Instr::Choose(id) => {
                todo.push(next);
                if let Some(ch) = g.choices.get(*id as usize) {
                    todo.extend(ch.alts.iter().map(|a| a.target));
                    todo.extend(ch.otherwise);
                }
            }
            Instr::SowLap { on_cycle, .. } => todo.extend([next, *on_cycle]),
            Instr::Relay { lap, .. } => todo.extend([next, *lap]),
            Instr::ForNext { end, .. } => todo.extend([next, *end]),
            Instr::EndGame(..) => {}
            Instr::EndTurn | Instr::NewRound => todo.push(g.turn_start),
            Instr::EndRound => todo.extend(g.between_start),
            Instr::SetTally { slot, .. } | Instr::SetTallyAt { slot, .. } => {
                if let Some(w) = written.get_mut(*slot as usize) {
                    *w = true;
                }
                todo.push(next);
            }
            _ => todo.push(next),
        }
    }
    g.tallies
        .iter()
        .map(|t| {
            let width = if t.per_player { g.players.len() } else { 1 };
            (t.slot as usize..t.slot as usize + width).any(|s| written.get(s) == Some(&true))
        })
        .collect()
}
