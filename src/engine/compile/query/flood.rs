//! The sets worked out by a walk over the board: `ray(s, d)` along a direction up to a blocker,
//! `connected(FROM, THROUGH)` (a search through the links) and `neighbours(SET)`.

use super::question::Question;
use crate::engine::compile::num::Num;
use crate::engine::compile::tables::Tables;
use crate::engine::state::{Board, Regs};
use crate::ir::VarId;
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
    /// For a question over sites: the sites its indexed tests allow, into the scratch words
    /// at `out` (then [`Sites::holds`] tests the rest); false for another set.
    fn candidates(&self, b: &Board, r: &mut Regs, out: usize) -> bool;
    /// Whether a site among the candidates at `out` is in the set.
    fn holds(&self, b: &Board, r: &mut Regs, out: usize, s: usize) -> bool;
    /// Whether [`Sites::candidates`] gives exactly the set's sites (nothing left to test one
    /// site at a time: [`Sites::holds`] is then the candidate's bit).
    fn exact(&self) -> bool;
    /// For a set of one site at most (`connected(s, …)`): its site, worked out as
    /// [`Sites::each`] would (`Some(None)`: no site); `None` for another set.
    fn single(&self, _b: &Board, _r: &mut Regs) -> Option<Option<usize>> {
        None
    }
}

/// `connected(FROM, THROUGH)` (with `through`) or `neighbours(SET)` (without): the sites are
/// found at once into the scratch words at `at` (a set of `w` words, then for `connected` a
/// stack of one word a site, for `neighbours` the set's own sites), then listed in order.
///
/// When THROUGH's candidates are exactly its sites and the board keeps each site's
/// neighbours as a set ([`Tables::near_bits`]), `connected` spreads by words: each site found
/// adds at once its neighbours among THROUGH's sites not yet found. It finds the same sites and counts the
/// same work (each site found: its number of neighbours) as the search one site at a time.
pub(crate) struct Flood<S> {
    pub(crate) from: S,
    pub(crate) through: Option<S>,
    pub(crate) at: usize,
    pub(crate) t: Arc<Tables>,
    /// where the sites found are kept while the board stays as it is
    pub(crate) memo: Option<Memo>,
    /// `connected` spreads by words (see above); `neighbours(SET)` adds each site's
    /// neighbours as a set
    pub(crate) by_words: bool,
}

#[cfg(test)]
thread_local! {
    /// Set by a test: the floods compiled now search one site at a time (never by words).
    pub(crate) static ONE_AT_A_TIME: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The floods compiled to spread by words so far (read by a test).
    pub(crate) static BY_WORDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The questions over floods compiled to meet words so far (read by a test).
    pub(crate) static MEETS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The runs of questions over one flood compiled to find it once so far (read by a test).
    pub(crate) static SHARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The questions over a set (no flood) compiled to test its sites by the indexes so far
    /// (`set_meets`; read by a test).
    pub(crate) static SET_MEETINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<S: Sites> Flood<S> {
    /// Whether `connected(FROM, through)` (`neighbours(SET)` without `through`) may work by
    /// words on the board of `t`.
    pub(crate) fn spreads_by_words(t: &Tables, through: Option<&S>) -> bool {
        #[cfg(test)]
        if ONE_AT_A_TIME.with(std::cell::Cell::get) {
            return false;
        }
        let yes = through.is_none_or(S::exact) && !t.near_bits.is_empty();
        #[cfg(test)]
        BY_WORDS.with(|c| c.set(c.get() + yes as usize));
        yes
    }
}

impl<S: Sites> Flood<S> {
    /// Whether `exists v in FLOOD where c` may meet the flood's words with c's (false in a
    /// test that compiles every flood one site at a time).
    pub(crate) fn meets_by_words() -> bool {
        #[cfg(test)]
        if ONE_AT_A_TIME.with(std::cell::Cell::get) {
            return false;
        }
        true
    }

    /// Counts a question compiled to meet a flood's words (read by a test).
    pub(crate) fn counts_a_meeting() {
        #[cfg(test)]
        MEETS.with(|c| c.set(c.get() + 1));
    }

    /// Counts a run of questions over one flood compiled to find it once (read by a test).
    pub(crate) fn counts_a_shared_flood() {
        #[cfg(test)]
        SHARED.with(|c| c.set(c.get() + 1));
    }
}

/// The sites of a flood that reads no variable but `key` (a site), kept while the legal
/// decisions are listed (`Regs::still`: the board does not change then), one set for each
/// value of `key`: a flood asked again from the same site is read back.
///
/// With `class`, the flood gives the same sites from every site of a set it finds (its class):
/// `connected(v, (x where C))` where each conjunct of C reads no `v` or says that a value of the
/// site (its pieces of some kinds, its owner, its kind, the owner of its top token, a `per
/// site` tally) is the value at `v` (`count(x, k) == count(v, k)`), on a board whose links go
/// both ways: its class is the sites it finds (from any of them the same condition joins the
/// same sites); `neighbours(F)` of such a flood F: F's sites. The sites found are then kept for
/// every site of the class at once.
///
/// In scratch at `at`: a word (the sets kept so far), a word (the sites given a set so far), a
/// word a site (0: no set for it, else the number of its set), the sites given a set (in the
/// order they were given one, to forget them), then room for `cap` sets of `w` words. Before
/// each listing the memo forgets what it kept ([`Memo::forget`]); once `cap` sets are kept, the
/// other floods are worked out as without a memo.
pub(crate) struct Memo {
    pub(crate) key: VarId,
    pub(crate) class: bool,
    pub(crate) at: usize,
    pub(crate) cap: usize,
}

impl Memo {
    /// The scratch words a memo needs on a board of `nsites` sites in `w` words.
    pub(crate) fn words(nsites: usize, w: usize, cap: usize) -> usize {
        2 + 2 * nsites + cap * w
    }

    /// Forgets the sets kept by the memo at `at` (the work is the sites that had one).
    #[inline]
    pub(crate) fn forget(scratch: &mut [u64], at: usize, nsites: usize) {
        let given = scratch[at + 1] as usize;
        if given == 0 {
            return;
        }
        let (labels, list) = (at + 2, at + 2 + nsites);
        for i in 0..given {
            let s = scratch[list + i] as usize;
            scratch[labels + s] = 0;
        }
        scratch[at] = 0;
        scratch[at + 1] = 0;
    }

    /// Gives site `s` the set numbered `label` (it had none).
    #[inline(always)]
    fn give(&self, r: &mut Regs, nsites: usize, s: usize, label: u64) {
        let given = r.scratch[self.at + 1] as usize;
        r.scratch[self.at + 2 + s] = label;
        r.scratch[self.at + 2 + nsites + given] = s as u64;
        r.scratch[self.at + 1] = given as u64 + 1;
    }
}

impl<S: Sites> Flood<S> {
    /// The words needed in scratch for a board of `nsites` sites in `w` words.
    pub(crate) fn words(connected: bool, nsites: usize, w: usize) -> usize {
        if connected { 2 * w + nsites } else { 2 * w }
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
            if self.by_words {
                neighbours_by_words(t, r, at, own);
                return;
            }
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
        // connected(FROM, THROUGH): a search from FROM's sites through THROUGH's (a question
        // over sites gives its candidates once, at the first site tried, then each site is
        // tried with the rest of its condition)
        let (stack, cands) = (at + w, at + w + t.nsites);
        if self.by_words {
            // a site of FROM is found if it is a candidate (asked at the first one, as below)
            if let Some(one) = self.from.single(b, r) {
                if let Some(s) = one {
                    through.candidates(b, r, cands);
                    r.scratch[at + s / 64] |= r.scratch[cands + s / 64] & (1 << (s % 64));
                }
                spread(t, r, at, cands);
                return;
            }
            let mut asked = false;
            self.from.each(b, r, &mut |b, r, s| {
                if !asked {
                    asked = true;
                    through.candidates(b, r, cands);
                }
                if r.scratch[cands + s / 64] >> (s % 64) & 1 != 0 {
                    r.scratch[at + s / 64] |= 1 << (s % 64);
                }
                true
            });
            spread(t, r, at, cands);
            return;
        }
        let mut sp = 0usize;
        let mut ready = None;
        let mut visit = |b: &Board, r: &mut Regs, s: usize, sp: &mut usize| {
            if r.scratch[at + s / 64] >> (s % 64) & 1 != 0 {
                return;
            }
            let asked = *ready.get_or_insert_with(|| through.candidates(b, r, cands));
            let holds = if asked {
                through.holds(b, r, cands, s)
            } else {
                through.has(b, r, s as i64)
            };
            if holds {
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

    /// The sites kept for the key's site (found now if they were not yet), if the memo
    /// serves now: the scratch words where they are.
    #[inline]
    fn kept(&self, b: &Board, r: &mut Regs) -> Option<usize> {
        let m = self.memo.as_ref()?;
        if !r.still {
            return None;
        }
        let t = &*self.t;
        let k = t.site(r.var(m.key))?;
        let (n, w) = (t.nsites, t.layout.w);
        let (labels, sets) = (m.at + 2, m.at + 2 + 2 * n);
        let label = r.scratch[labels + k] as usize;
        if label != 0 {
            r.work += w as u64;
            return Some(sets + (label - 1) * w);
        }
        let used = r.scratch[m.at] as usize;
        if used >= m.cap {
            return None;
        }
        self.fill(b, r);
        let label = used as u64 + 1;
        r.scratch[m.at] = label;
        let set = sets + used * w;
        r.scratch.copy_within(self.at..self.at + w, set);
        m.give(r, n, k, label);
        if m.class {
            // the class: the sites found (`connected`) or the set's own (`neighbours(SET)`)
            let class = if self.through.is_some() {
                self.at
            } else {
                self.at + w
            };
            for i in 0..w {
                let mut word = r.scratch[class + i];
                while word != 0 {
                    let s = i * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if r.scratch[labels + s] == 0 {
                        m.give(r, n, s, label);
                    }
                }
            }
        }
        Some(set)
    }

    /// The scratch words where the sites are: kept, or found now.
    #[inline]
    fn found(&self, b: &Board, r: &mut Regs) -> usize {
        match self.kept(b, r) {
            Some(at) => at,
            None => {
                self.fill(b, r);
                self.at
            }
        }
    }

    /// Whether the set holds a site.
    pub(super) fn contains(&self, b: &Board, r: &mut Regs, s: usize) -> bool {
        let at = self.found(b, r);
        r.scratch[at + s / 64] >> (s % 64) & 1 != 0
    }

    /// Whether some site of the set is one of the question's: its words met with the flood's
    /// (the question asked only when the flood found a site; it counts no work).
    pub(super) fn meets(&self, b: &Board, r: &mut Regs, q: &impl Question) -> bool {
        let at = self.found(b, r);
        self.meets_in(b, r, at, q)
    }

    /// Whether the flood meets each of the questions in turn (false at the first it does not
    /// meet): `exists v in F where c1 and exists w in F where c2`, the flood found once.
    pub(super) fn meets_all(&self, b: &Board, r: &mut Regs, qs: &[impl Question]) -> bool {
        let at = self.found(b, r);
        qs.iter().all(|q| self.meets_in(b, r, at, q))
    }

    /// [`Flood::meets`] of the sites found at `at`.
    #[inline(always)]
    fn meets_in(&self, b: &Board, r: &mut Regs, at: usize, q: &impl Question) -> bool {
        let mut asked = false;
        for i in 0..self.t.layout.w {
            let word = r.scratch[at + i];
            if word == 0 {
                continue;
            }
            if !asked {
                asked = true;
                q.prepare(b, r);
            }
            if word & q.word(b, r, i) != 0 {
                return true;
            }
        }
        false
    }

    pub(super) fn for_each(
        &self,
        b: &Board,
        r: &mut Regs,
        f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
    ) -> bool {
        let at = self.found(b, r);
        let w = self.t.layout.w;
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

/// The sites joined to those at `at` through the candidates at `cands` (all of those at `at`
/// are candidates), by words: into `at`; each site found (those at `at` first) counts its
/// number of neighbours as work. `near_bits` is kept on boards of at most 256 sites (at most
/// 4 words).
fn spread(t: &Tables, r: &mut Regs, at: usize, cands: usize) {
    match t.layout.w {
        1 => spread_words::<1>(t, r, at, cands),
        2 => spread_words::<2>(t, r, at, cands),
        3 => spread_words::<3>(t, r, at, cands),
        _ => spread_words::<4>(t, r, at, cands),
    }
}

/// The neighbours of the sites at `own` that are not among them, into `at` (clear), by words;
/// each site at `own` counts its number of neighbours as work.
fn neighbours_by_words(t: &Tables, r: &mut Regs, at: usize, own: usize) {
    let w = t.layout.w;
    let mut work = 0u64;
    for i in 0..w {
        let mut word = r.scratch[own + i];
        while word != 0 {
            let s = i * 64 + word.trailing_zeros() as usize;
            word &= word - 1;
            work += t.near[s].len() as u64;
            let near = &t.near_bits[s * w..s * w + w];
            for (j, &m) in near.iter().enumerate() {
                r.scratch[at + j] |= m;
            }
        }
    }
    for j in 0..w {
        r.scratch[at + j] &= !r.scratch[own + j];
    }
    r.work += work;
}

/// [`spread`] on a board of `W` words.
#[inline(always)]
fn spread_words<const W: usize>(t: &Tables, r: &mut Regs, at: usize, cands: usize) {
    let mut found = [0u64; W];
    let mut allowed = [0u64; W];
    found.copy_from_slice(&r.scratch[at..at + W]);
    allowed.copy_from_slice(&r.scratch[cands..cands + W]);
    // the sites found whose neighbours are not yet tried (in any order: the sites found and
    // the work, each found site's number of neighbours, do not depend on it)
    let mut todo = found;
    let mut work = 0u64;
    while let Some(i) = (0..W).find(|&i| todo[i] != 0) {
        let s = i * 64 + todo[i].trailing_zeros() as usize;
        todo[i] &= todo[i] - 1;
        work += u64::from(t.degree[s]);
        let near = &t.near_bits[s * W..s * W + W];
        for j in 0..W {
            let new = near[j] & allowed[j] & !found[j];
            found[j] |= new;
            todo[j] |= new;
        }
    }
    r.work += work;
    r.scratch[at..at + W].copy_from_slice(&found);
}

/// `ray(s, d)`: calls `f` on each site from s along d (s left out) up to and including the
/// first that holds a piece; on a ring, at most once round it.
#[inline]
pub(super) fn ray<F>(t: &Tables, start: i64, d: i64, b: &Board, r: &mut Regs, f: &mut F) -> bool
where
    F: FnMut(&Board, &mut Regs, usize) -> bool + ?Sized,
{
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

/// Whether condition `c` holds at every site of line `l` (each visited counts as work).
#[inline]
pub(crate) fn line_full(t: &Tables, l: u32, v: VarId, c: &Num, b: &Board, r: &mut Regs) -> bool {
    t.line(l).iter().all(|&x| {
        r.work += 1;
        r.set(v, x as i64);
        c(b, r) != 0
    })
}

/// `(line v through s: c)`: calls `f` on each site of the lines through s where c holds at
/// every site, in the order of the lines, each site once; false when `f` stopped it.
pub(crate) fn line_sites(
    t: &Tables,
    v: VarId,
    s: &Num,
    c: &Num,
    b: &Board,
    r: &mut Regs,
    f: &mut dyn FnMut(&Board, &mut Regs, usize) -> bool,
) -> bool {
    let Some(s) = t.site(s(b, r)) else {
        return true;
    };
    let lines = t.lines_through(s);
    // the lines that hold, among the first 64 (the others are tested again when needed)
    let mut held = 0u64;
    for (i, &l) in lines.iter().enumerate() {
        if !line_full(t, l, v, c, b, r) {
            continue;
        }
        if i < 64 {
            held |= 1 << i;
        }
        for &x in t.line(l) {
            // a site of an earlier line that holds was given already
            let given = lines[..i].iter().enumerate().any(|(j, &e)| {
                t.line(e).contains(&x)
                    && if j < 64 {
                        held & (1 << j) != 0
                    } else {
                        line_full(t, e, v, c, b, r)
                    }
            });
            if !given && !f(b, r, x as usize) {
                return false;
            }
        }
    }
    true
}
