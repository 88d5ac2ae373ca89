//! Compilation of a game's IR, once, when it is loaded: expressions become closures
//! ([`expr`]), questions about every site or token become bit-set queries on the board's indexes
//! ([`query`]), and the turn program becomes a list of [`Op`]s whose operands are compiled.

pub(crate) mod expr;
mod memory;
mod num;
pub(crate) mod query;
mod tables;

#[cfg(test)]
pub(crate) use expr::logic::FUSED_EMPTINESS;
#[cfg(test)]
pub(crate) use num::AS_WRITTEN;
pub(crate) use num::{Compiler, Num};
#[cfg(test)]
pub(crate) use query::SET_MEETINGS;
#[cfg(test)]
pub(crate) use query::kept::KEPT;
pub(crate) use query::{Base, CSet, Memo, Question, Reach, SiteQuery, TokQuery};
pub(crate) use tables::Tables;

use crate::ir::share::cannot_fault;
use crate::ir::*;
use std::sync::Arc;

/// One instruction of the compiled turn program (see [`Instr`] for what each does).
pub(crate) enum Op {
    Jump(u32),
    JumpIfNot(Num, u32),
    SetVar(VarId, Num),
    SetOwner(Num, Num),
    SetKind(Num, Num),
    SetTokenKind(Num, Num),
    Capture {
        set: CSet,
        keep: Num,
        to: Num,
    },
    Place {
        count: Num,
        piece: usize,
        on: CSet,
        from: Option<Num>,
    },
    Choose(u32),
    SowStart {
        from: Num,
        dir: Num,
        /// the next instruction is a `single` lap (run in the same dispatch)
        lap: bool,
    },
    SowLap {
        orders: bool,
        skip: Option<Skip>,
        last: VarId,
        on_cycle: u32,
        sown: Option<VarId>,
        /// entered only from the `SowStart` before it (no relay nor jump leads here): the lap
        /// is the sowing's first, and no position of it is ever compared with a later one
        single: bool,
    },
    Relay {
        site: Num,
        lap: u32,
    },
    EndTurn,
    /// the rule, and the rank of this `end game` among the program's (its words say why)
    EndGame(EndOp, Option<u32>),
    First(Option<Num>),
    SetMover(Num),
    SetTally {
        slot: usize,
        player: Option<Num>,
        value: Num,
    },
    Give {
        count: Num,
        piece: usize,
        from: Num,
        to: Num,
    },
    EndRound,
    NewRound,
    Throw {
        dice: u16,
        var: VarId,
    },
    PlaceTokens {
        count: Num,
        piece: u8,
        on: Option<CSet>,
        area: u8,
        owner: Option<Num>,
    },
    Move {
        token: Num,
        to: Num,
        onto_site: bool,
        carry: bool,
    },
    Send {
        token: Num,
        area: u8,
    },
    ForTokens {
        slot: u16,
        q: TokQuery,
    },
    ForSites {
        slot: u16,
        set: CSet,
    },
    ForNext {
        slot: u16,
        var: VarId,
        end: u32,
    },
    /// (boxed: the variant adds nothing to the size of every instruction)
    SetTallyAt(Box<TallyAtOp>),
    ForgetPositions,
    AnotherTurn,
}

/// `set marked(h) = n`: the first slot of a `per site` tally, the site and the value.
pub(crate) struct TallyAtOp {
    pub(crate) slot: usize,
    pub(crate) site: Num,
    pub(crate) value: Num,
}

/// The sites a sowing skips.
pub(crate) enum Skip {
    /// a question whose answer depends only on kinds, owners and the mover: its sites are
    /// built, for each mover, in the scratch words at the given place (followed by a word that
    /// says for which kinds and owners, `Board::shape`), and kept while those stay the same
    Stable(SiteQuery, usize),
    /// any other set, tried at each drop
    Dynamic(CSet),
}

/// How `end game` decides.
pub(crate) enum EndOp {
    Score,
    Winner(Num),
    Draw,
}

/// The values an alternative of a choice ranges over.
pub(crate) enum Gen {
    /// one decision (no variable)
    Unit,
    /// sites (in increasing order)
    Sites(SiteQuery),
    /// sites of a set, in its order
    Set(CSet),
    /// listed values
    Values(Vec<i64>),
    /// tokens, one decision for each set of interchangeable ones
    Tokens(TokQuery),
}

/// One alternative of a compiled choice.
pub(crate) struct CAlt {
    pub(crate) var: Option<VarId>,
    /// parts of the condition that depend on nothing the choice binds
    pub(crate) guards: Vec<Num>,
    /// values computed once before the values are tried
    pub(crate) pre: Vec<(VarId, Num)>,
    /// parts of the condition that read only `pre` values and the board: tested once after
    /// `pre` (`ir::Alt::checks`)
    pub(crate) checks: Vec<Num>,
    /// the first values (sites and tokens with the part of the condition about them)
    pub(crate) values: Gen,
    /// with a second variable and values that are not sites or tokens: the part of the
    /// condition about the first value, tested before the second set is walked
    pub(crate) first: Option<Num>,
    /// `to q in SET`: the second variable and its set
    pub(crate) to: Option<(VarId, CSet)>,
    /// with a second variable: the part of the condition about it alone, as a question whose
    /// candidates are built once per enumeration (in the scratch words at the given place)
    pub(crate) second: Option<(SiteQuery, usize)>,
    /// with `to q in jumps(E)`: the leading conjuncts of the rest of the condition that read
    /// the pair only as the site between (`between(E, q)`, the site the walk of the jumps
    /// passes over), as a question answered by the board's bits alone, its sites built once
    /// per enumeration (in the scratch words at the given place); see [`Compiler::middle`]
    pub(crate) middle: Option<(SiteQuery, usize)>,
    /// with `to q in neighbours(site(t))` or `jumps(site(t))` where `t` is the first value, a
    /// token: the walk starts from the token's site, read in place (no expression evaluated)
    pub(crate) from_first: bool,
    /// the rest of the condition, tested for each value (or pair)
    pub(crate) cond: Option<Num>,
    /// `leaving C`: tested in the position after the decision
    pub(crate) leaving: Option<Num>,
}

pub(crate) struct CChoice {
    pub(crate) alts: Vec<CAlt>,
    pub(crate) otherwise: Option<u32>,
    /// an alternative has `leaving`
    pub(crate) looks: bool,
}

/// The cumulative probabilities of a chance event's outcomes, added up in order.
pub(crate) struct Chance {
    pub(crate) cum: Vec<f64>,
}

/// A game compiled for play.
pub(crate) struct Program {
    pub(crate) t: Arc<Tables>,
    pub(crate) code: Vec<Op>,
    pub(crate) choices: Vec<CChoice>,
    /// for each set of dice, its chart's cumulative probabilities
    pub(crate) dice: Vec<Chance>,
    /// who plays first, drawn at random
    pub(crate) first: Chance,
    /// words of scratch the queries need
    pub(crate) scratch: usize,
    /// the variables: the game's, then those of the parts of questions kept once per
    /// question (`expr/hoist.rs`)
    pub(crate) vars: usize,
    /// where the memos of the floods that keep their sites while the legal decisions are
    /// listed are in scratch (each forgets what it kept before each listing: `Memo::forget`)
    pub(crate) memos: Vec<usize>,
    /// what reaching the turn limit and the move limit mean
    pub(crate) limit_ends: [EndOp; 2],
    /// decisions allowed in a round (`u64::MAX` without `limit … moves`: never reached)
    pub(crate) move_limit: u64,
    /// a `choose` of the program (`u32::MAX` without one): where a look-ahead goes when the
    /// mover's turn ends, to stop there as it stops at any choice (see `lookahead`)
    pub(crate) look_halt: u32,
    /// whether the moves keep the counts of tokens of each kind at each site (some compiled
    /// form reads them; see `Tokens::kind_at`)
    pub(crate) kind_counts: bool,
}

/// Jumps to jumps go straight to where the chain ends, and a jump to `end turn` ends the turn.
fn thread_jumps(code: &mut [Op]) {
    let end = |code: &[Op], mut t: u32| {
        for _ in 0..code.len() {
            match code.get(t as usize) {
                Some(Op::Jump(n)) if *n != t => t = *n,
                _ => break,
            }
        }
        t
    };
    for i in 0..code.len() {
        let target = match &code[i] {
            Op::Jump(t) | Op::JumpIfNot(_, t) => end(code, *t),
            _ => continue,
        };
        let ends_turn = matches!(code.get(target as usize), Some(Op::EndTurn));
        match &mut code[i] {
            op @ Op::Jump(_) if ends_turn => *op = Op::EndTurn,
            Op::Jump(t) | Op::JumpIfNot(_, t) => *t = target,
            _ => {}
        }
    }
}

/// Marks the laps of sowing that only the instruction before them, their `SowStart`, leads
/// to: no jump, relay, loop's end, choice or program start names them. Such a lap is the first
/// of its sowing each time it runs, so the cycle rule has nothing to compare its position with
/// (see `Game::lap_repeats`) and need not keep it.
fn mark_single_laps(code: &mut [Op], g: &Game) {
    let mut targets = vec![g.turn_start, 0];
    targets.extend(g.between_start);
    for ch in &g.choices {
        targets.extend(ch.otherwise);
        targets.extend(ch.alts.iter().map(|a| a.target));
    }
    for op in code.iter() {
        match op {
            Op::Jump(t) | Op::JumpIfNot(_, t) => targets.push(*t),
            Op::SowLap { on_cycle, .. } => targets.push(*on_cycle),
            Op::Relay { lap, .. } => targets.push(*lap),
            Op::ForNext { end, .. } => targets.push(*end),
            _ => {}
        }
    }
    for i in 1..code.len() {
        let after_start = matches!(code[i - 1], Op::SowStart { .. });
        if let Op::SowLap { single, .. } = &mut code[i] {
            *single = after_start && !targets.contains(&(i as u32));
            if let (true, Op::SowStart { lap, .. }) = (*single, &mut code[i - 1]) {
                *lap = true;
            }
        }
    }
}

fn cumulative(probs: impl Iterator<Item = f64>) -> Chance {
    let mut acc = 0.0;
    Chance {
        cum: probs
            .map(|p| {
                acc += p;
                acc
            })
            .collect(),
    }
}

/// Compiles a lowered, optimized game.
pub(crate) fn compile(g: &Game) -> Program {
    let t = Arc::new(Tables::new(g));
    let mut c = Compiler::new(t.clone());
    c.free_var = Some(g.nvars);
    // each `end game` knows its rank among the program's `end game` statements
    let mut ends = 0u32;
    let mut code: Vec<Op> = g
        .code
        .iter()
        .map(|i| {
            let op = c.instr(i, ends);
            ends += u32::from(matches!(i, Instr::EndGame(..)));
            op
        })
        .collect();
    thread_jumps(&mut code);
    mark_single_laps(&mut code, g);
    let look_halt = code
        .iter()
        .position(|op| matches!(op, Op::Choose(_)))
        .map_or(u32::MAX, |i| i as u32);
    let choices = g.choices.iter().map(|ch| c.choice(ch)).collect();
    let limit_ends = [c.end_op(&g.turn_limit_end), c.end_op(&g.move_limit_end)];
    let n = g.players.len();
    Program {
        t,
        code,
        choices,
        dice: g
            .dice
            .iter()
            .map(|d| cumulative(d.outcomes.iter().map(|o| o.prob)))
            .collect(),
        first: cumulative((0..n).map(|_| 1.0 / n as f64)),
        scratch: c.scratch_words(),
        vars: c.free_var.unwrap_or(g.nvars),
        memos: c.memos.clone(),
        limit_ends,
        look_halt,
        kind_counts: c.reads_kind_counts,
        move_limit: if g.move_limit == u32::MAX {
            u64::MAX
        } else {
            g.move_limit as u64
        },
    }
}

impl Compiler {
    /// `end_rank`: the rank of this instruction among the `end game` statements, if it is one
    fn instr(&mut self, i: &Instr, end_rank: u32) -> Op {
        match i {
            Instr::Jump(t) => Op::Jump(*t),
            Instr::JumpIfNot(c, t) => Op::JumpIfNot(self.num(c), *t),
            Instr::SetVar(v, e) => Op::SetVar(*v, self.num(e)),
            Instr::SetOwner(s, p) => Op::SetOwner(self.num(s), self.num(p)),
            Instr::SetKind(s, k) => Op::SetKind(self.num(s), self.num(k)),
            Instr::SetTokenKind(t, k) => Op::SetTokenKind(self.num(t), self.num(k)),
            Instr::Capture { set, keep, to } => Op::Capture {
                set: self.set(set),
                keep: self.num(keep),
                to: self.num(to),
            },
            Instr::Place {
                count,
                piece,
                on,
                from,
            } => Op::Place {
                count: self.num(count),
                piece: piece.0 as usize,
                on: self.set(on),
                from: from.as_ref().map(|f| self.num(f)),
            },
            Instr::Choose(id) => Op::Choose(*id),
            Instr::SowStart { from, dir } => Op::SowStart {
                from: self.num(from),
                dir: self.num(dir),
                lap: false,
            },
            Instr::SowLap {
                orders,
                skip,
                last,
                on_cycle,
                sown,
            } => Op::SowLap {
                orders: *orders,
                skip: skip.as_ref().map(|s| match self.set(s) {
                    CSet::Query(q) if q.is_stable_in_sowing() => {
                        // for each player: the set, and the word that says for which shape
                        Skip::Stable(q, self.scratch((self.t.layout.w + 1) * self.t.players))
                    }
                    set => Skip::Dynamic(set),
                }),
                last: *last,
                on_cycle: *on_cycle,
                sown: *sown,
                single: false,
            },
            Instr::Relay { site, lap } => Op::Relay {
                site: self.num(site),
                lap: *lap,
            },
            Instr::EndTurn => Op::EndTurn,
            Instr::EndGame(rule, _) => Op::EndGame(self.end_op(rule), Some(end_rank)),
            Instr::First(p) => Op::First(p.as_ref().map(|p| self.num(p))),
            Instr::SetMover(p) => Op::SetMover(self.num(p)),
            Instr::SetTally {
                slot,
                player,
                value,
            } => Op::SetTally {
                slot: *slot as usize,
                player: player.as_ref().map(|p| self.num(p)),
                value: self.num(value),
            },
            Instr::Give {
                count,
                piece,
                from,
                to,
            } => Op::Give {
                count: self.num(count),
                piece: piece.0 as usize,
                from: self.num(from),
                to: self.num(to),
            },
            Instr::EndRound => Op::EndRound,
            Instr::NewRound => Op::NewRound,
            Instr::Throw { dice, var } => Op::Throw {
                dice: *dice,
                var: *var,
            },
            Instr::PlaceTokens {
                count,
                piece,
                on,
                area,
                owner,
            } => Op::PlaceTokens {
                count: self.num(count),
                piece: piece.0,
                on: on.as_ref().map(|s| self.set(s)),
                area: *area,
                owner: owner.as_ref().map(|o| self.num(o)),
            },
            Instr::Move {
                token,
                to,
                onto_site,
                carry,
            } => Op::Move {
                token: self.num(token),
                to: self.num(to),
                onto_site: *onto_site,
                carry: *carry,
            },
            Instr::Send { token, area } => Op::Send {
                token: self.num(token),
                area: *area,
            },
            Instr::ForInit {
                slot,
                var,
                over: Over::Tokens,
                cond,
                ..
            } => Op::ForTokens {
                slot: *slot,
                q: self.tokens(*var, cond),
            },
            Instr::ForInit {
                slot,
                over: Over::Sites,
                set,
                ..
            } => Op::ForSites {
                slot: *slot,
                set: self.set(set),
            },
            Instr::ForNext { slot, var, end } => Op::ForNext {
                slot: *slot,
                var: *var,
                end: *end,
            },
            Instr::SetTallyAt { slot, site, value } => Op::SetTallyAt(Box::new(TallyAtOp {
                slot: *slot as usize,
                site: self.num(site),
                value: self.num(value),
            })),
            Instr::ForgetPositions => Op::ForgetPositions,
            Instr::AnotherTurn => Op::AnotherTurn,
        }
    }

    /// For a pair walked over `jumps(from)` (first variable `v`, second `v2`): the leading
    /// conjuncts of `both` that read `v` and `v2` only as `between(from, v2)`, which is the
    /// site the walk passes over when no site has two jumps to one site, as a question over
    /// that site (`v2` standing for it) that the board's bits answer alone and that cannot
    /// fault (so it may be answered for every site once per enumeration); and the conjuncts
    /// left. None (all of `both` left) when there is no such question.
    fn middle<'e>(
        &mut self,
        from: &Expr,
        v: VarId,
        v2: VarId,
        both: Vec<&'e Expr>,
    ) -> (Option<(SiteQuery, usize)>, Vec<&'e Expr>) {
        let one_mid = self.t.far.iter().all(|l| {
            l.iter()
                .enumerate()
                .all(|(i, p)| l[..i].iter().all(|o| o.0 != p.0))
        });
        let between = Expr::Between(Box::new(from.clone()), Box::new(Expr::Var(v2)));
        let at_middle = |e: &Expr| {
            let mut m = e.clone();
            let mut found = false;
            replace(&mut m, &between, &Expr::Var(v2), &mut found);
            let mut probe = e.clone();
            replace(&mut probe, &between, &Expr::Const(-1), &mut found);
            (found && !uses(&probe, v) && !uses(&probe, v2) && cannot_fault(&m)).then_some(m)
        };
        let mut parts = vec![];
        if one_mid && !num::as_written() {
            parts = both.iter().map_while(|e| at_middle(e)).collect();
        }
        if parts.is_empty() {
            return (None, both);
        }
        let q = self.sites(v2, Base::All, Some(&Expr::All(parts.clone())));
        if !q.is_bits_only() {
            return (None, both);
        }
        let at = self.scratch(self.t.layout.w);
        (Some((q, at)), both[parts.len()..].to_vec())
    }

    fn end_op(&mut self, rule: &EndRule) -> EndOp {
        match rule {
            EndRule::Score => EndOp::Score,
            EndRule::Draw => EndOp::Draw,
            EndRule::Winner(p) => EndOp::Winner(self.num(p)),
        }
    }

    fn choice(&mut self, ch: &Choice) -> CChoice {
        CChoice {
            alts: ch.alts.iter().map(|a| self.alt(a)).collect(),
            otherwise: ch.otherwise,
            looks: ch.alts.iter().any(|a| a.leaving.is_some()),
        }
    }

    fn alt(&mut self, a: &Alt) -> CAlt {
        let guards = a.guards.iter().map(|g| self.num(g)).collect();
        let pre = a.pre.iter().map(|(v, e)| (*v, self.num(e))).collect();
        let checks = a.checks.iter().map(|g| self.num(g)).collect();
        // With a second variable, the condition on the first alone (`first`) selects the first
        // values; the rest is tested for each pair.
        let first_cond = match &a.to {
            Some(_) => a.first.as_ref(),
            None => a.cond.as_ref(),
        };
        let values = match (&a.domain, a.var) {
            (Domain::Unit, _) | (_, None) => Gen::Unit,
            (Domain::Sites, Some(v)) => {
                let n = self.t.nsites;
                let base =
                    crate::engine::bits::from_fn(n, |s| a.sites.binary_search(&(s as u16)).is_ok());
                Gen::Sites(self.sites(v, Base::Bits(base), first_cond))
            }
            (Domain::Set(set), Some(_)) => Gen::Set(self.set(set)),
            (Domain::Values(vals), Some(_)) => Gen::Values(vals.iter().map(|(x, _)| *x).collect()),
            (Domain::Tokens, Some(v)) => {
                Gen::Tokens(self.tokens(v, first_cond.unwrap_or(&Expr::Const(1))))
            }
        };
        // Sites and tokens are selected by their condition (with a second variable, by the part
        // of it about the first alone); the rest is tested for each value or pair.
        let own = matches!(values, Gen::Sites(_) | Gen::Tokens(_));
        let first = match (own, &a.to) {
            (false, Some(_)) => a.first.as_ref().map(|f| self.num(f)),
            _ => None,
        };
        let (second, middle, cond) = match (&a.to, a.var, &a.cond) {
            (Some((v2, _)), Some(v), Some(c)) => {
                // The conjuncts about the second value alone: a question over it.
                let (alone, both): (Vec<&Expr>, Vec<&Expr>) =
                    query::conjuncts(c).into_iter().partition(|x| !uses(x, v));
                let second = (!alone.is_empty()).then(|| {
                    let alone = Expr::All(alone.into_iter().cloned().collect());
                    let q = self.sites(*v2, Base::All, Some(&alone));
                    (q, self.scratch(self.t.layout.w))
                });
                let (middle, both) = match &a.to {
                    Some((v2, SetExpr::Jumps(from))) => self.middle(from, v, *v2, both),
                    _ => (None, both),
                };
                let cond = match both.len() {
                    0 => None,
                    _ => Some(self.num(&Expr::All(both.into_iter().cloned().collect()))),
                };
                (second, middle, cond)
            }
            (_, _, c) if !own || a.to.is_some() => (None, None, c.as_ref().map(|c| self.num(c))),
            _ => (None, None, None),
        };
        let from_first = !num::as_written()
            && matches!(a.domain, Domain::Tokens)
            && matches!(&a.to, Some((_, SetExpr::Neighbours(e) | SetExpr::Jumps(e)))
                if matches!(&**e, Expr::TokSite(x) if matches!(**x, Expr::Var(w) if Some(w) == a.var)));
        CAlt {
            from_first,
            var: a.var,
            guards,
            pre,
            checks,
            values,
            first,
            to: a.to.as_ref().map(|(v2, s)| (*v2, self.set(s))),
            second,
            middle,
            cond,
            leaving: a.leaving.as_ref().map(|c| self.num(c)),
        }
    }
}

/// Replaces every occurrence of `what` in `e` by `with` (`found` set when there is one).
fn replace(e: &mut Expr, what: &Expr, with: &Expr, found: &mut bool) {
    if *e == *what {
        *e = with.clone();
        *found = true;
        return;
    }
    crate::ir::walk::operands_mut(e, &mut |x| replace(x, what, with, found));
}
