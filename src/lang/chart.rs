//! Evaluating a throw chart for one way the dice land: `count(flat)` is how many dice show
//! that face, `D == round` whether die D shows it; options and arithmetic work as elsewhere.

use crate::ast::{BinOp, ExprKind, UnOp};
use crate::diagnostic::{Diagnostic, ErrorKind, suggest};
use crate::ir::OptValue;
use crate::lang::table::{Global, Table};

/// A value in a chart expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    Num(i64),
    Bool(bool),
    /// the face a die shows, or a face named in the chart
    Face(String),
}

type R = Result<Val, Diagnostic>;

fn type_err(expected: &str, span: crate::ast::Span) -> Diagnostic {
    Diagnostic::new(
        ErrorKind::Type {
            expected: expected.into(),
            found: "something else".into(),
        },
        span,
    )
}

pub(crate) fn eval(
    c: &Table,
    dice: &[(String, Vec<String>)],
    faces: &[u8],
    e: &crate::ast::Expr,
) -> R {
    let num = |v: Val, span| match v {
        Val::Num(n) => Ok(n),
        _ => Err(type_err("a number", span)),
    };
    let boolean = |v: Val, span| match v {
        Val::Bool(b) => Ok(b),
        _ => Err(type_err("a condition", span)),
    };
    let shown = |i: usize| dice[i].1[faces[i] as usize].clone();
    match &e.kind {
        ExprKind::Int(n) => Ok(Val::Num(*n)),
        ExprKind::Bool(b) => Ok(Val::Bool(*b)),
        ExprKind::Name(id) => {
            if let Some(i) = dice.iter().position(|(n, _)| *n == id.name) {
                return Ok(Val::Face(shown(i)));
            }
            if dice.iter().any(|(_, f)| f.contains(&id.name)) {
                return Ok(Val::Face(id.name.clone()));
            }
            if let Some((Global::Option(i), _)) = c.globals.get(&id.name) {
                return Ok(match &c.options[*i].value {
                    OptValue::Int(n) => Val::Num(*n),
                    OptValue::Bool(b) => Val::Bool(*b),
                    OptValue::Word(w) => Val::Face(w.clone()),
                });
            }
            let mut names: Vec<&str> = dice.iter().map(|(n, _)| n.as_str()).collect();
            names.extend(dice.iter().flat_map(|(_, f)| f.iter().map(String::as_str)));
            let mut d = Diagnostic::new(
                ErrorKind::Unknown {
                    what: "die or face",
                    name: id.name.clone(),
                },
                e.span,
            );
            if let Some(s) = suggest(&id.name, names) {
                d = d.with_hint(format!("did you mean `{s}`?"));
            }
            Err(d)
        }
        ExprKind::Call(f, args) if f.name == "count" && args.len() == 1 => {
            match eval(c, dice, faces, &args[0])? {
                Val::Face(face) => Ok(Val::Num(
                    (0..dice.len()).filter(|&i| shown(i) == face).count() as i64,
                )),
                _ => Err(type_err("a face", args[0].span)),
            }
        }
        ExprKind::Call(f, args) if (f.name == "min" || f.name == "max") && args.len() == 2 => {
            let a = num(eval(c, dice, faces, &args[0])?, args[0].span)?;
            let b = num(eval(c, dice, faces, &args[1])?, args[1].span)?;
            Ok(Val::Num(if f.name == "min" { a.min(b) } else { a.max(b) }))
        }
        ExprKind::Unary(UnOp::Not, x) => Ok(Val::Bool(!boolean(eval(c, dice, faces, x)?, x.span)?)),
        ExprKind::Unary(UnOp::Neg, x) => num(eval(c, dice, faces, x)?, x.span)?
            .checked_neg()
            .map(Val::Num)
            .ok_or_else(|| Diagnostic::new(ErrorKind::Overflow, e.span)),
        ExprKind::If(cnd, a, b) => {
            if boolean(eval(c, dice, faces, cnd)?, cnd.span)? {
                eval(c, dice, faces, a)
            } else {
                eval(c, dice, faces, b)
            }
        }
        ExprKind::Binary(op, l, r) => {
            let a = eval(c, dice, faces, l)?;
            let b = eval(c, dice, faces, r)?;
            Ok(match op {
                BinOp::And => Val::Bool(boolean(a, l.span)? && boolean(b, r.span)?),
                BinOp::Or => Val::Bool(boolean(a, l.span)? || boolean(b, r.span)?),
                BinOp::Eq => Val::Bool(a == b),
                BinOp::Ne => Val::Bool(a != b),
                _ => {
                    let (x, y) = (num(a, l.span)?, num(b, r.span)?);
                    let fits = |v: Option<i64>| {
                        v.map(Val::Num)
                            .ok_or_else(|| Diagnostic::new(ErrorKind::Overflow, e.span))
                    };
                    match op {
                        BinOp::Lt => Val::Bool(x < y),
                        BinOp::Le => Val::Bool(x <= y),
                        BinOp::Gt => Val::Bool(x > y),
                        BinOp::Ge => Val::Bool(x >= y),
                        BinOp::Add => fits(x.checked_add(y))?,
                        BinOp::Sub => fits(x.checked_sub(y))?,
                        BinOp::Mul => fits(x.checked_mul(y))?,
                        BinOp::Div | BinOp::Mod if y == 0 => {
                            return Err(Diagnostic::new(ErrorKind::DivisionByZero, e.span));
                        }
                        BinOp::Div => fits(x.checked_div(y))?,
                        BinOp::Mod => fits(x.checked_rem(y))?,
                        _ => return Err(type_err("a number", e.span)),
                    }
                }
            })
        }
        _ => Err(Diagnostic::new(
            ErrorKind::Misplaced {
                what: "this expression",
                place: "outside a chart: a chart uses numbers, `count(FACE)` and `DIE == FACE`",
            },
            e.span,
        )),
    }
}
