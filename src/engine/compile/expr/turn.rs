//! Expressions of one family: the players, the round, the positions seen and the tallies.

use super::*;

impl Compiler {
    /// Compiles an expression about players, rounds and tallies.
    pub(super) fn turn_value(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Mover => num(|b, _| b.mover as i64),
            Expr::Opponent => num(move |b, _| t.opponent[b.mover as usize] as i64),
            Expr::SideOf(p) => {
                let p = self.num(p);
                let n = t.sides as i64;
                num(move |b, r| {
                    let p = p(b, r);
                    // a player's side from the table; any other number as the rule says
                    match usize::try_from(p).ok().and_then(|p| t.side.get(p)) {
                        Some(&s) => s,
                        None if p < 0 => -1,
                        None => p % n,
                    }
                })
            }
            Expr::Tally(slot) => {
                let slot = *slot as usize;
                num(move |b, _| b.tallies.get(slot).copied().unwrap_or(0))
            }
            Expr::TallyOf(slot, p) => {
                let slot = *slot as usize;
                let p = self.num(p);
                num(move |b, r| {
                    t.player(p(b, r))
                        .and_then(|p| b.tallies.get(slot + p))
                        .copied()
                        .unwrap_or(0)
                })
            }
            Expr::Round => num(|b, _| b.round as i64),
            Expr::TallyAt(slot, s) => self.tally_at(*slot, s),
            Expr::Repeated => num(|b, _| b.seen.repeated(b.mover) as i64),
            Expr::Repetitions => num(|b, _| b.seen.repetitions(b.mover) as i64),
            Expr::FirstPlayer => num(|b, _| b.round_first as i64),
            _ => unreachable!("not an expression about players, rounds and tallies: {e:?}"),
        }
    }
}
