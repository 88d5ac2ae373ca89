//! Sowing: picking up a site, the order of drops in a lap (which the sower may choose), the
//! drops along the ring, and the cycle rule.

use super::compile::Skip;
use super::state::{Fault, raise};
use super::{Decision, Game, LAP_LIMIT, Pending, State, WORK_LIMIT};
use crate::ir::{PieceKind, SiteKind};

const NONE: u16 = u16::MAX;

impl Game {
    /// Site `s` picked up: its counters go to the hand (its tokens stay).
    #[inline]
    pub(crate) fn pick_up(&self, st: &mut State, s: usize) {
        let b = &mut st.b;
        if b.seen.keys.is_some() {
            b.hash_pick_up(s);
        }
        let nk = b.nk;
        if nk == 1 {
            // one kind of piece (most sowing games): no loop
            st.sow.hand[0] += std::mem::take(&mut b.counts[s]);
        } else {
            // (the kinds the site holds, most often few: a test each, no vector loop to set up)
            let counts = &mut b.counts[s * nk..(s + 1) * nk];
            for (h, c) in st.sow.hand[..nk].iter_mut().zip(counts) {
                if *c > 0 {
                    *h += std::mem::take(c);
                }
            }
        }
        let left = b.toks.count_at[s];
        b.index.total[s] = left;
        let l = &self.prog.t.layout;
        l.set(&mut b.index.bits, l.nonempty(), s, left > 0);
    }

    pub(crate) fn put_back(&self, st: &mut State) {
        if st.sow.cursor == NONE {
            return;
        }
        let l = &self.prog.t.layout;
        let s = st.sow.cursor as usize;
        for k in 0..self.pieces.len() {
            let c = std::mem::take(&mut st.sow.hand[k]);
            if c > 0 {
                st.b.add_counters(l, s, k, c);
            }
        }
    }

    /// Records the position at the start of a lap; true when it was seen before in this sowing.
    /// A cheap key (where the hand is, and how many pieces it holds) is compared first; the
    /// whole position only when the keys are equal.
    pub(crate) fn lap_repeats(&self, st: &mut State) -> bool {
        if st.sow.lap_keys.len() >= LAP_LIMIT {
            return true;
        }
        let in_hand: u64 = st.sow.hand.iter().map(|&c| c as u64).sum();
        let key = (st.sow.cursor as u64) | (in_hand << 16);
        // the earlier laps' keys are read, and this lap's position copied: work
        let read = st.sow.lap_keys.len() + st.b.counts.len() + st.sow.hand.len();
        st.r.work += read as u64;
        let sow = &mut st.sow;
        // One kind of piece: the hand is the count in the key, and is not kept again.
        let hand: &[u32] = if st.b.nk == 1 { &[] } else { &sow.hand };
        let (nc, len) = (st.b.counts.len(), st.b.counts.len() + hand.len());
        for (i, &old) in sow.lap_keys.iter().enumerate() {
            if old == key
                && sow.lap_snaps[i * len..i * len + nc] == st.b.counts[..]
                && sow.lap_snaps[i * len + nc..(i + 1) * len] == *hand
            {
                return true;
            }
        }
        sow.lap_snaps.extend_from_slice(&st.b.counts);
        sow.lap_snaps.extend_from_slice(hand);
        sow.lap_keys.push(key);
        false
    }

    /// Prepares the drop order of the lap: the plain pieces (the first kind) in the remaining
    /// steps, the others placed by the sower when `orders` is set and more than one order exists.
    pub(crate) fn init_plan(&self, st: &mut State, orders: bool) {
        st.sow.plan.clear();
        if !orders {
            return;
        }
        let total: usize = st.sow.hand.iter().map(|&c| c as usize).sum();
        let kinds_in_hand = st.sow.hand.iter().filter(|&&c| c > 0).count();
        if kinds_in_hand > 1 {
            if total > u16::MAX as usize {
                // a slot is named by 16 bits: the game ends with this fault
                raise(&st.b.fault, Fault::LapTooLongToOrder);
                return;
            }
            st.sow.plan.resize(total, u8::MAX);
            st.sow.planning = true;
        }
        // Otherwise the plan stays empty: the lap drops the kinds in their order.
    }

    /// Places the next non-plain piece of the plan. Returns true when a decision is needed
    /// (the legal slots are in `moves`); false when the plan is complete.
    pub(crate) fn plan_step(&self, st: &mut State) -> bool {
        loop {
            // Each step reads the plan a few times: linear in its length, counted as work.
            let n = st.sow.plan.len();
            st.r.work += n as u64 * 2;
            let mut next_kind = None;
            for k in 1..self.pieces.len() {
                let placed = st.sow.plan.iter().filter(|&&x| x as usize == k).count();
                if placed < st.sow.hand[k] as usize {
                    next_kind = Some((k, st.sow.hand[k] as usize - placed));
                    break;
                }
            }
            let Some((k, remaining)) = next_kind else {
                for p in st.sow.plan.iter_mut() {
                    if *p == u8::MAX {
                        *p = 0;
                    }
                }
                st.sow.planning = false;
                return false;
            };
            let min_slot = st
                .sow
                .plan
                .iter()
                .rposition(|&x| x as usize == k)
                .map(|i| i + 1)
                .unwrap_or(0);
            // A free slot is legal when enough free slots follow it for the rest of this kind:
            // found from the end, then put in increasing order.
            st.moves.clear();
            let mut free_after = 0;
            for slot in (min_slot..n).rev() {
                if st.sow.plan[slot] != u8::MAX {
                    continue;
                }
                if free_after + 1 >= remaining {
                    st.moves.push(Decision::Drop { slot: slot as u16 });
                }
                free_after += 1;
            }
            st.moves.reverse();
            // One possible slot (or none, which cannot happen): nothing to choose.
            if st.moves.len() <= 1 {
                if let Some(Decision::Drop { slot }) = st.moves.first().copied() {
                    st.sow.plan[slot as usize] = k as u8;
                } else {
                    st.sow.planning = false;
                    return false;
                }
                st.moves.clear();
                continue;
            }
            st.pending = Pending::Drop(PieceKind(k as u8));
            return true;
        }
    }

    /// Sows the hand along the ring, one piece a site, from the site after the cursor.
    /// Returns the site of the last drop (-1 if nothing was dropped).
    #[inline(always)]
    pub(crate) fn sow_lap(&self, st: &mut State, skip: Option<&Skip>) -> i64 {
        if st.b.seen.keys.is_some() {
            self.sow_lap_hashed::<false>(st, skip).0
        } else {
            self.lap::<false, false>(st, skip).0
        }
    }

    /// `sow_lap`, and the number of pieces the lap dropped (for a block that reads `sown`).
    #[inline(never)]
    pub(crate) fn sow_lap_counted(&self, st: &mut State, skip: Option<&Skip>) -> (i64, u32) {
        if st.b.seen.keys.is_some() {
            self.sow_lap_hashed::<true>(st, skip)
        } else {
            self.lap::<false, true>(st, skip)
        }
    }

    /// A lap of a game that keeps the hash of its positions: out of the way of the others.
    #[inline(never)]
    fn sow_lap_hashed<const COUNT: bool>(&self, st: &mut State, skip: Option<&Skip>) -> (i64, u32) {
        self.lap::<true, COUNT>(st, skip)
    }

    /// One body for the three kinds of lap: with the hash of the position kept (`HASH`), with
    /// the pieces dropped counted (`COUNT`); each compiled on its own, so that the common lap
    /// pays for neither.
    #[inline(always)]
    fn lap<const HASH: bool, const COUNT: bool>(
        &self,
        st: &mut State,
        skip: Option<&Skip>,
    ) -> (i64, u32) {
        let held_now = |st: &State| st.sow.hand.iter().sum::<u32>();
        let before = if COUNT { held_now(st) } else { 0 };
        let mut last = -1i64;
        let mut ok = st.sow.cursor != NONE;
        let mut mask = 0;
        if let Some(Skip::Stable(q, at)) = skip {
            // The mover's set, built again only when kinds or owners changed since.
            let w = self.prog.t.layout.w;
            mask = at + st.b.mover as usize * (w + 1);
            if st.r.scratch[mask + w] != st.b.index.shape + 1 {
                q.candidates(&st.b, &mut st.r, mask);
                st.r.scratch[mask + w] = st.b.index.shape + 1;
            }
        }
        if st.sow.plan.is_empty() {
            for k in 0..self.pieces.len() {
                if ok && st.sow.hand[k] > 0 {
                    let (from, held) = (st.sow.cursor, st.sow.hand[k]);
                    ok = match skip {
                        None => self.drop_run(st, k, &mut last),
                        Some(Skip::Stable(..)) => self.drop_run_skipping(st, k, mask, &mut last),
                        Some(_) => {
                            let mut ok = true;
                            while ok && st.sow.hand[k] > 0 && st.r.work <= WORK_LIMIT {
                                ok = self.drop_one(st, k, skip, &mut last);
                            }
                            ok && st.sow.hand[k] == 0
                        }
                    };
                    // (dropped one by one, a dynamic skip hashed each drop)
                    if HASH && !matches!(skip, Some(Skip::Dynamic(_))) {
                        let mask = matches!(skip, Some(Skip::Stable(..))).then_some(mask);
                        self.hash_run(st, k, from, held - st.sow.hand[k], mask);
                    }
                }
            }
        } else {
            let plan = std::mem::take(&mut st.sow.plan);
            for &k in &plan {
                if ok && st.sow.hand[k as usize] > 0 {
                    ok = self.drop_one(st, k as usize, skip, &mut last);
                }
            }
            st.sow.plan = plan;
            st.sow.plan.clear();
        }
        let dropped = if COUNT { before - held_now(st) } else { 0 };
        // Anything left in hand (the ring ended) stays where the sowing stopped.
        if !ok && st.sow.hand.iter().any(|&c| c > 0) {
            self.put_back(st);
        }
        (last, dropped)
    }

    /// Drops every piece of kind `k` in hand, one a site (no sites skipped): the common case.
    #[inline(always)]
    fn drop_run(&self, st: &mut State, k: usize, last: &mut i64) -> bool {
        let t = &*self.prog.t;
        let next = &t.next[st.b.sow_dir as usize];
        let cur = st.sow.cursor;
        // A hand larger than the ring goes round whole laps at once: each site of the ring gets
        // the same number of pieces, and the cursor comes back where it was.
        if st.sow.hand[k] as usize > 2 * t.nsites
            && self.drop_laps(st, k, next)
            && st.sow.hand[k] == 0
        {
            *last = cur as i64; // the last piece of the last lap
        }
        self.drops::<false>(st, k, 0, last)
    }

    /// Drops the pieces of kind `k` in hand, at most the work still allowed, one a site from
    /// the site after the cursor (past the sites of the mask in the scratch words at `mask`:
    /// `SKIP`), by the loop for the board's size; true when the hand of that kind is empty.
    #[inline(always)]
    fn drops<const SKIP: bool>(
        &self,
        st: &mut State,
        k: usize,
        mask: usize,
        last: &mut i64,
    ) -> bool {
        let budget = WORK_LIMIT
            .saturating_sub(st.r.work)
            .min(st.sow.hand[k] as u64) as u32;
        let (dropped, cur, ok) = if self.prog.t.layout.w == 1 {
            let skipped = if SKIP { st.r.scratch[mask] } else { 0 };
            self.drops_one_word::<SKIP>(st, k, skipped, budget)
        } else {
            self.drops_many_words::<SKIP>(st, k, mask, budget)
        };
        self.end_run(st, k, dropped, cur, last) && ok
    }

    /// The end of a run of drops of kind `k`: `dropped` pieces left the hand, the last on
    /// site `cur`. True when the hand of that kind is empty.
    #[inline(always)]
    fn end_run(&self, st: &mut State, k: usize, dropped: u32, cur: u16, last: &mut i64) -> bool {
        st.r.work += dropped as u64;
        st.sow.hand[k] -= dropped;
        if dropped > 0 {
            *last = cur as i64;
        }
        st.sow.cursor = cur;
        st.sow.hand[k] == 0
    }

    /// Drops the whole laps of a hand of kind `k` larger than the ring (no sites skipped): the
    /// same as dropping them one by one, at the cost of one visit a site.
    /// True when laps were dropped.
    fn drop_laps(&self, st: &mut State, k: usize, next: &[u16]) -> bool {
        let t = &*self.prog.t;
        let start = st.sow.cursor;
        let mut len = 0usize;
        let mut c = start;
        loop {
            c = next[c as usize];
            if c == NONE || len > t.nsites {
                return false; // the ring is not a cycle: the pieces are dropped one by one
            }
            len += 1;
            if c == start {
                break;
            }
        }
        let laps = st.sow.hand[k] / len as u32;
        if laps == 0 {
            return false;
        }
        let mut marks = Marks::new(t.layout.nonempty());
        let mut c = start;
        for _ in 0..len {
            c = next[c as usize];
            self.deposit_n(st, &mut marks, c as usize, k, laps);
        }
        marks.flush(&mut st.b.index.bits);
        st.sow.hand[k] -= laps * len as u32;
        st.r.work += len as u64;
        true
    }

    /// Drops every piece of kind `k` in hand, one a site, past the sites of the mask built in
    /// the scratch words at `mask` (a sowing that skips sites, which do not change in a lap).
    fn drop_run_skipping(&self, st: &mut State, k: usize, mask: usize, last: &mut i64) -> bool {
        self.drops::<true>(st, k, mask, last)
    }

    /// The drops of `drop_run` and `drop_run_skipping` on a board of more than 64 sites: at
    /// most `budget` pieces of kind `k` from the site after the cursor, past the sites of the
    /// mask in the scratch words at `mask` (`SKIP`): (the pieces dropped, the site of the
    /// last, false when the ring ended or had only skipped sites).
    #[inline(always)]
    fn drops_many_words<const SKIP: bool>(
        &self,
        st: &mut State,
        k: usize,
        mask: usize,
        budget: u32,
    ) -> (u32, u16, bool) {
        let t = &*self.prog.t;
        let next = &t.next[st.b.sow_dir as usize];
        let mut marks = Marks::new(t.layout.nonempty());
        let mut cur = st.sow.cursor;
        let (mut n, mut ok) = (budget, true);
        'drops: while n > 0 {
            let mut c = next[cur as usize];
            if SKIP {
                let mut guard = 0;
                while c != NONE && st.r.scratch[mask + c as usize / 64] >> (c % 64) & 1 != 0 {
                    guard += 1;
                    if guard > t.nsites {
                        ok = false;
                        break 'drops;
                    }
                    c = next[c as usize];
                }
            }
            if c == NONE {
                ok = false;
                break;
            }
            cur = c;
            n -= 1;
            self.deposit(st, &mut marks, c as usize, k);
        }
        marks.flush(&mut st.b.index.bits);
        (budget - n, cur, ok)
    }

    /// The drops of `drop_run` and `drop_run_skipping` on a board whose sites fit one word of
    /// the indexes (64 sites or fewer): the sites skipped (`SKIP`: `skipped`), the stores that
    /// send their pieces to an owner and the sites that received pieces are one word each,
    /// kept in registers. Drops at most `budget` pieces of kind `k` from the site after the
    /// cursor: (the pieces dropped, the site of the last, false when the ring ended or had
    /// only skipped sites).
    #[inline(always)]
    fn drops_one_word<const SKIP: bool>(
        &self,
        st: &mut State,
        k: usize,
        skipped: u64,
        budget: u32,
    ) -> (u32, u16, bool) {
        // One kind of piece (most sowing games): a loop of its own, a site's counter at the
        // site's number.
        if st.b.nk == 1 {
            self.drops_in_word::<SKIP, true>(st, 0, skipped, budget)
        } else {
            self.drops_in_word::<SKIP, false>(st, k, skipped, budget)
        }
    }

    /// `drops_one_word`; `ONE`: the game has one kind of piece (`k` is 0).
    #[inline(always)]
    fn drops_in_word<const SKIP: bool, const ONE: bool>(
        &self,
        st: &mut State,
        k: usize,
        skipped: u64,
        budget: u32,
    ) -> (u32, u16, bool) {
        let t = &*self.prog.t;
        let nsites = t.nsites;
        let next = &t.next[st.b.sow_dir as usize][..nsites];
        let l = &t.layout;
        let mut cur = st.sow.cursor as usize;
        let b = &mut st.b;
        let banking = b.index.bits[l.kind(SiteKind::Store)] & !b.index.bits[l.owner(-1)];
        let nk = b.nk;
        // (cut to the sites: a site found below `nsites` needs no other bounds check there)
        let (counts, total, bank, owners) = (
            &mut b.counts[..nsites * nk],
            &mut b.index.total[..nsites],
            &mut b.bank[..],
            &b.owners[..nsites],
        );
        let at = |s: usize| if ONE { s } else { s * nk + k };
        let (mut marks, mut n, mut ok) = (0u64, budget, true);
        'drops: while n > 0 {
            let mut c = next[cur] as usize;
            if SKIP {
                let mut guard = 0;
                // (no site is NONE: the end of the ring is the first test)
                while c < nsites && skipped >> (c % 64) & 1 != 0 {
                    guard += 1;
                    if guard > nsites {
                        ok = false;
                        break 'drops;
                    }
                    c = next[c] as usize;
                }
            }
            if c >= nsites {
                ok = false;
                break;
            }
            cur = c;
            n -= 1;
            if banking >> c & 1 != 0 {
                bank[at(owners[c] as usize)] += 1;
            } else {
                counts[at(c)] += 1;
                total[c] += 1;
                marks |= 1 << c;
            }
        }
        b.index.bits[l.nonempty()] |= marks;
        (budget - n, cur as u16, ok)
    }

    /// One piece of kind `k` dropped on site `s`: a store with an owner sends it to the
    /// owner's captures at once.
    #[inline(always)]
    fn deposit(&self, st: &mut State, marks: &mut Marks, s: usize, k: usize) {
        if st.b.kinds[s] == SiteKind::Store && st.b.owners[s] >= 0 {
            let owner = st.b.owners[s] as usize;
            st.b.bank[owner * st.b.nk + k] += 1;
        } else {
            st.b.counts[s * st.b.nk + k] += 1;
            st.b.index.total[s] += 1;
            marks.mark(&mut st.b.index.bits, s);
        }
    }

    /// `n` pieces of kind `k` dropped on site `s`, as `deposit` does one.
    fn deposit_n(&self, st: &mut State, marks: &mut Marks, s: usize, k: usize, n: u32) {
        if st.b.kinds[s] == SiteKind::Store && st.b.owners[s] >= 0 {
            let owner = st.b.owners[s] as usize;
            st.b.bank[owner * st.b.nk + k] += n;
        } else {
            st.b.counts[s * st.b.nk + k] += n;
            st.b.index.total[s] += n;
            marks.mark(&mut st.b.index.bits, s);
        }
    }

    /// Drops one piece of kind `k` on the next site; false when the ring has no next site.
    fn drop_one(&self, st: &mut State, k: usize, skip: Option<&Skip>, last: &mut i64) -> bool {
        let t = &self.prog.t;
        let d = st.b.sow_dir as usize;
        let mut c = t.next[d][st.sow.cursor as usize];
        if let Some(skip) = skip {
            let mut guard = 0;
            while c != NONE
                && guard <= t.nsites
                && match skip {
                    Skip::Stable(_, at) => {
                        let w = t.layout.w;
                        let at = at + st.b.mover as usize * (w + 1);
                        st.r.scratch[at + c as usize / 64] >> (c % 64) & 1 != 0
                    }
                    Skip::Dynamic(set) => set.contains(&st.b, &mut st.r, c as i64),
                }
            {
                c = t.next[d][c as usize];
                guard += 1;
            }
            if guard > t.nsites {
                c = NONE;
            }
        }
        if c == NONE {
            return false;
        }
        st.r.work += 1;
        st.sow.cursor = c;
        st.sow.hand[k] -= 1;
        let mut marks = Marks::new(t.layout.nonempty());
        self.deposit(st, &mut marks, c as usize, k);
        marks.flush(&mut st.b.index.bits);
        st.b.hash_drops(c as usize, k, 1);
        *last = c as i64;
        true
    }
}

/// The sites that receive pieces during a run of drops, gathered a word at a time and written
/// into the index of sites with pieces when the word changes (or at the end): one write per
/// word instead of one per drop.
struct Marks {
    at: usize,
    word: usize,
    bits: u64,
}

impl Marks {
    #[inline(always)]
    fn new(nonempty: usize) -> Self {
        Marks {
            at: nonempty,
            word: usize::MAX,
            bits: 0,
        }
    }

    #[inline(always)]
    fn mark(&mut self, index: &mut [u64], s: usize) {
        if s / 64 != self.word {
            self.flush(index);
            self.word = s / 64;
        }
        self.bits |= 1 << (s % 64);
    }

    #[inline(always)]
    fn flush(&mut self, index: &mut [u64]) {
        if self.bits != 0 {
            index[self.at + self.word] |= self.bits;
            self.bits = 0;
        }
    }
}
