//! Questions about every token: the conditions an index of tokens answers (a token's owner,
//! side, area, site, the kinds its site holds) and the rest, tried token by token.

use crate::engine::compile::num::Num;
use crate::engine::compile::query::question::Question;
use crate::engine::compile::tables::Tables;
use crate::engine::state::{Board, Regs};
use crate::ir::{KindMask, VarId};
use std::sync::Arc;

/// An indexed test of a token; `x` is the mask that complements its set (`!0`) or not (0).
pub(super) enum TokOp {
    /// the tokens of a player computed before the question (by side with `side`)
    Owner { who: Who, side: bool, x: u64 },
    /// the tokens on the board, in an area, or not placed
    Area { area: u8, x: u64 },
    /// the tokens at a site computed before the question (built in the scratch words)
    At { site: Num, scratch: usize },
    /// every token but one computed before the question (built in the scratch words)
    Not { token: Num, scratch: usize },
}

/// The player of an owner's test: the mover read in place, or computed.
pub(super) enum Who {
    Mover,
    Num(Num),
}

/// A condition over the tokens bound to a variable.
pub(crate) struct TokQuery {
    pub(super) t: Arc<Tables>,
    pub(super) var: VarId,
    pub(super) ops: Vec<TokOp>,
    /// conjuncts `count(site(x), K) > 0` (`false`: the site holds pieces of the kinds of mask
    /// K) or `count(site(x), K) == 0` (`true`), tested on each candidate with the counts every
    /// move keeps, before the rest (a token off the board: its site holds none)
    pub(super) holds: Vec<(KindMask, bool)>,
    pub(super) rest: Option<Num>,
    /// the flags of the parts of `rest` kept once per question (first scratch word, count),
    /// cleared when the question starts (`expr/hoist.rs`)
    pub(super) lazy: (usize, usize),
}

impl TokQuery {
    /// Whether the site of token `x` passes the tests of `holds`.
    #[inline(always)]
    fn site_holds(&self, b: &Board, x: usize) -> bool {
        let s = b.toks.site[x];
        self.holds.iter().all(|&(mask, none)| {
            let n = if s == u16::MAX {
                0
            } else {
                b.count_of(s as usize, mask)
            };
            (n == 0) == none
        })
    }
}

/// A question about every token: its candidates from the indexes, the rest tried one by one.
impl Question for TokQuery {
    #[inline(always)]
    fn words(&self) -> usize {
        self.t.tw
    }
    #[inline(always)]
    fn indexed_only(&self) -> bool {
        self.rest.is_none() && self.holds.is_empty()
    }
    #[inline(always)]
    fn passes(&self, b: &Board, r: &mut Regs, x: usize) -> bool {
        r.set(self.var, x as i64);
        if !self.holds.is_empty() && !self.site_holds(b, x) {
            return false;
        }
        self.rest.as_ref().is_none_or(|rest| rest(b, r) != 0)
    }
    /// Builds the sets of the tests that need it (before the words are read).
    #[inline(always)]
    fn prepare(&self, b: &Board, r: &mut Regs) {
        let t = &*self.t;
        let (at, n) = self.lazy;
        if n > 0 {
            r.scratch[at..at + n].fill(0);
        }
        for op in &self.ops {
            match op {
                TokOp::At { site, scratch } => {
                    let s = site(b, r);
                    let out = &mut r.scratch[*scratch..*scratch + t.tw];
                    if let [w] = out {
                        *w = 0; // one word: no call to fill it
                    } else {
                        out.fill(0);
                    }
                    if let Some(s) = t.site(s) {
                        for x in b.toks.at(s as u16) {
                            out[x / 64] |= 1 << (x % 64);
                        }
                    }
                }
                TokOp::Not { token, scratch } => {
                    let x = token(b, r);
                    let out = &mut r.scratch[*scratch..*scratch + t.tw];
                    out.iter_mut().for_each(|w| *w = !0);
                    if let Some(x) = t.token(x) {
                        out[x / 64] &= !(1 << (x % 64));
                    }
                }
                _ => {}
            }
        }
    }
    /// Word `i` of the tokens the indexed tests allow (after [`TokQuery::prepare`]).
    #[inline(always)]
    fn word(&self, b: &Board, r: &mut Regs, i: usize) -> u64 {
        let t = &*self.t;
        let mut word = t.tok_all[i];
        for op in &self.ops {
            word &= match op {
                TokOp::Owner { who, side, x } => {
                    let p = match who {
                        Who::Mover => b.mover as i64,
                        Who::Num(who) => who(b, r),
                    };
                    let list = if *side {
                        &t.tok_of_side
                    } else {
                        &t.tok_of_player
                    };
                    match usize::try_from(p).ok().and_then(|p| list.get(p)) {
                        Some(set) => set[i] ^ x,
                        None => *x,
                    }
                }
                TokOp::Area { area, x } => b.toks.in_area(*area)[i] ^ x,
                TokOp::At { scratch, .. } | TokOp::Not { scratch, .. } => r.scratch[scratch + i],
            };
        }
        word
    }
}
