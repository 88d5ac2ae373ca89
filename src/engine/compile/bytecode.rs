//! The other way to run an expression: a small stack bytecode, one instruction per node of a
//! tree of plain operations (arithmetic, comparisons, the site and token functions), run by a
//! loop in one closure; what it does not know (questions about every site, sets) is an escape
//! to a compiled closure. It exists to be measured against the closures of [`super::expr`]
//! (`LUDIC_BYTECODE=1` compiles the expressions it can take this way).

use super::expr::{arith, compare, fail, next1};
use super::{Compiler, Num, Tables, num};
use crate::engine::state::{Board, Fault, Regs};
use crate::ir::*;
use std::sync::Arc;

/// Deepest stack a compiled expression may use.
const DEPTH: usize = 16;

/// One instruction: pushes a value, or replaces the top value(s) by a result.
enum Ins {
    Push(i64),
    Var(VarId),
    Mover,
    Opponent,
    /// a compiled closure's value (an escape for what the bytecode does not know)
    Call(Num),
    Not,
    Neg,
    Total,
    Owner,
    KindOf,
    InRegion(usize),
    NextSow,
    Opposite,
    Top,
    TopOwner,
    TokOwner,
    TokSite,
    TokPos,
    TrackEnd,
    SideOf,
    Bin(Op),
    TrackSite,
    TrackPos,
    Between,
    /// `and`/`or`: when the top is zero (`and`) or not (`or`), leave it as 0 or 1 and jump
    Short {
        and: bool,
        to: u32,
    },
    /// the top as a boolean (0 or 1)
    Bool,
}

impl Compiler {
    /// An expression as bytecode, when it is a tree of at least `min` plain operations.
    pub(crate) fn bytecode(&mut self, e: &Expr, min: usize) -> Option<Num> {
        if nodes(e) < min {
            return None;
        }
        let mut code = vec![];
        let depth = self.emit(e, &mut code)?;
        if depth > DEPTH {
            return None;
        }
        let t = self.t.clone();
        Some(num(move |b, r| run(&t, &code, b, r)))
    }

    /// Emits the code of `e`; returns the stack depth it needs.
    fn emit(&mut self, e: &Expr, code: &mut Vec<Ins>) -> Option<usize> {
        let unary = |c: &mut Self, x: &Expr, ins: Ins, code: &mut Vec<Ins>| {
            let d = c.emit(x, code)?;
            code.push(ins);
            Some(d)
        };
        let binary = |c: &mut Self, x: &Expr, y: &Expr, ins: Ins, code: &mut Vec<Ins>| {
            let d1 = c.emit(x, code)?;
            let d2 = c.emit(y, code)?;
            code.push(ins);
            Some(d1.max(d2 + 1))
        };
        match e {
            Expr::Const(c) => {
                code.push(Ins::Push(*c));
                Some(1)
            }
            Expr::Var(v) => {
                code.push(Ins::Var(*v));
                Some(1)
            }
            Expr::Mover => {
                code.push(Ins::Mover);
                Some(1)
            }
            Expr::Opponent => {
                code.push(Ins::Opponent);
                Some(1)
            }
            Expr::Not(x) => unary(self, x, Ins::Not, code),
            Expr::Neg(x) => unary(self, x, Ins::Neg, code),
            Expr::CountAt(x) => unary(self, x, Ins::Total, code),
            Expr::CountVar(v) => unary(self, &Expr::Var(*v), Ins::Total, code),
            Expr::Owner(x) => unary(self, x, Ins::Owner, code),
            Expr::KindOf(x) => unary(self, x, Ins::KindOf, code),
            Expr::InRegion(x, reg) => unary(self, x, Ins::InRegion(reg.0 as usize), code),
            Expr::NextSow(x) => unary(self, x, Ins::NextSow, code),
            Expr::NextSowVar(v) => unary(self, &Expr::Var(*v), Ins::NextSow, code),
            Expr::Opposite(x) => unary(self, x, Ins::Opposite, code),
            Expr::Top(x) => unary(self, x, Ins::Top, code),
            Expr::TokOwner(x) if matches!(&**x, Expr::Top(_)) => {
                let Expr::Top(s) = &**x else { return None };
                unary(self, s, Ins::TopOwner, code)
            }
            Expr::TokOwner(x) => unary(self, x, Ins::TokOwner, code),
            Expr::TokSite(x) => unary(self, x, Ins::TokSite, code),
            Expr::TokPos(x) => unary(self, x, Ins::TokPos, code),
            Expr::TrackEnd(x) => unary(self, x, Ins::TrackEnd, code),
            Expr::SideOf(x) => unary(self, x, Ins::SideOf, code),
            Expr::Bin(op, x, y) => binary(self, x, y, Ins::Bin(*op), code),
            Expr::BinConst(op, x, c) => binary(self, x, &Expr::Const(*c), Ins::Bin(*op), code),
            Expr::TrackSite(p, n) => binary(self, p, n, Ins::TrackSite, code),
            Expr::TrackPos(p, s) => binary(self, p, s, Ins::TrackPos, code),
            Expr::Between(a, c) => binary(self, a, c, Ins::Between, code),
            Expr::And(x, y) => self.short(&[&**x, &**y], true, code),
            Expr::Or(x, y) => self.short(&[&**x, &**y], false, code),
            Expr::All(items) => self.short(&items.iter().collect::<Vec<_>>(), true, code),
            Expr::Any(items) => self.short(&items.iter().collect::<Vec<_>>(), false, code),
            other => {
                code.push(Ins::Call(self.num(other)));
                Some(1)
            }
        }
    }

    /// `a and b and …` (or `or`): each operand tested in turn, the first that decides jumps to
    /// the end with its 0 (or 1).
    fn short(&mut self, items: &[&Expr], and: bool, code: &mut Vec<Ins>) -> Option<usize> {
        let mut depth = 1;
        let mut jumps = vec![];
        for (i, x) in items.iter().enumerate() {
            depth = depth.max(self.emit(x, code)?);
            code.push(Ins::Bool);
            if i + 1 < items.len() {
                jumps.push(code.len());
                code.push(Ins::Short { and, to: 0 });
            }
        }
        let end = code.len() as u32;
        for j in jumps {
            code[j] = Ins::Short { and, to: end };
        }
        Some(depth)
    }
}

/// The number of plain operations in a tree (what the bytecode would save calls on).
fn nodes(e: &Expr) -> usize {
    match e {
        Expr::Const(_) | Expr::Var(_) | Expr::Mover | Expr::Opponent => 1,
        Expr::Not(x)
        | Expr::Neg(x)
        | Expr::CountAt(x)
        | Expr::Owner(x)
        | Expr::KindOf(x)
        | Expr::InRegion(x, _)
        | Expr::NextSow(x)
        | Expr::Opposite(x)
        | Expr::Top(x)
        | Expr::TokOwner(x)
        | Expr::TokSite(x)
        | Expr::TokPos(x)
        | Expr::TrackEnd(x)
        | Expr::SideOf(x)
        | Expr::BinConst(_, x, _) => 1 + nodes(x),
        Expr::CountVar(_) | Expr::NextSowVar(_) => 2,
        Expr::Bin(_, x, y)
        | Expr::TrackSite(x, y)
        | Expr::TrackPos(x, y)
        | Expr::Between(x, y)
        | Expr::And(x, y)
        | Expr::Or(x, y) => 1 + nodes(x) + nodes(y),
        Expr::All(items) | Expr::Any(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        _ => 0,
    }
}

/// Runs the code of an expression.
fn run(t: &Arc<Tables>, code: &[Ins], b: &Board, r: &mut Regs) -> i64 {
    let mut stack = [0i64; DEPTH];
    let mut sp = 0usize;
    let mut pc = 0usize;
    while pc < code.len() {
        match &code[pc] {
            Ins::Push(c) => {
                stack[sp] = *c;
                sp += 1;
            }
            Ins::Var(v) => {
                stack[sp] = r.var(*v);
                sp += 1;
            }
            Ins::Mover => {
                stack[sp] = b.mover as i64;
                sp += 1;
            }
            Ins::Opponent => {
                stack[sp] = t.opponent[b.mover as usize] as i64;
                sp += 1;
            }
            Ins::Call(f) => {
                stack[sp] = f(b, r);
                sp += 1;
            }
            Ins::Short { and, to } => {
                if (stack[sp - 1] == 0) == *and {
                    pc = *to as usize;
                    continue;
                }
                sp -= 1;
            }
            ins => {
                let top = &mut stack[sp - 1];
                match ins {
                    Ins::Not => *top = (*top == 0) as i64,
                    Ins::Bool => *top = (*top != 0) as i64,
                    Ins::Neg => {
                        *top = top
                            .checked_neg()
                            .unwrap_or_else(|| fail(b, Fault::Overflow))
                    }
                    Ins::Total => *top = t.site(*top).map_or(0, |s| b.total[s] as i64),
                    Ins::Owner => *top = t.site(*top).map_or(-1, |s| b.owners[s] as i64),
                    Ins::KindOf => *top = t.site(*top).map_or(-1, |s| b.kinds[s] as i64),
                    Ins::InRegion(reg) => {
                        *top = t
                            .site(*top)
                            .is_some_and(|s| crate::engine::bits::test(&t.regions[*reg], s))
                            as i64
                    }
                    Ins::NextSow => *top = next1(t, b, *top),
                    Ins::Opposite => {
                        *top = match t.site(*top) {
                            Some(s) if t.opposite[s] != u16::MAX => t.opposite[s] as i64,
                            _ => -1,
                        }
                    }
                    Ins::Top => *top = t.site(*top).map_or(-1, |s| b.toks.top[s] as i64),
                    Ins::TopOwner => {
                        *top = match t.site(*top) {
                            Some(s) if b.toks.top[s] >= 0 => {
                                t.tok_owner[b.toks.top[s] as usize] as i64
                            }
                            _ => -1,
                        }
                    }
                    Ins::TokOwner => *top = t.token(*top).map_or(-1, |x| t.tok_owner[x] as i64),
                    Ins::TokSite => {
                        *top = match t.token(*top).map(|x| b.toks.site[x]) {
                            Some(s) if s != u16::MAX => s as i64,
                            _ => -1,
                        }
                    }
                    Ins::TokPos => *top = t.token(*top).map_or(-1, |x| b.toks.pos[x] as i64),
                    Ins::TrackEnd => {
                        *top = t
                            .player(*top)
                            .and_then(|p| t.track_of(p))
                            .map_or(-1, |tr| tr.first + tr.sites.len() as i64 - 1)
                    }
                    Ins::SideOf => *top = if *top < 0 { -1 } else { *top % t.sides as i64 },
                    _ => {
                        // The binary operations: the top two values.
                        sp -= 1;
                        let (a, c) = (stack[sp - 1], stack[sp]);
                        stack[sp - 1] = match ins {
                            Ins::Bin(op) => match op {
                                Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                                    compare(b, *op, a, c)
                                }
                                op => arith(b, *op, a, c),
                            },
                            Ins::TrackSite => match t.player(a).and_then(|p| t.track_of(p)) {
                                Some(tr) => c
                                    .checked_sub(tr.first)
                                    .and_then(|i| usize::try_from(i).ok())
                                    .and_then(|i| tr.sites.get(i))
                                    .map_or(-1, |&s| s as i64),
                                None => -1,
                            },
                            Ins::TrackPos => match (t.player(a), t.site(c)) {
                                (Some(p), Some(s)) => t.track_pos(p, s),
                                _ => -1,
                            },
                            _ => t.between(a, c),
                        };
                    }
                }
            }
        }
        pc += 1;
    }
    stack[0]
}
