//! Expressions of one family: logic and arithmetic: negation, operators, conjunctions, the fused tests of a site, and a value bound once (`Let`).

use super::*;

impl Compiler {
    /// Compiles an expression about logic and arithmetic.
    pub(super) fn logic(&mut self, e: &Expr) -> Num {
        if let Some(f) = self.track_step::<false>(None, e) {
            return f;
        }
        let t = self.t.clone();
        match e {
            // `not` of a comparison: the opposite comparison (no fault either way)
            Expr::Not(x) if matches!(&**x, Expr::BinConst(op, ..) if opposite(*op).is_some()) => {
                let Expr::BinConst(op, x, c) = &**x else {
                    unreachable!()
                };
                self.bin_const(opposite(*op).unwrap_or(*op), x, *c)
            }
            // `not` of a comparison of two operands: the opposite comparison (both operands
            // evaluated as before, in the same order)
            Expr::Not(x) if matches!(&**x, Expr::Bin(op, ..) if opposite(*op).is_some()) => {
                let Expr::Bin(op, x, y) = &**x else {
                    unreachable!()
                };
                let (x, y) = (self.arg(x), self.arg(y));
                binary(opposite(*op).unwrap_or(*op), x, y)
            }
            Expr::Not(x) => {
                let x = self.num(x);
                num(move |b, r| (x(b, r) == 0) as i64)
            }
            Expr::Neg(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    let v = x(b, r);
                    v.checked_neg().unwrap_or_else(|| fail(b, Fault::Overflow))
                })
            }
            Expr::Abs(x) => {
                let x = self.num(x);
                num(move |b, r| {
                    let v = x(b, r);
                    v.checked_abs().unwrap_or_else(|| fail(b, Fault::Overflow))
                })
            }
            Expr::Bin(op, x, y) => {
                let (x, y) = (self.arg(x), self.arg(y));
                binary(*op, x, y)
            }
            Expr::BinConst(op, x, c) => self.bin_const(*op, x, *c),
            Expr::And(x, y) => self.conjunction(&[x, y]),
            Expr::Or(x, y) => {
                if let Some(f) = self.emptiness_or(&[x, y]) {
                    return f;
                }
                let (x, y) = (self.num(x), self.num(y));
                num(move |b, r| (x(b, r) != 0 || y(b, r) != 0) as i64)
            }
            Expr::All(items) => self.conjunction(&items.iter().collect::<Vec<_>>()),
            Expr::Any(items) => {
                if let Some(f) = self.emptiness_or(&items.iter().collect::<Vec<_>>()) {
                    return f;
                }
                let items: Vec<Num> = items.iter().map(|i| self.num(i)).collect();
                match <[Num; 2]>::try_from(items) {
                    Ok([a, c]) => num(move |b, r| (a(b, r) != 0 || c(b, r) != 0) as i64),
                    Err(items) => num(move |b, r| items.iter().any(|i| i(b, r) != 0) as i64),
                }
            }
            Expr::If(c, x, y) => {
                let (c, x, y) = (self.num(c), self.num(x), self.num(y));
                num(move |b, r| if c(b, r) != 0 { x(b, r) } else { y(b, r) })
            }
            Expr::KindIs { var, kind, sense } => {
                let (v, k, neg) = (*var, *kind, *sense == Sense::IsNot);
                num(move |b, r| {
                    let is = t.site(r.var(v)).is_some_and(|s| b.kinds[s] == k);
                    (is != neg) as i64
                })
            }
            Expr::OwnerIs { var, player, sense } => {
                let (v, p, neg) = (*var, *player, *sense == Sense::IsNot);
                num(move |b, r| {
                    let o = t.site(r.var(v)).map_or(-1, |s| b.owners[s] as i64);
                    ((o == player_ref(p, b, &t)) != neg) as i64
                })
            }
            // the value into its variable's register, then the body, which reads it there
            Expr::Let { var, value, body } => {
                let v = *var;
                // a part of a question's condition kept once per question (`hoist.rs`)
                if matches!(&**body, Expr::Var(w) if *w == v)
                    && let Some(x) = self.lazy_let(v, value)
                {
                    return x;
                }
                let (x, y) = (self.num(value), self.num(body));
                num(move |b, r| {
                    let x = x(b, r);
                    r.set(v, x);
                    y(b, r)
                })
            }
            Expr::SiteTest(st) => self.site_test(st),
            _ => unreachable!("not an expression about logic and arithmetic: {e:?}"),
        }
    }

    /// `A or B or …` where each is a test of a fixed set for pieces (`count(SET) == 0`, `> 0`,
    /// …): one closure reading the index of sites with pieces once (see `any_emptiness`).
    fn emptiness_or(&mut self, items: &[&Expr]) -> Option<Num> {
        if as_written() {
            return None;
        }
        let tests = items
            .iter()
            .map(|e| match e {
                Expr::BinConst(op, x, c) => self.emptiness_test(*op, x, *c),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        #[cfg(test)]
        FUSED_EMPTINESS.with(|c| c.set(c.get() + 1));
        Some(self.any_emptiness(tests))
    }
}

/// The comparison that holds where `op` does not (None for arithmetic).
fn opposite(op: Op) -> Option<Op> {
    Some(match op {
        Op::Eq => Op::Ne,
        Op::Ne => Op::Eq,
        Op::Lt => Op::Ge,
        Op::Ge => Op::Lt,
        Op::Le => Op::Gt,
        Op::Gt => Op::Le,
        _ => return None,
    })
}

#[cfg(test)]
thread_local! {
    /// How many `or`s of tests for pieces were compiled as one (for the test of the form).
    pub(crate) static FUSED_EMPTINESS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
