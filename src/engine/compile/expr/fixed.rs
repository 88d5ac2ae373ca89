//! Values that depend only on one site: a subexpression of more than one node whose value
//! depends only on one variable and the board's fixed geometry (what [`crate::ir::eval`] calls
//! static: constants, coordinates, `next` along a direction, `opposite`, regions, `site_at`,
//! arithmetic, comparisons, and `and/or/not/if` of such parts) is computed for every site when
//! the game is compiled, and read from a table during play. Where the variable holds no site,
//! or where the value at a site would fault (an overflow, a division by zero), the expression
//! is evaluated as written, so that values and faults stay exactly those of the expression.

use super::*;
use crate::ir::eval::{is_static, static_parts, static_value};

impl Compiler {
    /// The expression as a table by site, if it is static in one variable and not a single
    /// node; a static expression without variables becomes its constant.
    pub(crate) fn tabulated(&mut self, e: &Expr) -> Option<Num> {
        if let Some(k) = self.constant(e) {
            return Some(num(move |_, _| k));
        }
        let table = self.table(e)?;
        Some(num(move |b, r| table.get(b, r)))
    }

    /// The value of a static expression that reads no variable.
    fn constant(&self, e: &Expr) -> Option<i64> {
        if matches!(e, Expr::Const(_) | Expr::Var(_)) || the_variable(e)?.is_some() {
            return None;
        }
        let none = VarId::MAX;
        is_static(e, none)
            .then(|| static_value(&*self.t, e, none, 0))
            .flatten()
    }

    /// The table of an expression static in one variable, of more than one node.
    pub(crate) fn table(&mut self, e: &Expr) -> Option<Table> {
        if self.as_written || matches!(e, Expr::Const(_) | Expr::Var(_)) {
            return None;
        }
        let v = the_variable(e)??;
        if !is_static(e, v) {
            return None;
        }
        let t = self.t.clone();
        let values: Vec<Option<i64>> = (0..t.nsites)
            .map(|s| static_value(&*t, e, v, s as i64))
            .collect();
        // The fallback compiles the expression's parts as written (no table of a part).
        self.as_written = true;
        let as_written = self.num_as_written(e);
        self.as_written = false;
        let faults: Box<[bool]> = if values.iter().all(Option::is_some) {
            Box::new([])
        } else {
            values.iter().map(Option::is_none).collect()
        };
        Some(Table {
            v,
            values: values.into_iter().map(|x| x.unwrap_or(0)).collect(),
            faults,
            as_written,
        })
    }
}

/// The first variable of an expression made of the parts a static expression is made of
/// (`Some(None)` for none; `None` at a part of another kind). [`is_static`] then checks the
/// whole.
fn the_variable(e: &Expr) -> Option<Option<VarId>> {
    if let Expr::Var(x) = e {
        return Some(Some(*x));
    }
    let mut found = None;
    for part in static_parts(e)? {
        found = found.or(the_variable(part)?);
    }
    Some(found)
}

impl Compiler {
    /// `track_end(mover)` and `track_site(mover, k)` (a constant `k`): values that depend
    /// only on the mover and the board's fixed geometry, in a table by player (-1 for a mover
    /// who is no player, as written). Neither can fault.
    pub(crate) fn by_mover(&self, e: &Expr) -> Option<ByMover> {
        if self.as_written || as_written() {
            return None;
        }
        let t = &*self.t;
        let value: &dyn Fn(i64) -> i64 = match e {
            Expr::TrackEnd(p) if **p == Expr::Mover => &|p| t.track_end_of(p),
            Expr::TrackSite(p, k) if **p == Expr::Mover => match **k {
                Expr::Const(k) => &move |p| t.track_site_of(p, k),
                _ => return None,
            },
            _ => return None,
        };
        Some(ByMover((0..t.players as i64).map(value).collect()))
    }
}
