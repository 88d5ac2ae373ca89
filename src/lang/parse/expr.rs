//! Expressions: operators by precedence (a Pratt parser), calls and primaries.

use super::*;

pub(super) fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
    })
}

pub(super) fn join(a: Span, b: Span) -> Span {
    Span {
        start: a.start.min(b.start),
        end: a.end.max(b.end),
    }
}

pub(super) fn expr(p: Pair<Rule>) -> Expr {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let span = join(span_of(&op), rhs.span);
            let o = if op.as_rule() == Rule::op_not {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Expr {
                kind: ExprKind::Unary(o, Box::new(rhs)),
                span,
            }
        })
        .map_infix(|lhs, op, rhs| {
            let o = match op.as_rule() {
                Rule::op_or => BinOp::Or,
                Rule::op_and => BinOp::And,
                Rule::op_eq => BinOp::Eq,
                Rule::op_ne => BinOp::Ne,
                Rule::op_lt => BinOp::Lt,
                Rule::op_le => BinOp::Le,
                Rule::op_gt => BinOp::Gt,
                Rule::op_ge => BinOp::Ge,
                Rule::op_in => BinOp::In,
                Rule::op_add => BinOp::Add,
                Rule::op_sub => BinOp::Sub,
                Rule::op_mul => BinOp::Mul,
                Rule::op_div => BinOp::Div,
                _ => BinOp::Mod,
            };
            let span = join(lhs.span, rhs.span);
            Expr {
                kind: ExprKind::Binary(o, Box::new(lhs), Box::new(rhs)),
                span,
            }
        })
        .parse(inner(p))
}

/// The inner pairs of a construct that may start with `token`, and whether it does.
pub(super) fn token_flag(p: Pair<Rule>) -> (bool, impl Iterator<Item = Pair<Rule>>) {
    let parts: Vec<Pair<Rule>> = inner(p).collect();
    let tok = parts.first().is_some_and(|x| x.as_rule() == Rule::token_kw);
    (
        tok,
        parts.into_iter().filter(|x| x.as_rule() != Rule::token_kw),
    )
}

pub(super) fn call(p: Pair<Rule>) -> Expr {
    let span = span_of(&p);
    let mut it = inner(p);
    let name = ident(it.next().expect("call name"));
    Expr {
        kind: ExprKind::Call(name, it.map(expr).collect()),
        span,
    }
}

pub(super) fn primary(p: Pair<Rule>) -> Expr {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::expr => return expr(p),
        Rule::int => ExprKind::Int(int_value(&p)),
        Rule::bool_lit => ExprKind::Bool(p.as_str() == "true"),
        Rule::ident => ExprKind::Name(ident(p)),
        Rule::call => return call(p),
        Rule::site_range => {
            let mut it = inner(p);
            let prefix = ident(it.next().expect("range prefix"));
            let a = expr(it.next().expect("range from"));
            let b = expr(it.next().expect("range to"));
            ExprKind::Range(prefix, Box::new(a), Box::new(b))
        }
        Rule::list_expr => ExprKind::List(inner(p).map(expr).collect()),
        Rule::if_expr => {
            let mut it = inner(p).map(expr);
            let c = it.next().expect("if cond");
            let a = it.next().expect("if then");
            let b = it.next().expect("if else");
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::exists_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("exists var"));
            let next = it.next().expect("exists cond");
            if next.as_rule() == Rule::exists_set {
                let set = primary(inner(next).next().expect("exists set"));
                let cond = expr(it.next().expect("exists cond"));
                ExprKind::ExistsIn(v, Box::new(set), Box::new(cond))
            } else {
                ExprKind::Exists(v, Box::new(expr(next)), tok)
            }
        }
        Rule::agg_expr => {
            let mut it = inner(p);
            let kind = match it.next().expect("agg kind").as_str() {
                "minimum" => AggKind::Min,
                "maximum" => AggKind::Max,
                _ => AggKind::Sum,
            };
            let rest: Vec<Pair<Rule>> = it.collect();
            let token = rest.first().is_some_and(|x| x.as_rule() == Rule::token_kw);
            let mut it = rest.into_iter().filter(|x| x.as_rule() != Rule::token_kw);
            let var = ident(it.next().expect("agg var"));
            let cond = Box::new(expr(it.next().expect("agg cond")));
            let value = Box::new(expr(it.next().expect("agg value")));
            ExprKind::Agg {
                kind,
                token,
                var,
                cond,
                value,
            }
        }
        Rule::forall_expr => {
            let mut it = inner(p);
            let v = ident(it.next().expect("forall var"));
            let set = expr(it.next().expect("forall set"));
            let c = expr(it.next().expect("forall cond"));
            ExprKind::Forall(v, Box::new(set), Box::new(c))
        }
        Rule::group => {
            let mut it = inner(p).map(expr);
            let x = it.next().expect("group: expr");
            match it.next() {
                Some(y) => ExprKind::Coord(Box::new(x), Box::new(y)),
                None => return x,
            }
        }
        Rule::some_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("some var"));
            let x = it.next().expect("some cond");
            if x.as_rule() == Rule::some_along {
                let mut along = inner(x).map(expr);
                let from = along.next().expect("some from");
                let dir = along.next().expect("some toward");
                let cond = expr(it.next().expect("some cond"));
                ExprKind::SomeAlong {
                    var: v,
                    token: tok,
                    from: Box::new(from),
                    dir: Box::new(dir),
                    cond: Box::new(cond),
                }
            } else {
                ExprKind::Some(v, Box::new(expr(x)), tok)
            }
        }
        Rule::filter_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("filter var"));
            ExprKind::Filter(v, Box::new(expr(it.next().expect("filter cond"))), tok)
        }
        Rule::line_expr | Rule::line_set => return crate::parse::lines::line_expr(p),
        r => unreachable!("unexpected primary {r:?}"),
    };
    Expr { kind, span }
}
