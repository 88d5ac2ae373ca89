//! The sets worked out by a walk over the board: `ray(s, d)` along a direction up to a blocker,
//! `connected(FROM, THROUGH)` (a search through the links) and `neighbours(SET)`.

use crate::engine::compile::tables::Tables;
use crate::engine::state::{Board, Regs};
use std::sync::Arc;

/// What a flood reads of a set of sites (the compiled sets implement it).
pub(crate) trait Sites {
    /// Calls `f` on each site until it returns false; false when stopped early.
    fn each(
        &self,
        b: &Board,
        r: &mut Regs,
        f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
    ) -> bool;
    /// Whether the set holds the site.
    fn has(&self, b: &Board, r: &mut Regs, s: i64) -> bool;
}

/// `connected(FROM, THROUGH)` (with `through`) or `neighbours(SET)` (without): the sites are
/// found at once into the scratch words at `at` (a set of `w` words, then for `connected` a
/// stack of one word a site, for `neighbours` the set's own sites), then listed in order.
pub(crate) struct Flood<S> {
    pub(crate) from: S,
    pub(crate) through: Option<S>,
    pub(crate) at: usize,
    pub(crate) t: Arc<Tables>,
}

impl<S: Sites> Flood<S> {
    /// The words needed in scratch for a board of `nsites` sites in `w` words.
    pub(crate) fn words(connected: bool, nsites: usize, w: usize) -> usize {
        if connected { w + nsites } else { 2 * w }
    }

    /// Finds the sites, into the scratch words at `at` (`w` words).
    fn fill(&self, b: &Board, r: &mut Regs) {
        let (t, at) = (&*self.t, self.at);
        let w = t.layout.w;
        r.scratch[at..at + w].iter_mut().for_each(|x| *x = 0);
        let Some(through) = &self.through else {
            // neighbours(SET): the set's sites first (after the result), then their neighbours
            let own = at + w;
            r.scratch[own..own + w].iter_mut().for_each(|x| *x = 0);
            self.from.each(b, r, &mut |_, r, s| {
                r.scratch[own + s / 64] |= 1 << (s % 64);
                true
            });
            for i in 0..w {
                let mut word = r.scratch[own + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    r.work += t.near[s].len() as u64;
                    for &q in &t.near[s] {
                        let q = q as usize;
                        if r.scratch[own + q / 64] >> (q % 64) & 1 == 0 {
                            r.scratch[at + q / 64] |= 1 << (q % 64);
                        }
                    }
                }
            }
            return;
        };
        // connected(FROM, THROUGH): a search from FROM's sites through THROUGH's
        let stack = at + w;
        let mut sp = 0usize;
        let visit = |b: &Board, r: &mut Regs, s: usize, sp: &mut usize| {
            if r.scratch[at + s / 64] >> (s % 64) & 1 == 0 && through.has(b, r, s as i64) {
                r.scratch[at + s / 64] |= 1 << (s % 64);
                r.scratch[stack + *sp] = s as u64;
                *sp += 1;
            }
        };
        self.from.each(b, r, &mut |b, r, s| {
            visit(b, r, s, &mut sp);
            true
        });
        while sp > 0 {
            sp -= 1;
            let s = r.scratch[stack + sp] as usize;
            r.work += t.near[s].len() as u64;
            for &q in &t.near[s] {
                visit(b, r, q as usize, &mut sp);
            }
        }
    }

    pub(super) fn for_each(
        &self,
        b: &Board,
        r: &mut Regs,
        f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
    ) -> bool {
        self.fill(b, r);
        let (at, w) = (self.at, self.t.layout.w);
        for i in 0..w {
            let mut word = r.scratch[at + i];
            while word != 0 {
                let s = i * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if !f(b, r, s) {
                    return false;
                }
            }
        }
        true
    }
}

/// `ray(s, d)`: calls `f` on each site from s along d (s left out) up to and including the
/// first that holds a piece; on a ring, at most once round it.
pub(super) fn ray(
    t: &Tables,
    start: i64,
    d: i64,
    b: &Board,
    r: &mut Regs,
    f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
) -> bool {
    let Some(first) = t.site(start) else {
        return true;
    };
    let mut s = first;
    loop {
        let next = match t.compass.index(d) {
            Some(i) => t.compass.step[i][s],
            None => t.next[usize::from(d != 0)][s],
        };
        if next == u16::MAX || next as usize == first {
            return true;
        }
        s = next as usize;
        r.work += 1;
        if !f(b, r, s) {
            return false;
        }
        if b.index.total[s] > 0 {
            return true;
        }
    }
}
