//! A question whose answer depends only on the sites' kinds and owners (and the mover, when
//! it reads whose sites they are), kept until one of those changes: `exists s where kind(s)
//! != void`, `minimum s where kind(s) != void: y(s)`. Its answer and the work it counted are
//! kept in scratch words, stamped with the board's generation of kinds and owners
//! (`Index::shape`, renewed by every change of a kind or an owner and by `reindex`) and the
//! mover; a question asked again before either changes reads them back and counts the same
//! work again. Such a question cannot fault (no value is computed), so the answer, the work
//! and the faults are those of the question asked anew.

use super::{AggKind, SiteQuery, SiteValue};
use crate::engine::compile::num::{Compiler, as_written};
use crate::engine::state::{Board, Regs};

/// Scratch words of a kept answer: the stamp (the shape + 1; 0, never a stamp, before the
/// first answer), the mover it was asked for, the answer and the work it counted.
const WORDS: usize = 4;

#[cfg(test)]
thread_local! {
    /// How many questions were compiled to be kept (for the tests that check the form is used).
    pub(crate) static KEPT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A question kept while the kinds and owners stay the same (see the module's comment).
pub(crate) struct Kept {
    pub(crate) q: SiteQuery,
    /// where its scratch words are
    at: usize,
    /// whether its answer depends on the mover (it reads whose sites are the mover's)
    by_mover: bool,
}

impl Kept {
    /// The kept answer if the board's kinds and owners (and the mover, if it matters) are
    /// those it was found for, counting the work it counted; else `ask`'s, kept.
    #[inline(always)]
    fn answer(
        &self,
        b: &Board,
        r: &mut Regs,
        ask: impl FnOnce(&SiteQuery, &Board, &mut Regs) -> i64,
    ) -> i64 {
        let at = self.at;
        let stamp = b.index.shape.wrapping_add(1);
        let mover = if self.by_mover { b.mover as u64 } else { 0 };
        let kept = &r.scratch[at..at + WORDS];
        if kept[0] == stamp && kept[1] == mover {
            let (value, work) = (kept[2] as i64, kept[3]);
            r.work += work;
            return value;
        }
        let before = r.work;
        let value = ask(&self.q, b, r);
        let work = r.work - before;
        r.scratch[at..at + WORDS].copy_from_slice(&[stamp, mover, value as u64, work]);
        value
    }

    /// Whether some site satisfies the question.
    #[inline]
    pub(crate) fn exists(&self, b: &Board, r: &mut Regs) -> bool {
        use super::Question;
        self.answer(b, r, |q, b, r| q.exists(b, r) as i64) != 0
    }

    /// `minimum` or `maximum` of a fixed value (`SiteValue::Sorted`) over the sites.
    #[inline]
    pub(crate) fn aggregate(&self, b: &Board, r: &mut Regs, kind: AggKind, x: &SiteValue) -> i64 {
        self.answer(b, r, |q, b, r| q.aggregate(b, r, kind, x))
    }
}

impl Compiler {
    /// The question kept while the kinds and owners stay the same, when its answer depends
    /// on nothing else (see [`SiteQuery::is_stable_in_sowing`]); else given back.
    pub(crate) fn kept(&mut self, q: SiteQuery) -> Result<Kept, Box<SiteQuery>> {
        if !q.is_stable_in_sowing() || as_written() {
            return Err(Box::new(q));
        }
        let by_mover = q.plain.iter().any(|&(_, who, _)| who != 0);
        let at = self.scratch(WORDS);
        #[cfg(test)]
        KEPT.with(|c| c.set(c.get() + 1));
        Ok(Kept { q, at, by_mover })
    }
}

/// `minimum` and `maximum` of a fixed value can be kept (a sum may overflow: a fault, raised
/// each time it is asked).
pub(crate) fn keeps_aggregate(kind: AggKind, x: &SiteValue) -> bool {
    matches!(kind, AggKind::Min | AggKind::Max) && matches!(x, SiteValue::Sorted { .. })
}
