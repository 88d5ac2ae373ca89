//! The one static evaluator of the IR: the value of an expression that depends only on one
//! site variable and the board's fixed tables (regions, the ring, the lines, coordinates, the
//! sites' first owners), computed for every site when a game is loaded. The optimizer uses it
//! to list a condition's candidate sites, the engine's compiler to narrow a question's sites
//! and to build its keys; each reads the board through [`Fixed`] (the IR's own tables, or the
//! engine's flat copies of them).
//!
//! A test is made static only where it has a value at every site: one that overflows or
//! divides by zero somewhere stays a check during play, where it raises its fault.

use super::arith::apply;
use super::{Expr, Game, RegionId, VarId};

const NONE: u16 = u16::MAX;

/// The fixed facts of a board that a static expression may read.
pub(crate) trait Fixed {
    /// The number of sites.
    fn nsites(&self) -> usize;
    /// Whether site `s` (a valid site) is in region `r`.
    fn in_region(&self, r: RegionId, s: usize) -> bool;
    /// The site opposite `s`, `u16::MAX` if none.
    fn opposite_of(&self, s: usize) -> u16;
    /// The coordinates of site `s`.
    fn coord_x(&self, s: usize) -> i64;
    fn coord_y(&self, s: usize) -> i64;
    /// The player a site belonged to at the start (-1 for none).
    fn first_owner(&self, s: usize) -> i64;
    /// `between(a, c)`: the site between two sites on a line, one step from each (-1 if none).
    fn between_sites(&self, a: i64, c: i64) -> i64;
    /// `site_at(x, y)`: the site at a point (-1 for none).
    fn site_at(&self, x: i64, y: i64) -> i64;
    /// `next(s, d, n)`: n steps along the ring, or n offsets along a named direction (-1 where
    /// there is no site).
    fn ring_walk(&self, s: i64, d: i64, n: i64) -> i64;
}

/// A site index, if the value names a site of a board of `n` sites.
#[inline(always)]
pub(crate) fn site_index(n: usize, v: i64) -> Option<usize> {
    usize::try_from(v).ok().filter(|&s| s < n)
}

/// `next(s, d, n)` on a ring given as the next site in each direction (`u16::MAX` off the
/// ring): n steps (backward for a negative n), going round it as often as needed; -1 where the
/// ring stops.
pub(crate) fn walk(next: &[Vec<u16>; 2], nsites: usize, site: i64, dir: i64, steps: i64) -> i64 {
    let Some(mut s) = site_index(nsites, site) else {
        return -1;
    };
    let d = usize::from(dir != 0);
    let (d, mut n) = if steps < 0 {
        (1 - d, steps.unsigned_abs())
    } else {
        (d, steps as u64)
    };
    let start = s;
    let mut walked = 0u64;
    while n > 0 {
        let x = next[d][s];
        if x == NONE {
            return -1;
        }
        s = x as usize;
        n -= 1;
        walked += 1;
        if s == start {
            // Round the whole ring: only the rest of the steps matter.
            n %= walked;
        }
    }
    s as i64
}

impl Fixed for Game {
    fn nsites(&self) -> usize {
        self.sites.len()
    }
    fn in_region(&self, r: RegionId, s: usize) -> bool {
        self.regions[r.0 as usize].1[s]
    }
    fn opposite_of(&self, s: usize) -> u16 {
        self.opposite[s]
    }
    fn coord_x(&self, s: usize) -> i64 {
        self.sites[s].x
    }
    fn coord_y(&self, s: usize) -> i64 {
        self.sites[s].y
    }
    fn first_owner(&self, s: usize) -> i64 {
        self.sites[s].owner.map(|p| p.0 as i64).unwrap_or(-1)
    }
    fn between_sites(&self, a: i64, c: i64) -> i64 {
        let n = self.sites.len();
        let (Some(a), Some(c)) = (site_index(n, a), site_index(n, c)) else {
            return -1;
        };
        // the lines' directions in order, as the engine's table of jumps lists them
        for st in &self.step {
            let mid = st[a];
            if mid != NONE && st[mid as usize] != NONE && st[mid as usize] as usize == c {
                return mid as i64;
            }
        }
        -1
    }
    fn site_at(&self, x: i64, y: i64) -> i64 {
        self.grid.at(x, y)
    }
    fn ring_walk(&self, s: i64, d: i64, n: i64) -> i64 {
        if let Some(i) = self.compass.index(d) {
            return site_index(self.sites.len(), s).map_or(-1, |s| {
                let xy = (self.sites[s].x, self.sites[s].y);
                self.compass.walk(&self.grid, i, s, xy, n)
            });
        }
        walk(&self.next, self.sites.len(), s, d, n)
    }
}

/// The parts of an expression of a kind a static expression is made of (constants, variables,
/// geometry, arithmetic, logic): its operands (none for a constant or a variable); `None` for
/// an expression of another kind.
pub(crate) fn static_parts(e: &Expr) -> Option<Vec<&Expr>> {
    Some(match e {
        Expr::Const(_) | Expr::Var(_) => vec![],
        Expr::InRegion(s, _)
        | Expr::Opposite(s)
        | Expr::Not(s)
        | Expr::Neg(s)
        | Expr::Abs(s)
        | Expr::CoordX(s)
        | Expr::CoordY(s)
        | Expr::OriginalOwner(s)
        | Expr::BinConst(_, s, _) => vec![&**s],
        Expr::Bin(_, x, y)
        | Expr::And(x, y)
        | Expr::Or(x, y)
        | Expr::Between(x, y)
        | Expr::SiteAt(x, y) => vec![&**x, &**y],
        Expr::Next { site, dir, steps } => vec![&**site, &**dir, &**steps],
        Expr::All(items) | Expr::Any(items) => items.iter().collect(),
        Expr::If(c, x, y) => vec![&**c, &**x, &**y],
        _ => return None,
    })
}

/// Whether an expression depends only on site variable `v` and the board's fixed tables.
pub(crate) fn is_static(e: &Expr, v: VarId) -> bool {
    match e {
        Expr::Var(x) => *x == v,
        _ => static_parts(e).is_some_and(|parts| parts.into_iter().all(|x| is_static(x, v))),
    }
}

/// The value of a static expression for `v = site` (None where it has none: an overflow, a
/// division by zero, or an expression that is not static after all).
pub(crate) fn static_value<B: Fixed + ?Sized>(b: &B, e: &Expr, v: VarId, site: i64) -> Option<i64> {
    let ev = |x: &Expr| static_value(b, x, v, site);
    let at = |s: i64| site_index(b.nsites(), s);
    Some(match e {
        Expr::Const(c) => *c,
        Expr::Var(x) if *x == v => site,
        Expr::InRegion(s, reg) => at(ev(s)?).is_some_and(|s| b.in_region(*reg, s)) as i64,
        Expr::Opposite(s) => match at(ev(s)?) {
            Some(s) if b.opposite_of(s) != NONE => b.opposite_of(s) as i64,
            _ => -1,
        },
        Expr::CoordX(s) => at(ev(s)?).map_or(-1, |s| b.coord_x(s)),
        Expr::CoordY(s) => at(ev(s)?).map_or(-1, |s| b.coord_y(s)),
        Expr::OriginalOwner(s) => at(ev(s)?).map_or(-1, |s| b.first_owner(s)),
        Expr::Between(a, c) => b.between_sites(ev(a)?, ev(c)?),
        Expr::SiteAt(x, y) => b.site_at(ev(x)?, ev(y)?),
        Expr::Next { site, dir, steps } => b.ring_walk(ev(site)?, ev(dir)?, ev(steps)?),
        Expr::Not(x) => (ev(x)? == 0) as i64,
        Expr::Neg(x) => ev(x)?.checked_neg()?,
        Expr::Abs(x) => ev(x)?.checked_abs()?,
        Expr::BinConst(op, x, c) => apply(*op, ev(x)?, *c)?,
        Expr::Bin(op, x, y) => apply(*op, ev(x)?, ev(y)?)?,
        Expr::And(x, y) => (ev(x)? != 0 && ev(y)? != 0) as i64,
        Expr::Or(x, y) => (ev(x)? != 0 || ev(y)? != 0) as i64,
        Expr::All(items) => {
            for i in items {
                if ev(i)? == 0 {
                    return Some(0);
                }
            }
            1
        }
        Expr::Any(items) => {
            for i in items {
                if ev(i)? != 0 {
                    return Some(1);
                }
            }
            0
        }
        Expr::If(c, x, y) => {
            if ev(c)? != 0 {
                ev(x)?
            } else {
                ev(y)?
            }
        }
        _ => return None,
    })
}

/// The value of an expression at every site, if it is static and has a value at each.
pub(crate) fn static_values<B: Fixed + ?Sized>(b: &B, e: &Expr, v: VarId) -> Option<Vec<i64>> {
    if !is_static(e, v) {
        return None;
    }
    (0..b.nsites())
        .map(|s| static_value(b, e, v, s as i64))
        .collect()
}
