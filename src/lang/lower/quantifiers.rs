//! The reach of a quantifier's condition, warned about where a reader may misread it: the
//! condition after `where` (or `:`) extends as far right as it can, so in
//! `not exists q where A and not exists r where B` the second quantifier is part of the
//! first's condition, not a sibling of it. A quantifier written, unbracketed, as the right
//! operand of `and` / `or` inside another quantifier's condition, and that does not name the
//! outer variable (if it does, it can only be inside), gets the `scope` warning once per place.

use super::*;

impl<'a> Lowerer<'a> {
    /// Looks at the condition (or value) `body` of the quantifier `outer` over `var`.
    pub(super) fn quantifier_scope(
        &mut self,
        outer: &ast::Expr,
        var: &ast::Ident,
        body: &ast::Expr,
    ) {
        let mut node = body;
        let mut op = None;
        loop {
            if self.bracketed(node) {
                return;
            }
            match &node.kind {
                ExprKind::Binary(o @ (BinOp::And | BinOp::Or), _, r) => {
                    op = Some(if *o == BinOp::And { "and" } else { "or" });
                    node = r;
                }
                ExprKind::Unary(UnOp::Not, x) => node = x,
                _ => break,
            }
        }
        let (Some(op), Some((inner, sep)), Some((outer_head, outer_sep))) =
            (op, head(node), head(outer))
        else {
            return;
        };
        if mentions(node, &var.name) {
            return;
        }
        if self
            .d
            .warnings
            .iter()
            .any(|w| w.span == node.span && w.code() == "scope")
        {
            return;
        }
        let d = Diagnostic::new(
            ErrorKind::Scope {
                inner: inner.as_str().into(),
                op,
                outer: outer_head.as_str().into(),
            },
            node.span,
        )
        .with_hint(format!(
            "write brackets: `({inner} {sep} …)` keeps it inside; `({outer_head} {outer_sep} …) {op} …` ends the first before it"
        ))
        .with_note(
            outer.span,
            format!("the condition of `{outer_head}` extends as far right as it can"),
        )
        .warning();
        self.d.warnings.push(d);
    }

    /// Whether the expression is written in brackets of its own: `(` just before it and `)`
    /// just after it (a group keeps the span of what it holds).
    fn bracketed(&self, e: &ast::Expr) -> bool {
        let src = self.t.source.as_bytes();
        let before = src
            .get(..e.span.start)
            .and_then(|s| s.iter().rev().find(|b| !b.is_ascii_whitespace()));
        let after = src
            .get(e.span.end..)
            .and_then(|s| s.iter().find(|b| !b.is_ascii_whitespace()));
        before == Some(&b'(') && after == Some(&b')')
    }
}

/// A quantifier's first words and the word before its condition: (`exists r`, `where`).
fn head(e: &ast::Expr) -> Option<(String, &'static str)> {
    let tok = |t: bool| if t { "token " } else { "" };
    Some(match &e.kind {
        ExprKind::Exists(v, _, t) => (format!("exists {}{}", tok(*t), v.name), "where"),
        ExprKind::ExistsIn(v, _, _) => (format!("exists {} in …", v.name), "where"),
        ExprKind::Some(v, _, t) => (format!("some {}{}", tok(*t), v.name), "where"),
        ExprKind::SomeAlong { var, .. } => (format!("some {} from …", var.name), "where"),
        ExprKind::Agg {
            kind, token, var, ..
        } => {
            let k = match kind {
                ast::AggKind::Min => "minimum",
                ast::AggKind::Max => "maximum",
                ast::AggKind::Sum => "total",
            };
            (format!("{k} {}{} where …", tok(*token), var.name), ":")
        }
        ExprKind::Forall(v, _, _) => (format!("forall {} in …", v.name), ":"),
        ExprKind::Line(v, _, _, false) => (format!("line {} through …", v.name), ":"),
        _ => return None,
    })
}

/// Whether `name` appears in `e` (as a name, or a function's: conservative).
fn mentions(e: &ast::Expr, name: &str) -> bool {
    let m = |x: &ast::Expr| mentions(x, name);
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) => false,
        ExprKind::Name(id) => id.name == name,
        ExprKind::Call(f, args) => f.name == name || args.iter().any(m),
        ExprKind::Range(_, a, b) | ExprKind::Coord(a, b) | ExprKind::Binary(_, a, b) => {
            m(a) || m(b)
        }
        ExprKind::Some(_, c, _)
        | ExprKind::Exists(_, c, _)
        | ExprKind::Filter(_, c, _)
        | ExprKind::Unary(_, c) => m(c),
        ExprKind::List(xs) => xs.iter().any(m),
        ExprKind::If(a, b, c) => m(a) || m(b) || m(c),
        ExprKind::ExistsIn(_, a, b) | ExprKind::Forall(_, a, b) | ExprKind::Line(_, a, b, _) => {
            m(a) || m(b)
        }
        ExprKind::Agg { cond, value, .. } => m(cond) || m(value),
        ExprKind::SomeAlong {
            from, dir, cond, ..
        } => m(from) || m(dir) || m(cond),
    }
}
