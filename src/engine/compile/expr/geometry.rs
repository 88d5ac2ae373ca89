//! Expressions of one family: the board's geometry: the ring, the sowing's direction, regions and sets, lines, coordinates and tracks.

use super::*;
use std::sync::Arc;

impl Compiler {
    /// Compiles an expression about the board's geometry.
    pub(super) fn geometry(&mut self, e: &Expr) -> Num {
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
            Expr::TrackSite(p, n) => by_forms!(self.arg(p), self.arg(n), track_site(t)),
            Expr::TrackPos(p, s) => by_forms!(self.arg(p), self.arg(s), track_pos(t)),
            Expr::TrackEnd(p) => {
                with_arg!(self, p, |p| num(move |b, r| {
                    t.player(p(b, r))
                        .and_then(|p| t.track_of(p))
                        .map_or(-1, |tr| tr.first + tr.sites.len() as i64 - 1)
                }))
            }
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
        let Some(tr) = t.player(p).and_then(|p| t.track_of(p)) else {
            return -1;
        };
        n.checked_sub(tr.first)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| tr.sites.get(i))
            .map_or(-1, |&s| s as i64)
    })
}

/// `track_pos(p, s)`: site `s`'s position on player `p`'s track (-1 where it is not on it).
fn track_pos(t: Arc<Tables>, p: impl Get, s: impl Get) -> Num {
    num(move |b, r| {
        let (p, s) = (p.get(b, r), s.get(b, r));
        match (t.player(p), t.site(s)) {
            (Some(p), Some(s)) => t.track_pos(p, s),
            _ => -1,
        }
    })
}
