//! Expressions of one family: questions over every site or token: exists, forall, some, the aggregates, lines and the first site along the ring.

use super::*;

impl Compiler {
    /// Compiles an expression about questions over sites or tokens.
    pub(super) fn question(&mut self, e: &Expr) -> Num {
        let t = self.t.clone();
        match e {
            Expr::Exists(v, set, c) => {
                let q = self.exists(*v, set, c);
                num(move |b, r| q(b, r))
            }
            Expr::Forall(v, set, c) => self.forall(*v, set, c),
            Expr::TokExists(v, c) => {
                let q = self.tokens(*v, c);
                num(move |b, r| q.exists(b, r) as i64)
            }
            Expr::Some(tokens, v, c) => {
                if *tokens {
                    let q = self.tokens(*v, c);
                    num(move |b, r| q.first(b, r))
                } else {
                    let q = self.sites(*v, Base::All, Some(c));
                    num(move |b, r| q.first(b, r))
                }
            }
            Expr::Agg(op, tokens, v, c, x) => {
                let kind = AggKind::from(*op);
                if *tokens {
                    let q = self.tokens(*v, c);
                    let x = self.num(x);
                    num(move |b, r| q.aggregate(b, r, kind, &x))
                } else {
                    let q = self.sites(*v, Base::All, Some(c));
                    let x = self.site_value(*v, x);
                    num(move |b, r| q.aggregate(b, r, kind, &x))
                }
            }
            Expr::InLine(v, s, c) => self.in_line(*v, s, c),
            Expr::SomeAlong(v, from, dir, c) => {
                let v = *v;
                let (from, dir, c) = (self.num(from), self.num(dir), self.num(c));
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
