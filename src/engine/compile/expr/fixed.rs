//! Values that depend only on one site: a subexpression of more than one node whose value
//! depends only on one variable and the board's fixed geometry (what [`crate::ir::eval`] calls
//! static: constants, coordinates, `next` along a direction, `opposite`, regions, `site_at`,
//! arithmetic, comparisons, and `and/or/not/if` of such parts) is computed for every site when
//! the game is compiled, and read from a table during play. Where the variable holds no site,
//! or where the value at a site would fault (an overflow, a division by zero), the expression
//! is evaluated as written, so that values and faults stay exactly those of the expression.

use super::*;
use crate::ir::eval::{is_static, static_value};

/// A value read from a table by site (see the module's comment).
pub(crate) struct Table {
    v: VarId,
    values: Box<[i64]>,
    /// the sites where the value would fault (empty when there is none)
    faults: Box<[bool]>,
    as_written: Num,
}

impl Table {
    #[inline(always)]
    pub(crate) fn get(&self, b: &Board, r: &mut Regs) -> i64 {
        match usize::try_from(r.var(self.v)) {
            Ok(s) if s < self.values.len() && !self.faults.get(s).is_some_and(|&f| f) => {
                self.values[s]
            }
            _ => (self.as_written)(b, r),
        }
    }
}

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
    let first = |items: &[&Expr]| -> Option<Option<VarId>> {
        let mut found = None;
        for i in items {
            found = found.or(the_variable(i)?);
        }
        Some(found)
    };
    match e {
        Expr::Const(_) => Some(None),
        Expr::Var(x) => Some(Some(*x)),
        Expr::InRegion(s, _)
        | Expr::Opposite(s)
        | Expr::Not(s)
        | Expr::Neg(s)
        | Expr::Abs(s)
        | Expr::CoordX(s)
        | Expr::CoordY(s)
        | Expr::OriginalOwner(s)
        | Expr::BinConst(_, s, _) => the_variable(s),
        Expr::Bin(_, x, y)
        | Expr::And(x, y)
        | Expr::Or(x, y)
        | Expr::Between(x, y)
        | Expr::SiteAt(x, y) => first(&[x, y]),
        Expr::Next { site, dir, steps } => first(&[site, dir, steps]),
        Expr::If(c, x, y) => first(&[c, x, y]),
        Expr::All(items) | Expr::Any(items) => {
            let mut found = None;
            for i in items {
                found = found.or(the_variable(i)?);
            }
            Some(found)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::compile::tables::Tables;
    use std::sync::Arc;

    /// A board of 3 x 2 points with a named direction `down`.
    const GAME: &str = r#"
game "Static values" { }
sides A B
limit 6 turns
board {
  points for x in 0..2, y in 0..1 kind cell
  links (1, 0) (0, 1)
  directions down (0, -1)
}
pieces { disc tokens 6 }
start { first A }
turn { choose put s where top(s) == none { place 1 disc on s for mover } }
"#;

    fn var() -> Box<Expr> {
        Box::new(Expr::Var(0))
    }

    /// The value and the fault of a compiled expression with variable 0 holding `x`.
    fn eval(game: &crate::Game, f: &Num, x: i64) -> (i64, Option<Fault>) {
        let st = game.empty();
        let mut r = Regs {
            vars: vec![x; 2],
            ..Regs::default()
        };
        let v = f(&st.b, &mut r);
        (v, st.b.fault.get())
    }

    /// Each expression, read from its table, gives the values and faults of the expression
    /// as written, for sites and for values that are no site.
    #[test]
    fn a_table_gives_the_values_and_faults_of_the_expression_as_written() {
        let game = crate::load_game(GAME, &crate::Settings::default()).expect("the game loads");
        let t = Arc::new(Tables::new(game.ir()));
        let down = crate::ir::grid::Compass::FIRST;
        let next_down = Expr::Next {
            site: var(),
            dir: Box::new(Expr::Const(down)),
            steps: Box::new(Expr::Const(1)),
        };
        let exprs = [
            // the site below (-1 on the bottom row)
            next_down.clone(),
            // y(s) == 0 or x(next(s, down)) == 1
            Expr::Or(
                Box::new(Expr::BinConst(Op::Eq, Box::new(Expr::CoordY(var())), 0)),
                Box::new(Expr::BinConst(
                    Op::Eq,
                    Box::new(Expr::CoordX(Box::new(next_down))),
                    1,
                )),
            ),
            // 6 / x(s): a division by zero where x is 0
            Expr::Bin(
                Op::Div,
                Box::new(Expr::Const(6)),
                Box::new(Expr::CoordX(var())),
            ),
            // x(s) == 0 or 6 / x(s) == 3: no fault (the `or` stops first)
            Expr::Or(
                Box::new(Expr::BinConst(Op::Eq, Box::new(Expr::CoordX(var())), 0)),
                Box::new(Expr::BinConst(
                    Op::Eq,
                    Box::new(Expr::Bin(
                        Op::Div,
                        Box::new(Expr::Const(6)),
                        Box::new(Expr::CoordX(var())),
                    )),
                    3,
                )),
            ),
        ];
        let mut faults = 0;
        for e in &exprs {
            let mut c = Compiler::new(t.clone());
            let table = c
                .tabulated(e)
                .expect("a static expression is read from a table");
            let written = c.num_as_written(e);
            for x in [-7, -1, 0, 1, 2, 3, 4, 5, 6, 99, i64::MIN, i64::MAX] {
                let (a, b) = (eval(&game, &table, x), eval(&game, &written, x));
                assert_eq!(a, b, "{e:?} with the variable at {x}");
                faults += a.1.is_some() as usize;
            }
        }
        // 6 / x(s) faults at the two sites of x = 0 only (x of a value that is no site is -1)
        assert_eq!(faults, 2, "the division by zero is kept where x is 0");
        let mut c = Compiler::new(t.clone());
        assert!(
            c.tabulated(&Expr::Var(0)).is_none(),
            "a single node is not tabulated"
        );
        let two = Expr::Bin(Op::Add, var(), Box::new(Expr::Var(1)));
        assert!(
            c.tabulated(&two).is_none(),
            "two variables are not tabulated"
        );
        let board = Expr::Top(var());
        assert!(
            c.tabulated(&board).is_none(),
            "what is on the board is not tabulated"
        );
    }
}
