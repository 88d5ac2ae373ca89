//! Lowering of what the rules remember and look at beyond one site: tallies `per site`
//! (`marked(h)`, `set marked(h) = 1`) and the lines of the board (`line x through s: …`).

use super::Lowerer;
use crate::ast::{self, Span};
use crate::diagnostic::ErrorKind;
use crate::ir::*;
use crate::lang::table::Ty;

impl Lowerer<'_> {
    /// A `per site` tally named without a site.
    pub(super) fn site_tally_alone(&mut self, name: &str, span: Span) -> (Expr, Ty) {
        self.error_hint(
            ErrorKind::Type {
                expected: "a single value".into(),
                found: "a number for each site".into(),
            },
            span,
            format!("a `per site` tally is read at a site: `{name}(h)`"),
        );
        (Expr::Const(0), Ty::Error)
    }

    /// `marked(h)`: a `per site` tally at a site.
    pub(super) fn site_tally_call(
        &mut self,
        t: &TallyInfo,
        args: &[ast::Expr],
        span: Span,
    ) -> (Expr, Ty) {
        if args.len() != 1 {
            self.error_hint(
                ErrorKind::Arity {
                    name: t.name.clone(),
                    expected: 1,
                    found: args.len(),
                },
                span,
                format!("a `per site` tally is read at a site: `{}(h)`", t.name),
            );
            return (Expr::Const(0), Ty::Error);
        }
        let s = self.expect(&args[0], Ty::Site);
        (Expr::TallyAt(t.slot, Box::new(s)), Ty::Num)
    }

    /// `set marked = …` of a `per site` tally.
    pub(super) fn site_tally_set_alone(&mut self, t: &TallyInfo, span: Span) {
        self.error_hint(
            ErrorKind::BadTarget,
            span,
            format!(
                "a `per site` tally is set at a site: `set {}(h) = …`",
                t.name
            ),
        );
    }

    /// `set marked(h) = n`.
    pub(super) fn set_site_tally(
        &mut self,
        f: &ast::Ident,
        args: &[ast::Expr],
        value: &ast::Expr,
        span: Span,
    ) {
        let Some(t) = self.tally(&f.name) else { return };
        let x = self.expect(value, Ty::Num);
        if args.len() != 1 {
            self.error_hint(
                ErrorKind::Arity {
                    name: t.name.clone(),
                    expected: 1,
                    found: args.len(),
                },
                span,
                format!(
                    "a `per site` tally is set at a site: `set {}(h) = …`",
                    t.name
                ),
            );
            return;
        }
        let site = self.expect(&args[0], Ty::Site);
        self.emit(Instr::SetTallyAt {
            slot: t.slot,
            site,
            value: x,
        });
    }

    /// The board has lines, or the use of one is reported.
    fn need_lines(&mut self, span: Span) {
        if self.t.board_lines.is_empty() {
            self.error_hint(
                ErrorKind::Missing {
                    what: "line in the board (`line … through` needs them)",
                },
                span,
                "declare the lines in the board: `line a1 b1 c1`, or `lines 3` along the links",
            );
        }
    }

    /// The site and the condition of `line v through s: c`.
    fn line_parts(
        &mut self,
        v: &ast::Ident,
        site: &ast::Expr,
        cond: &ast::Expr,
        span: Span,
    ) -> (VarId, Expr, Expr) {
        self.need_lines(span);
        let s = self.expect(site, Ty::Site);
        self.s.scopes.push(vec![]);
        let id = self.new_var(&v.name, Ty::Site);
        let c = self.expect(cond, Ty::Bool);
        self.s.scopes.pop();
        (id, s, c)
    }

    /// `line v through s: c`: a condition.
    pub(super) fn in_line(
        &mut self,
        v: &ast::Ident,
        site: &ast::Expr,
        cond: &ast::Expr,
        span: Span,
    ) -> (Expr, Ty) {
        let (var, through, cond) = self.line_parts(v, site, cond, span);
        let line = LineQuery { var, through, cond };
        (Expr::InLine(Box::new(line)), Ty::Bool)
    }

    /// `(line v through s: c)`: the sites of those lines.
    pub(super) fn line_set(
        &mut self,
        v: &ast::Ident,
        site: &ast::Expr,
        cond: &ast::Expr,
        span: Span,
    ) -> SetExpr {
        let (var, through, cond) = self.line_parts(v, site, cond, span);
        SetExpr::Line(Box::new(LineQuery { var, through, cond }))
    }
}
