//! Expressions of one family: the board's geometry: the ring, the sowing's direction, regions and sets, lines, coordinates and tracks.

use super::*;
use std::sync::Arc;

impl Compiler {
    /// Compiles an expression about the board's geometry.
    pub(super) fn geometry(&mut self, e: &Expr) -> Num {
        if let Some(m) = self.by_mover(e) {
            return num(move |b, r| m.get(b, r));
        }
        let t = self.t.clone();
        match e {
            Expr::Next { site, dir, steps } => {
                if let (Expr::Const(d), Expr::Const(n)) = (&**dir, &**steps) {
                    // A constant direction and number of steps: the site reached from each
                    // site, in a table (-1 where none; `walk` of a value that is no site is -1).
                    let table: Box<[i64]> =
                        (0..t.nsites).map(|s| t.walk(s as i64, *d, *n)).collect();
                    return with_arg!(self, site, |s| num(move |b, r| {
                        let s = s(b, r);
                        usize::try_from(s)
                            .ok()
                            .and_then(|s| table.get(s))
                            .map_or(-1, |&x| x)
                    }));
                }
                let (s, d, n) = (self.num(site), self.num(dir), self.num(steps));
                num(move |b, r| {
                    let (s, d, n) = (s(b, r), d(b, r), n(b, r));
                    t.walk(s, d, n)
                })
            }
            Expr::NextSow(s) => {
                with_arg!(self, s, |s| num(move |b, r| {
                    let s = s(b, r);
                    next1(&t, b, s)
                }))
            }
            Expr::NextSowVar(v) => {
                let v = *v;
                num(move |b, r| next1(&t, b, r.var(v)))
            }
            Expr::SowDir => num(|b, _| b.sow_dir as i64),
            Expr::Opposite(s) => {
                with_arg!(self, s, |s| num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if t.opposite[s] != u16::MAX => t.opposite[s] as i64,
                    _ => -1,
                }))
            }
            Expr::InRegion(s, reg) => {
                let reg = reg.0 as usize;
                with_arg!(self, s, |s| num(move |b, r| {
                    t.site(s(b, r))
                        .is_some_and(|s| crate::engine::bits::test(&t.regions[reg], s))
                        as i64
                }))
            }
            Expr::InSet(s, set) => {
                let s = self.num(s);
                let set = self.set(set);
                num(move |b, r| {
                    let s = s(b, r);
                    set.contains(b, r, s) as i64
                })
            }
            Expr::TrackSite(p, n) => match self.track_step::<true>(Some(p), n) {
                Some(f) => f,
                None => by_forms!(self.arg(p), self.arg(n), track_site(t)),
            },
            Expr::TrackPos(p, s) => by_forms!(self.arg(p), self.arg(s), track_pos(t)),
            Expr::TrackEnd(p) => with_arg!(self, p, |p| num(move |b, r| t.track_end_of(p(b, r)))),
            Expr::Between(a, c) => {
                let c = self.arg(c);
                // `between(site(t), q)`: the token's site read in place.
                match &**a {
                    Expr::TokSite(x) if matches!(&**x, Expr::Var(_)) => {
                        let Expr::Var(v) = &**x else { unreachable!() };
                        let v = *v;
                        num(move |b, r| {
                            let a = match t.token(r.var(v)).map(|x| b.toks.site[x]) {
                                Some(s) if s != u16::MAX => s as i64,
                                _ => -1,
                            };
                            let c = c.get(b, r);
                            t.between(a, c)
                        })
                    }
                    _ => {
                        let a = self.arg(a);
                        num(move |b, r| {
                            let a = a.get(b, r);
                            let c = c.get(b, r);
                            t.between(a, c)
                        })
                    }
                }
            }
            Expr::CoordX(s) | Expr::CoordY(s) => {
                let is_x = matches!(e, Expr::CoordX(_));
                let s = self.num(s);
                num(move |b, r| match t.site(s(b, r)) {
                    Some(s) if is_x => t.x[s],
                    Some(s) => t.y[s],
                    None => -1,
                })
            }
            Expr::SiteAt(x, y) => {
                let (x, y) = (self.arg(x), self.arg(y));
                num(move |b, r| {
                    let x = x.get(b, r);
                    t.grid.at(x, y.get(b, r))
                })
            }
            _ => unreachable!("not an expression about the board's geometry: {e:?}"),
        }
    }
}

/// `track_site(p, n)`: the site at position `n` of player `p`'s track (-1 where there is none).
fn track_site(t: Arc<Tables>, p: impl Get, n: impl Get) -> Num {
    num(move |b, r| {
        let (p, n) = (p.get(b, r), n.get(b, r));
        t.track_site_of(p, n)
    })
}

/// `track_pos(p, s)`: site `s`'s position on player `p`'s track (-1 where it is not on it).
fn track_pos(t: Arc<Tables>, p: impl Get, s: impl Get) -> Num {
    num(move |b, r| {
        let (p, s) = (p.get(b, r), s.get(b, r));
        t.track_pos_of(p, s)
    })
}

/// `track_pos(p, s) + k`, and with `SITE` the site there, `track_site(p, track_pos(p, s) +
/// k)`, in one step: `p`, `s` and `k` evaluated in the order written (`p`, read in place, only
/// once), the sum's overflow a fault as written.
fn stepped<const SITE: bool>(t: Arc<Tables>, p: impl Get, s: impl Get, k: impl Get) -> Num {
    num(move |b, r| {
        let p = p.get(b, r);
        let s = s.get(b, r);
        let k = k.get(b, r);
        let n = t
            .track_pos_of(p, s)
            .checked_add(k)
            .unwrap_or_else(|| fail(b, Fault::Overflow));
        if SITE { t.track_site_of(p, n) } else { n }
    })
}

/// `track_pos(p, s) + k` in one step (see [`stepped`]).
fn track_ahead(t: Arc<Tables>, p: impl Get, s: impl Get, k: impl Get) -> Num {
    stepped::<false>(t, p, s, k)
}

/// `track_site(p, track_pos(p, s) + k)` in one step (see [`stepped`]).
fn track_site_ahead(t: Arc<Tables>, p: impl Get, s: impl Get, k: impl Get) -> Num {
    stepped::<true>(t, p, s, k)
}

impl Compiler {
    /// A sum `track_pos(p, s) + k` where `p` is the mover, a variable or a constant, in one
    /// closure instead of three (the sum, the position and the operands' reads); with `SITE`,
    /// `track_site(p, that sum)` (the same `p`, read in place twice as written, so once is
    /// the same) in one closure instead of four.
    pub(crate) fn track_step<const SITE: bool>(
        &mut self,
        site_of: Option<&Expr>,
        sum: &Expr,
    ) -> Option<Num> {
        let (Expr::Bin(Op::Add, pos, _) | Expr::BinConst(Op::Add, pos, _)) = sum else {
            return None;
        };
        let Expr::TrackPos(p, s) = &**pos else {
            return None;
        };
        if as_written()
            || !matches!(**p, Expr::Mover | Expr::Var(_) | Expr::Const(_))
            || site_of.is_some_and(|q| *q != **p)
        {
            return None;
        }
        let k = match sum {
            Expr::BinConst(_, _, k) => Arg::Const(*k),
            Expr::Bin(_, _, k) => self.arg(k),
            _ => return None,
        };
        let (t, s) = (self.t.clone(), self.arg(s));
        Some(match (**p == Expr::Mover, SITE) {
            (true, true) => by_forms!(s, k, track_site_ahead(t, IsMover)),
            (true, false) => by_forms!(s, k, track_ahead(t, IsMover)),
            (false, site) => {
                let p = self.arg(p);
                if site {
                    by_forms!(s, k, track_site_ahead(t, p))
                } else {
                    by_forms!(s, k, track_ahead(t, p))
                }
            }
        })
    }
}
