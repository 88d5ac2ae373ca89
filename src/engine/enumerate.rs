//! The legal decisions of a choice, in a fixed order: alternative by alternative, the values of
//! each in increasing order (sites, tokens) or in the order written (values, sets).

use super::compile::expr::tok_site;
use super::compile::{CAlt, CSet, Gen, Memo, Question, Reach};
use super::state::{Board, Regs};
use super::tokens::UNPLACED;
use super::{Decision, Game, State};

impl Game {
    pub(crate) fn enumerate(&self, st: &mut State, id: u32) {
        let mut moves = std::mem::take(&mut st.moves);
        moves.clear();
        // The board stays as it is while the decisions are listed: the questions that keep
        // what they found may read it back (what they kept of an earlier listing is dropped).
        for &at in &self.prog.memos {
            Memo::forget(&mut st.r.scratch, at, self.prog.t.nsites);
        }
        st.r.still = true;
        let (b, r) = (&st.b, &mut st.r);
        for (ai, alt) in self.prog.choices[id as usize].alts.iter().enumerate() {
            if alt.guards.iter().any(|g| g(b, r) == 0) {
                continue;
            }
            for (tmp, e) in &alt.pre {
                let v = e(b, r);
                r.set(*tmp, v);
            }
            if alt.checks.iter().any(|g| g(b, r) == 0) {
                continue;
            }
            if let Some((q, at)) = &alt.second
                && !q.candidates(b, r, *at)
            {
                continue;
            }
            if let Some((q, at)) = &alt.middle {
                q.fill(b, r, *at);
            }
            let ai = ai as u8;
            match &alt.values {
                Gen::Unit => offer(alt, ai, b, r, 0, &mut moves),
                Gen::Sites(q) if alt.to.is_none() && alt.cond.is_none() && q.is_bits_only() => {
                    // The board's bits alone: every site of each word, room made once a word
                    // (a range of known length: no test of the room at each site).
                    q.each_word(b, r, |i, mut word| {
                        moves.extend((0..word.count_ones()).map(|_| {
                            let s = i * 64 + word.trailing_zeros() as usize;
                            word &= word - 1;
                            Decision::Alt {
                                alt: ai,
                                value: s as i32,
                            }
                        }));
                    });
                }
                Gen::Sites(q) if alt.to.is_none() && alt.cond.is_none() => {
                    // The question alone decides: every site it gives is a decision.
                    q.for_each(b, r, |_, _, s| {
                        moves.push(Decision::Alt {
                            alt: ai,
                            value: s as i32,
                        });
                        true
                    });
                }
                Gen::Sites(q) => {
                    q.for_each(b, r, |b, r, s| {
                        offer(alt, ai, b, r, s as i64, &mut moves);
                        true
                    });
                }
                Gen::Set(set) => {
                    set.for_each(b, r, &mut |b, r, s| {
                        offer(alt, ai, b, r, s as i64, &mut moves);
                        true
                    });
                }
                Gen::Values(vals) => {
                    for &v in vals {
                        offer(alt, ai, b, r, v, &mut moves);
                    }
                }
                Gen::Tokens(q) => {
                    q.for_each(b, r, |b, r, x| {
                        if !self.has_twin_before(b, x) {
                            offer(alt, ai, b, r, x as i64, &mut moves);
                        }
                        true
                    });
                }
            }
        }
        r.still = false;
        st.moves = moves;
        self.keep_leaving(st, id);
    }

    /// Whether a token has an interchangeable token of lower index (the choice then offers
    /// only the first of them): alone on its site, a token has no twin.
    fn has_twin_before(&self, b: &Board, x: usize) -> bool {
        let toks = &b.toks;
        let site = toks.site[x];
        if site != u16::MAX {
            if toks.top[site as usize] == toks.bottom[site as usize] {
                return false;
            }
            return toks.at(site).any(|u| u < x && toks.same_place(self, x, u));
        }
        let area = if toks.area[x] == UNPLACED {
            UNPLACED
        } else {
            toks.area[x]
        };
        let mut twin = false;
        super::bits::for_each(toks.in_area(area), |u| {
            if u >= x {
                return false;
            }
            if toks.same_place(self, x, u) {
                twin = true;
                return false;
            }
            true
        });
        twin
    }
}

/// Offers the decision of value `value` (with a second variable: one for each of its values)
/// where the rest of the alternative's condition holds.
#[inline]
fn offer(alt: &CAlt, ai: u8, b: &Board, r: &mut Regs, value: i64, moves: &mut Vec<Decision>) {
    if let Some(v) = alt.var {
        r.set(v, value);
    }
    match &alt.to {
        // Two values: the second ranges over a set that may depend on the first.
        Some((v2, set)) => {
            if alt.first.as_ref().is_some_and(|c| c(b, r) == 0) {
                return;
            }
            let hi = (value as i32) << 16;
            // A pair (second value `s`, `m` the site between for a walk of the jumps) where
            // the rest of the condition holds: the second value's own part, the site between's
            // (see `CAlt::middle`), then the rest, as written.
            let pair = |b: &Board, r: &mut Regs, s: usize, m: usize, moves: &mut Vec<Decision>| {
                r.set(*v2, s as i64);
                if alt
                    .second
                    .as_ref()
                    .is_none_or(|(q, at)| q.candidate_holds(b, r, *at, s))
                    && alt.middle.as_ref().is_none_or(|(_, at)| bit(r, *at, m))
                    && alt.cond.as_ref().is_none_or(|c| c(b, r) != 0)
                {
                    moves.push(Decision::Alt {
                        alt: ai,
                        value: hi | s as i32,
                    });
                }
            };
            match set {
                // The sites next to a site (or two steps on), walked here.
                CSet::Near(x, reach, t) => {
                    let far = *reach == Reach::Jumps;
                    let from = match alt.from_first {
                        true => tok_site(b, value, t.ntokens),
                        false => x(b, r),
                    };
                    let Some(q) = t.site(from) else {
                        return;
                    };
                    // None of them can pass the condition on the second value alone:
                    // nothing to walk.
                    if let Some((_, at)) = &alt.second {
                        let sets = if far { &t.far_bits } else { &t.near_bits };
                        let w = t.layout.w;
                        if !sets.is_empty()
                            && (0..w).all(|i| sets[q * w + i] & r.scratch[at + i] == 0)
                        {
                            return;
                        }
                    }
                    // The board's bits decide alone (nothing to evaluate a pair): each pair
                    // tested by its bits, in the walk's order.
                    let w = t.layout.w;
                    let bits = alt.cond.is_none()
                        && alt.second.as_ref().is_none_or(|(q, _)| q.is_bits_only());
                    let second = |r: &Regs, s: usize| {
                        alt.second.as_ref().is_none_or(|(_, at)| bit(r, *at, s))
                    };
                    match (far, bits) {
                        (true, true) => {
                            // No site between (a neighbour) passes `middle`: nothing to walk.
                            if let Some((_, at)) = &alt.middle
                                && !t.near_bits.is_empty()
                                && disjoint(&t.near_bits[q * w..], &r.scratch[*at..], w)
                            {
                                return;
                            }
                            for &(s, m) in &t.far[q] {
                                let (s, m) = (s as usize, m as usize);
                                if second(r, s)
                                    && alt.middle.as_ref().is_none_or(|(_, at)| bit(r, *at, m))
                                {
                                    moves.push(Decision::Alt {
                                        alt: ai,
                                        value: hi | s as i32,
                                    });
                                }
                            }
                        }
                        (false, true) => {
                            for &s in &t.near[q] {
                                if second(r, s as usize) {
                                    moves.push(Decision::Alt {
                                        alt: ai,
                                        value: hi | s as i32,
                                    });
                                }
                            }
                        }
                        (true, false) => {
                            for &(s, m) in &t.far[q] {
                                pair(b, r, s as usize, m as usize, moves);
                            }
                        }
                        (false, false) => {
                            for &s in &t.near[q] {
                                pair(b, r, s as usize, usize::MAX, moves);
                            }
                        }
                    }
                }
                // (no site between: `middle` is only for a walk of the jumps, always `Near`)
                set => {
                    debug_assert!(alt.middle.is_none());
                    set.for_each(b, r, &mut |b, r, s| {
                        pair(b, r, s, usize::MAX, moves);
                        true
                    });
                }
            }
        }
        None => {
            if alt.cond.as_ref().is_none_or(|c| c(b, r) != 0) {
                moves.push(Decision::Alt {
                    alt: ai,
                    value: value as i32,
                });
            }
        }
    }
}

/// Whether site `s` is in the set of sites in the scratch words at `at`.
#[inline(always)]
fn bit(r: &Regs, at: usize, s: usize) -> bool {
    r.scratch[at + s / 64] >> (s % 64) & 1 != 0
}

/// Whether the first `w` words of two sets have no bit in common.
#[inline(always)]
fn disjoint(a: &[u64], b: &[u64], w: usize) -> bool {
    let (a, b) = (&a[..w], &b[..w]);
    if w == 1 {
        return a[0] & b[0] == 0;
    }
    let mut any = 0;
    for i in 0..w {
        any |= a[i] & b[i];
    }
    any == 0
}
