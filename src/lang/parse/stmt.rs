//! Statements, blocks, choices and their alternatives.

use super::*;

pub(super) fn set_items(p: Pair<Rule>) -> Vec<Expr> {
    inner(p).map(expr).collect()
}

pub(super) fn stmts<'i>(pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<Stmt> {
    pairs.map(stmt).collect()
}

pub(super) fn block(p: Pair<Rule>) -> Vec<Stmt> {
    stmts(inner(p))
}

/// `game`, `game draw`, `game winner P` after `end`.
pub(super) fn end_game_rule(e: Pair<Rule>) -> EndGame {
    match inner(e).next() {
        None => EndGame::Score,
        Some(x) if x.as_rule() == Rule::draw_kw => EndGame::Draw,
        Some(x) => EndGame::Winner(expr(x)),
    }
}

/// One statement: the dispatch on its rule, each form read by a function of its own.
pub(super) fn stmt(p: Pair<Rule>) -> Stmt {
    let span = span_of(&p);
    let rule = p.as_rule();
    let it = inner(p);
    let kind = match rule {
        Rule::if_stmt => if_stmt(it),
        Rule::while_stmt => while_stmt(it),
        Rule::choose_stmt => choose_stmt(it),
        Rule::sow_stmt => sow_stmt(it),
        Rule::let_stmt => let_stmt(it),
        Rule::another_stmt => StmtKind::AnotherTurn,
        Rule::set_stmt => set_stmt(it),
        Rule::capture_stmt => capture_stmt(it),
        Rule::place_stmt => place_stmt(it),
        Rule::throw_stmt => throw_stmt(it),
        Rule::move_stmt => move_stmt(it),
        Rule::send_stmt => send_stmt(it),
        Rule::for_stmt => for_stmt(it),
        Rule::do_stmt => do_stmt(it),
        Rule::relay_stmt => relay_stmt(it),
        Rule::end_stmt => end_stmt(it),
        Rule::again_stmt => StmtKind::Again,
        Rule::first_stmt => first_stmt(it),
        Rule::give_stmt => give_stmt(it),
        Rule::forget_stmt => StmtKind::ForgetPositions,
        r => unreachable!("unexpected statement {r:?}"),
    };
    Stmt { kind, span }
}

/// `if COND { … } else if … { … } else { … }`
fn if_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let cond = expr(it.next().expect("if cond"));
    let then = block(it.next().expect("if block"));
    let otherwise = it.next().map(|e| match e.as_rule() {
        Rule::if_stmt => vec![stmt(e)],
        _ => block(e),
    });
    StmtKind::If {
        cond,
        then,
        otherwise,
    }
}

/// `while COND { … }`
fn while_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let cond = expr(it.next().expect("while cond"));
    let body = block(it.next().expect("while block"));
    StmtKind::While { cond, body }
}

/// `choose { ALTERNATIVE … } else { … }`
fn choose_stmt<'i>(it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let mut alts = vec![];
    let mut otherwise = None;
    for x in it {
        if x.as_rule() == Rule::choose_else {
            otherwise = inner(x).next().map(block);
        } else {
            alts.push(alternative(x));
        }
    }
    StmtKind::Choose(alts, otherwise)
}

/// `sow FROM toward DIR, OPTION…, lap ends at VAR { … }`
fn sow_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let from = expr(it.next().expect("sow from"));
    let dir = expr(it.next().expect("sow dir"));
    let mut orders = false;
    let mut skip = None;
    let mut last = None;
    let mut body = vec![];
    for part in it {
        match part.as_rule() {
            Rule::sow_opt => {
                let o = inner(part).next().expect("sow option");
                if o.as_rule() == Rule::sow_orders {
                    orders = true;
                } else {
                    skip = inner(o).next().map(expr);
                }
            }
            Rule::ident => last = Some(ident(part)),
            Rule::block => body = block(part),
            _ => {}
        }
    }
    StmtKind::Sow {
        from,
        dir,
        orders,
        skip,
        last: last.expect("sow: lap variable"),
        body,
    }
}

/// `let NAME = VALUE`, `let NAME: TYPE = VALUE`
fn let_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let name = ident(it.next().expect("let name"));
    let x = it.next().expect("let value");
    if x.as_rule() == Rule::let_type {
        let w = inner(x).next().expect("let type");
        let ty = Ident {
            name: w.as_str().to_string(),
            span: span_of(&w),
        };
        let value = expr(it.next().expect("let value"));
        StmtKind::LetTyped { name, ty, value }
    } else {
        StmtKind::Let(name, expr(x))
    }
}

/// `set NAME = VALUE`, `set TALLY(ARGS) = VALUE`
fn set_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let t = it.next().expect("set target");
    let target = match t.as_rule() {
        Rule::ident => {
            let id = ident(t);
            Expr {
                span: id.span,
                kind: ExprKind::Name(id),
            }
        }
        _ => call(t),
    };
    StmtKind::Set {
        target,
        value: expr(it.next().expect("set value")),
    }
}

/// `capture SITES keep N to AREA`
fn capture_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let items = set_items(it.next().expect("capture items"));
    let mut keep = None;
    let mut to = None;
    for e in it {
        let is_keep = e.as_rule() == Rule::capture_keep;
        let value = inner(e).next().map(expr);
        if is_keep {
            keep = value;
        } else {
            to = value;
        }
    }
    StmtKind::Capture { items, keep, to }
}

/// `place N PIECE on SITES from … for PLAYER`, `place N PIECE in AREA …`
fn place_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let count = expr(it.next().expect("place count"));
    let piece = ident(it.next().expect("place piece"));
    let t = it.next().expect("place target");
    let target = if t.as_rule() == Rule::place_on {
        PlaceTarget::Sites(set_items(inner(t).next().expect("place on")))
    } else {
        PlaceTarget::Area(ident(inner(t).next().expect("place in")))
    };
    let (mut from, mut owner) = (None, None);
    for x in it {
        let is_from = x.as_rule() == Rule::place_from;
        let e = inner(x).next().map(expr);
        if is_from {
            from = e;
        } else {
            owner = e;
        }
    }
    StmtKind::Place {
        count,
        piece,
        target,
        from,
        owner,
    }
}

/// `throw DICE as VAR`
fn throw_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let dice = ident(it.next().expect("throw dice"));
    StmtKind::Throw {
        dice,
        var: ident(it.next().expect("throw var")),
    }
}

/// `move TOKEN to POSITION`, `move TOKEN onto SITE`, `carry …`
fn move_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let carry = it.next().expect("move or carry").as_str() == "carry";
    let token = expr(it.next().expect("move token"));
    let t = it.next().expect("move target");
    let is_to = t.as_rule() == Rule::move_to;
    let e = expr(inner(t).next().expect("move target expr"));
    StmtKind::Move {
        token,
        target: if is_to {
            MoveTarget::Position(e)
        } else {
            MoveTarget::Site(e)
        },
        carry,
    }
}

/// `send TOKEN to AREA`
fn send_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let token = expr(it.next().expect("send token"));
    StmtKind::Send {
        token,
        area: ident(it.next().expect("send area")),
    }
}

/// `for VAR in SET { … }`, `for token VAR where COND { … }`
fn for_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let head = it.next().expect("for head");
    let body = block(it.next().expect("for body"));
    let is_tokens = head.as_rule() == Rule::for_tokens;
    let mut h = inner(head).filter(|x| x.as_rule() != Rule::token_kw);
    let var = ident(h.next().expect("for var"));
    let e = expr(h.next().expect("for cond"));
    if is_tokens {
        StmtKind::ForTokens { var, cond: e, body }
    } else {
        StmtKind::ForSites { var, set: e, body }
    }
}

/// `do ACTION(ARGS)`
fn do_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let name = ident(it.next().expect("do name"));
    StmtKind::Do {
        name,
        args: it.map(expr).collect(),
    }
}

/// `relay SITE`
fn relay_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    StmtKind::Relay(expr(it.next().expect("relay site")))
}

/// `end turn`, `end round`, `end game …` with an optional reason
fn end_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let e = it.next().expect("end what");
    match e.as_rule() {
        Rule::end_turn => StmtKind::EndTurn,
        Rule::end_round => StmtKind::EndRound,
        _ => StmtKind::EndGame(
            end_game_rule(e),
            it.next().and_then(|r| inner(r).next()).map(string_value),
        ),
    }
}

/// `first PLAYER`, `first random`
fn first_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let x = it.next().expect("first what");
    StmtKind::First(if x.as_rule() == Rule::random_kw {
        None
    } else {
        Some(expr(x))
    })
}

/// `give N PIECE from PLAYER to PLAYER`
fn give_stmt<'i>(mut it: impl Iterator<Item = Pair<'i, Rule>>) -> StmtKind {
    let count = expr(it.next().expect("give count"));
    let piece = ident(it.next().expect("give piece"));
    let from = expr(it.next().expect("give from"));
    let to = expr(it.next().expect("give to"));
    StmtKind::Give {
        count,
        piece,
        from,
        to,
    }
}

pub(super) fn alternative(p: Pair<Rule>) -> Alternative {
    let span = span_of(&p);
    let mut a = Alternative {
        label: None,
        var: None,
        token_var: false,
        set: None,
        to: None,
        values: None,
        cond: None,
        body: None,
        span,
        leaving: None,
    };
    for part in inner(p) {
        match part.as_rule() {
            Rule::alt_var_only => {
                let mut it = inner(part);
                a.var = Some(ident(it.next().expect("alt var")));
                match it.next() {
                    Some(x) if x.as_rule() == Rule::alt_set => a.set = inner(x).next().map(primary),
                    Some(x) => a.values = Some(values(x)),
                    None => {}
                }
            }
            Rule::alt_label_var => {
                let mut it = inner(part).peekable();
                a.label = Some(ident(it.next().expect("alt label")));
                if it.peek().is_some_and(|x| x.as_rule() == Rule::token_kw) {
                    it.next();
                    a.token_var = true;
                }
                a.var = Some(ident(it.next().expect("alt var")));
                match it.next() {
                    Some(x) if x.as_rule() == Rule::alt_set => a.set = inner(x).next().map(primary),
                    Some(x) if x.as_rule() == Rule::alt_to => {
                        let mut t = inner(x);
                        let v = ident(t.next().expect("to var"));
                        let set = t
                            .next()
                            .and_then(|s| inner(s).next())
                            .map(primary)
                            .expect("to set");
                        a.to = Some((v, set));
                    }
                    Some(x) => a.values = Some(values(x)),
                    None => {}
                }
            }
            Rule::alt_label => a.label = Some(ident(inner(part).next().expect("label"))),
            Rule::expr => a.cond = Some(expr(part)),
            Rule::block => a.body = Some(block(part)),
            Rule::alt_leaving => a.leaving = inner(part).next().map(expr),
            r => unreachable!("unexpected alternative part {r:?}"),
        }
    }
    a
}

pub(super) fn values(p: Pair<Rule>) -> Vec<ValueItem> {
    inner(p)
        .map(|v| {
            let span = span_of(&v);
            match v.as_rule() {
                Rule::int_range => {
                    let b: Vec<i64> = inner(v).map(|x| int_value(&x)).collect();
                    ValueItem::Range(b[0], b[1], span)
                }
                Rule::int => ValueItem::Int(int_value(&v), span),
                _ => ValueItem::Name(ident(v)),
            }
        })
        .collect()
}
