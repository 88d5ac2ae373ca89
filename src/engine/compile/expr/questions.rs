//! Expressions of one family: questions over every site or token: exists, forall, some, the aggregates, lines and the first site along the ring.

use super::*;
use crate::engine::compile::query::kept::keeps_aggregate;

impl Compiler {
    /// Compiles an expression about questions over sites or tokens.
    pub(super) fn question(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Exists { var, set, cond } => self.exists(*var, set, cond),
            Expr::Forall { var, set, cond } => self.forall(*var, set, cond),
            Expr::TokExists(v, c) => {
                let q = self.tokens(*v, c);
                num(move |b, r| q.exists(b, r) as i64)
            }
            Expr::Some { over, var, cond } => match over {
                Over::Tokens => {
                    let q = self.tokens(*var, cond);
                    num(move |b, r| q.first(b, r))
                }
                Over::Sites => {
                    let q = self.sites(*var, Base::All, Some(cond));
                    num(move |b, r| q.first(b, r))
                }
            },
            Expr::Agg {
                op,
                over,
                var,
                cond,
                value,
            } => {
                let kind = AggKind::from(*op);
                match over {
                    Over::Tokens => {
                        let q = self.tokens(*var, cond);
                        // `total token x where C: k`: k times the tokens counted (no sum
                        // overflows: k times every token fits)
                        if let (AggKind::Sum, Expr::Const(k)) = (kind, &**value)
                            && k.checked_mul(self.t.ntokens as i64).is_some()
                            && !as_written()
                        {
                            let k = *k;
                            return num(move |b, r| k * q.count(b, r));
                        }
                        let x = self.num(value);
                        num(move |b, r| q.aggregate(b, r, kind, &x))
                    }
                    Over::Sites => {
                        let q = self.sites(*var, Base::All, Some(cond));
                        let x = self.site_value(*var, value);
                        if keeps_aggregate(kind, &x) {
                            match self.kept(q) {
                                Ok(k) => return num(move |b, r| k.aggregate(b, r, kind, &x)),
                                Err(q) => {
                                    let q = *q;
                                    return num(move |b, r| q.aggregate(b, r, kind, &x));
                                }
                            }
                        }
                        num(move |b, r| q.aggregate(b, r, kind, &x))
                    }
                }
            }
            Expr::InLine(l) => self.in_line(l.var, &l.through, &l.cond),
            Expr::SomeAlong {
                var,
                from,
                dir,
                cond,
            } => {
                let v = *var;
                let (from, dir, c) = (self.num(from), self.num(dir), self.num(cond));
                num(move |b, r| {
                    let Some(start) = t.site(from(b, r)) else {
                        return -1;
                    };
                    let next = &t.next[usize::from(dir(b, r) != 0)];
                    if next[start] == u16::MAX {
                        return -1; // not on the ring
                    }
                    let mut s = start;
                    // each site of the ring once, from `start` (a visit is work)
                    for _ in 0..t.nsites {
                        r.work += 1;
                        r.set(v, s as i64);
                        if c(b, r) != 0 {
                            return s as i64;
                        }
                        s = next[s] as usize;
                        if s == start || s >= t.nsites {
                            break;
                        }
                    }
                    -1
                })
            }
            _ => unreachable!("not an expression about questions over sites or tokens: {e:?}"),
        }
    }
}
