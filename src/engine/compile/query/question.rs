//! What a question about every site and one about every token share: words of candidates the
//! indexes allow, the rest tried one by one; `for_each`, `exists` and `first` have one body
//! for both.

use crate::engine::state::{Board, Regs};

/// A question over sites or tokens: the words of its candidates, read after `prepare`.
pub(crate) trait Question {
    /// The words of a set of candidates (sites or tokens).
    fn words(&self) -> usize;
    /// Whether the indexes answer alone (no test tried one candidate at a time).
    fn indexed_only(&self) -> bool;
    /// Builds the sets of the tests that need it (before the words are read).
    fn prepare(&self, b: &Board, r: &mut Regs);
    /// Word `i` of the candidates the indexed tests allow (after `prepare`).
    fn word(&self, b: &Board, r: &mut Regs, i: usize) -> u64;
    /// Whether candidate `x` passes the tests tried one candidate at a time (the variable of
    /// the question then holds it where a test reads it).
    fn passes(&self, b: &Board, r: &mut Regs, x: usize) -> bool;

    /// Calls `f` on every answer, in increasing order, until it returns false.
    #[inline]
    fn for_each<F: FnMut(&Board, &mut Regs, usize) -> bool>(
        &self,
        b: &Board,
        r: &mut Regs,
        mut f: F,
    ) -> bool {
        let w = self.words();
        self.prepare(b, r);
        r.work += w as u64;
        for i in 0..w {
            let mut word = self.word(b, r, i);
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                let x = i * 64 + bit;
                r.work += 1;
                if self.passes(b, r, x) && !f(b, r, x) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether some candidate satisfies the question.
    #[inline]
    fn exists(&self, b: &Board, r: &mut Regs) -> bool {
        if self.indexed_only() {
            // The indexes answer alone: is any word of the intersection not empty?
            let w = self.words();
            self.prepare(b, r);
            r.work += w as u64;
            return (0..w).any(|i| self.word(b, r, i) != 0);
        }
        !self.for_each(b, r, |_, _, _| false)
    }

    /// How many candidates satisfy the question: the bits of the indexed words where the
    /// indexes answer alone, else those that pass the rest (the work counted as in `for_each`).
    #[inline]
    fn count(&self, b: &Board, r: &mut Regs) -> i64 {
        if !self.indexed_only() {
            let mut n = 0;
            self.for_each(b, r, |_, _, _| {
                n += 1;
                true
            });
            return n;
        }
        let w = self.words();
        self.prepare(b, r);
        r.work += w as u64;
        let mut n = 0;
        for i in 0..w {
            n += self.word(b, r, i).count_ones() as u64;
        }
        r.work += n;
        n as i64
    }

    /// The first answer of the question, or -1.
    fn first(&self, b: &Board, r: &mut Regs) -> i64 {
        let mut found = -1;
        self.for_each(b, r, |_, _, x| {
            found = x as i64;
            false
        });
        found
    }
}
