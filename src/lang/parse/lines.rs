//! The syntax of lines (`line a1 d1 g1`, `lines 3`, `line x through s: …`).

use super::{Rule, expr, ident, inner, site_items, span_of};
use crate::ast::*;
use pest::iterators::Pair;

/// `line a1 d1 g1, a4 b4 c4` or `lines 3`.
pub(super) fn line_decl(p: Pair<Rule>) -> LineDecl {
    let span = span_of(&p);
    match p.as_rule() {
        Rule::lines_decl => LineDecl::Along(
            expr(
                inner(p)
                    .find(|x| x.as_rule() == Rule::expr)
                    .expect("lines: count"),
            ),
            span,
        ),
        _ => LineDecl::Sites(
            inner(p)
                .filter(|x| x.as_rule() == Rule::site_list)
                .map(site_items)
                .collect(),
            span,
        ),
    }
}

/// `line x through s: c`, or `(line x through s: c)` for the set of sites.
pub(super) fn line_expr(p: Pair<Rule>) -> Expr {
    let span = span_of(&p);
    let set = p.as_rule() == Rule::line_set;
    let p = if set {
        inner(p).next().expect("line set: its line")
    } else {
        p
    };
    let mut it = inner(p).filter(|x| !matches!(x.as_rule(), Rule::kw_line | Rule::through_kw));
    let var = ident(it.next().expect("line: variable"));
    let through = expr(it.next().expect("line: site"));
    let cond = expr(it.next().expect("line: condition"));
    Expr {
        kind: ExprKind::Line(var, Box::new(through), Box::new(cond), set),
        span,
    }
}
