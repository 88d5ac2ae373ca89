//! Lowering of expressions and statements: names become indices, options become constants,
//! statements become jumps and instructions. Type errors are reported here. A [`Lowerer`] reads
//! the symbol table and the board ([`Table`], which the checker built) and writes the program,
//! with its own state ([`State`]: variables, scopes, the loops and choices being lowered, the
//! expansion budget). By concern: `scope` (variables, scopes, the expansion budget), `expr`
//! (expressions and their types), `sets` (sets of sites), `calls` (names, built-in functions,
//! inlined `def`s), `stmt` (statements, choices and their notations), `memory` (tallies per
//! site and lines), `none_type` (the type of `none`), `call_site` (type errors moved to the
//! argument of a `def`).

use crate::ast::{self, BinOp, ExprKind, Span, StmtKind, UnOp, ValueItem};
use crate::diagnostic::{Diagnostic, ErrorKind};
use crate::ir::*;
use crate::lang::table::{Global, Program, Report, Table, Ty};
use crate::limits::{MAX_EXPANDED_NESTING, MAX_EXPANSION};
use std::collections::HashMap;

mod assign;
mod call_site;
mod calls;
mod control;
mod expr;
mod memory;
pub(crate) mod none_type;
mod pieces;
mod quantifiers;
mod scope;
mod sets;
pub(crate) mod share;
pub(crate) use scope::TOO_MANY_VARIABLES;
mod stmt;

use call_site::ParamFrame;
use none_type::NullVar;
use share::Body;

/// A local name: a variable slot, or (for `def` parameters) the argument expression itself,
/// with what copying it where it is used costs.
#[derive(Clone, Debug)]
pub(crate) enum Local {
    Var(VarId, Ty),
    Bound(Expr, Ty, Cost),
    BoundSet(SetExpr, Cost),
}

/// Upper bounds of the depth and of the number of parts of a lowered expression: a `def`'s
/// argument is copied at each use of its parameter, and pays this again there
/// (`Lowerer::expand`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cost {
    pub(crate) height: usize,
    pub(crate) size: usize,
}

impl Cost {
    /// A constant.
    pub(crate) const ONE: Cost = Cost { height: 1, size: 1 };
}

/// The lowering's own state: what it has written, where it is, and what it has spent. It
/// outlives a [`Lowerer`]: the checker lowers the constants of the declarations one by one,
/// then the programs, all with one state.
#[derive(Default)]
pub(crate) struct State {
    code: Vec<Instr>,
    choices: Vec<Choice>,
    nvars: usize,
    scopes: Vec<Vec<(String, Local)>>,
    def_stack: Vec<String>,
    lap_stack: Vec<u32>,
    choose_stack: Vec<u32>,
    /// where `again` goes for the `choose` about to be lowered: the first of the tests that
    /// immediately precede it in its block (see `Lowerer::block`)
    again_target: Option<u32>,
    in_start: bool,
    /// lowering the `between rounds` program
    in_between: bool,
    loops: usize,
    /// where each `def` and action being expanded is used (parallel to `def_stack`)
    use_spans: Vec<Span>,
    /// levels of lowering entered, `def`s and actions expanded included
    nesting: usize,
    /// the deepest `nesting` reached (or copied: see `Cost`), for measuring arguments
    high_water: usize,
    /// expression parts and statements lowered so far, copies of arguments included
    work: usize,
    /// a limit of expansion was passed and reported: nothing more is lowered
    halted: bool,
    /// `repeated` is used: the engine keeps the history of positions
    history: bool,
    /// the `def`s and actions being expanded, innermost last: where each parameter's
    /// argument was written (a type error about it is reported there, see `call_site`)
    param_frames: Vec<ParamFrame>,
    /// variables made from `none` (`let x = none`) and the type their uses gave them
    null_vars: HashMap<VarId, NullVar>,
    /// the variable that holds the pieces sown by the lap of each `sow` being lowered (`sown`),
    /// and whether its block reads it
    sown_vars: Vec<(VarId, bool)>,
    /// the variables made by a `let` without a type: their name and the span of their value,
    /// where a use of the wrong type is reported (once: the variable is then poisoned)
    let_values: HashMap<VarId, Span>,
}

/// Lowers expressions and statements: reads the table, writes the program into its state and
/// the errors into the report.
pub(crate) struct Lowerer<'t> {
    t: &'t Table<'t>,
    d: &'t mut Report,
    s: State,
}

impl<'t> Lowerer<'t> {
    pub(crate) fn new(t: &'t Table<'t>, d: &'t mut Report, s: State) -> Self {
        Lowerer { t, d, s }
    }

    /// The state, to lower more later with another lowerer.
    pub(crate) fn into_state(self) -> State {
        self.s
    }

    /// Lowers the start program, the turn program and the `between rounds` program: the
    /// program of the game.
    pub(crate) fn programs(mut self) -> Program {
        let f = self.t.file;
        if let Some((_, body)) = self.d.one_of(&f.starts, |s| s.0, "`start` block", false) {
            self.s.in_start = true;
            self.block(body);
            self.s.in_start = false;
        }
        self.s.code.push(Instr::NewRound);
        let turn_start = self.s.code.len() as u32;
        if let Some((_, body)) = self.d.one_of(&f.turns, |s| s.0, "`turn` block", true) {
            self.block(body);
        }
        self.s.code.push(Instr::EndTurn);
        let between = self
            .d
            .one_of(&f.betweens, |s| s.0, "`between rounds` block", false);
        let between_start = between.map(|(_, body)| {
            let at = self.s.code.len() as u32;
            self.s.in_between = true;
            self.block(body);
            self.s.in_between = false;
            self.s.code.push(Instr::NewRound);
            at
        });
        let s = self.s;
        Program {
            code: s.code,
            choices: s.choices,
            turn_start,
            between_start,
            nvars: s.nvars,
            loops: s.loops,
            history: s.history,
        }
    }

    /// Reports an error (one about a use of a parameter at the argument of the call).
    pub(crate) fn report(&mut self, d: Diagnostic) {
        let d = self.at_call_site(d);
        self.d.diags.push(d);
    }

    pub(crate) fn error(&mut self, kind: ErrorKind, span: Span) {
        self.report(Diagnostic::new(kind, span));
    }

    pub(crate) fn error_hint(&mut self, kind: ErrorKind, span: Span, hint: impl Into<String>) {
        self.report(Diagnostic::new(kind, span).with_hint(hint));
    }

    /// The site at some coordinates, reporting when there is none.
    pub(crate) fn site_at(&mut self, x: i64, y: i64, span: Span) -> Option<SiteId> {
        self.t.site_at(x, y, span).map_err(|d| self.report(d)).ok()
    }

    /// Evaluates an expression that must be a constant number (options and arithmetic only).
    pub(crate) fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        let (x, ty) = self.expr(e);
        match (x, ty) {
            (_, Ty::Error) => None,
            (Expr::Const(n), Ty::Num) => Some(n),
            (_, Ty::Num) => {
                self.error_hint(
                    ErrorKind::Type {
                        expected: "a constant number".into(),
                        found: "a number that depends on the position".into(),
                    },
                    e.span,
                    "only options and arithmetic can be used here",
                );
                None
            }
            (_, t) => {
                self.error(
                    ErrorKind::Type {
                        expected: "a number".into(),
                        found: t.words().into(),
                    },
                    e.span,
                );
                None
            }
        }
    }

    /// Lowers an expression with some names bound to numbers (`x` and `y` of a point).
    pub(crate) fn expr_with_numbers(
        &mut self,
        names: [(&str, i64); 2],
        e: &ast::Expr,
    ) -> (Expr, Ty) {
        self.s.scopes.push(
            names
                .iter()
                .map(|&(n, v)| {
                    (
                        n.to_string(),
                        Local::Bound(Expr::Const(v), Ty::Num, Cost::ONE),
                    )
                })
                .collect(),
        );
        let out = self.expr(e);
        self.s.scopes.pop();
        out
    }

    /// A hint naming the closest known name, for an unknown one. The author's own names (defs,
    /// lets, parameters, regions, sites, options…) come before the language's built-in names
    /// and functions when they are as close or one edit further: `mien` is the author's `mine`
    /// rather than the function `min`.
    pub(crate) fn did_you_mean(&self, name: &str) -> Option<String> {
        if !self.d.may_suggest() {
            return None;
        }
        let mut own: Vec<&str> = vec![];
        let mut builtin: Vec<&str> = crate::lang::builtins::functions().collect();
        for (n, (g, _)) in &self.t.globals {
            match g {
                Global::Builtin => builtin.push(n),
                _ => own.push(n),
            }
        }
        for s in &self.s.scopes {
            own.extend(s.iter().map(|(n, _)| n.as_str()));
        }
        own.sort();
        builtin.sort();
        let best = match (
            crate::diagnostic::suggest_scored(name, own),
            crate::diagnostic::suggest_scored(name, builtin),
        ) {
            (Some((d, o)), Some((b, _))) if d <= b + 1 => o,
            (_, Some((_, b))) => b,
            (Some((_, o)), None) => o,
            (None, None) => return None,
        };
        Some(format!("did you mean `{best}`?"))
    }
}

/// The stack lowering leaves for what comes after it (see `Lowerer::enter`).
const STACK_RESERVE: usize = 256 << 10;

fn all_kinds() -> KindMask {
    KindMask(u32::MAX)
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Folds constant arithmetic: the error when it has no value (a division by zero, or a result
/// that does not fit in 64 bits).
fn fold(op: Op, x: i64, y: i64) -> Result<i64, ErrorKind> {
    if matches!(op, Op::Div | Op::Mod) && y == 0 {
        return Err(ErrorKind::DivisionByZero);
    }
    crate::ir::apply(op, x, y).ok_or(ErrorKind::Overflow)
}

/// A statement that only tests (for `again`, see [`Lowerer::block`]): a `let`, or an `if` without
/// `else` whose block makes no decision and ends with `end turn`, `end round` or `end game`.
fn is_test(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Let(..) | StmtKind::LetTyped { .. } => true,
        StmtKind::If {
            then,
            otherwise: None,
            ..
        } => {
            matches!(
                then.last().map(|s| &s.kind),
                Some(StmtKind::EndTurn | StmtKind::EndRound | StmtKind::EndGame(..))
            ) && then.iter().all(|s| !decides(s))
        }
        _ => false,
    }
}

/// Whether a statement can stop for a decision or a chance event.
fn decides(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Choose(..) | StmtKind::Throw { .. } | StmtKind::Sow { .. } => true,
        StmtKind::Do { .. } => true,
        StmtKind::If {
            then, otherwise, ..
        } => then.iter().any(decides) || otherwise.iter().flatten().any(decides),
        StmtKind::While { body, .. }
        | StmtKind::ForTokens { body, .. }
        | StmtKind::ForSites { body, .. } => body.iter().any(decides),
        _ => false,
    }
}
