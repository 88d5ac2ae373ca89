//! The history of positions, for `repeated`: a hash of the position (Zobrist-style: a random
//! key for each part of it, from a fixed seed when the game is loaded) kept up to date by every
//! change of the board, and a table of the hashes of the positions at the start of each turn.
//!
//! A position, for this, is: the counters of each kind on each site, each site's kind and
//! owner, every token's place (its site, its level in the stack and its track position, or
//! its area), what each player holds, and the player to move. Tallies, the turn and the round
//! are not part of it. Hashes are combined by addition, so the hash of a position does not
//! depend on the order of the changes that led to it; a count's key is multiplied by the count.
//!
//! Nothing of this is paid by a game whose rules never ask `repeated`: without keys, every
//! hook is one test of an empty `Option`.

use super::tokens::{ON_BOARD, UNPLACED};
use crate::ir::Game as Ir;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The seed of the keys: the same keys at every load, so that hashes are deterministic.
const SEED: u64 = 0x6c75_6469_6320_6869;
/// Positions reserved in the table when the state is made (more are added as needed).
const RESERVED: usize = 1 << 12;
/// Positions a look-ahead's overlay holds without allocating (a look-ahead ends at the end of
/// the mover's turn: one, unless `another turn` goes round without a choice).
const OVERLAY: usize = 4;

/// The names given out so far to the threads, a block at a time (see `Positions::id`).
static LAST_ID: AtomicU64 = AtomicU64::new(0);
/// Names a thread takes at once from `LAST_ID`.
const ID_BLOCK: u64 = 1 << 20;

thread_local! {
    /// This thread's next name and the end of its block (exclusive).
    static IDS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// A name for the contents of a history not used before by any history of this process. Each
/// thread names from its own block: a counter shared by the threads and written at each
/// position of every playout passed its cache line between the cores at each write (threads
/// playing side by side slowed each other down).
fn fresh_id() -> u64 {
    IDS.with(|ids| {
        let (next, end) = ids.get();
        if next == end {
            let base = LAST_ID.fetch_add(ID_BLOCK, Ordering::Relaxed);
            ids.set((base + 2, base + 1 + ID_BLOCK));
            base + 1
        } else {
            ids.set((next + 1, end));
            next
        }
    })
}

/// The random keys of a game's positions.
#[derive(Debug)]
pub(crate) struct Keys {
    pub(super) nk: usize,
    pub(super) nsites: usize,
    npieces: usize,
    pub(super) players: usize,
    nareas: usize,
    /// `site * nk + kind`: added once for each counter there
    pub(super) counts: Vec<u64>,
    /// `player * nk + kind`: once for each piece held
    pub(super) bank: Vec<u64>,
    /// `site * 5 + kind of site`
    pub(super) kinds: Vec<u64>,
    /// `site * (players + 1) + owner + 1`
    pub(super) owners: Vec<u64>,
    /// `class * nsites + site` (class: owner and kind of a token), mixed with its level and
    /// its track position
    pub(super) stack: Vec<u64>,
    /// `class * (areas + 1) + area` (the last for tokens not placed yet)
    area: Vec<u64>,
    /// the player to move (zeros when he is not part of a position: `position pieces`)
    pub(super) mover: Vec<u64>,
    /// each tally slot (zero for the slots of tallies that are not part of a position)
    pub(super) tallies: Vec<u64>,
}

impl Keys {
    pub(crate) fn new(g: &Ir) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
        let mut keys = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<u64>>();
        let (nk, nsites, players) = (g.pieces.len(), g.sites.len(), g.players.len());
        let classes = players * g.pieces.len();
        Keys {
            nk,
            nsites,
            npieces: g.pieces.len(),
            players,
            nareas: g.areas.len(),
            counts: keys(nsites * nk),
            bank: if g.position_board {
                vec![0; players * nk]
            } else {
                keys(players * nk)
            },
            kinds: keys(nsites * 5),
            owners: keys(nsites * (players + 1)),
            stack: keys(classes * nsites),
            area: if g.position_board {
                vec![0; classes * (g.areas.len() + 1)]
            } else {
                keys(classes * (g.areas.len() + 1))
            },
            mover: if g.position_mover {
                keys(players.max(1))
            } else {
                vec![0; players.max(1)]
            },
            tallies: {
                let mut t = vec![0; g.tally_slots];
                for &(at, n) in &g.position_slots {
                    let (at, n) = (at as usize, n as usize);
                    t[at..at + n].copy_from_slice(&keys(n));
                }
                t
            },
        }
    }

    /// A token's class (its owner and its kind `k`: tokens of one class are interchangeable).
    pub(super) fn class(&self, g: &Ir, t: usize, k: u8) -> usize {
        g.tokens[t].owner.0 as usize * self.npieces + k as usize
    }

    /// The key of token `t` of kind `k` in area `a`.
    pub(super) fn area_key(&self, g: &Ir, t: usize, k: u8, a: u8) -> u64 {
        let a = match a {
            ON_BOARD => return 0,
            UNPLACED => self.nareas,
            a => (a as usize).min(self.nareas),
        };
        self.area[self.class(g, t, k) * (self.nareas + 1) + a]
    }
}

/// The hash of the position and the positions seen at the start of earlier turns.
#[derive(Debug, Default)]
pub(crate) struct Positions {
    /// `None` when the rules never ask `repeated`
    pub(crate) keys: Option<Arc<Keys>>,
    /// the hash of the board and holdings (without the player to move)
    pub(crate) hash: u64,
    /// the hash of each site's stack of tokens
    pub(super) stacks: Vec<u64>,
    /// the positions at the start of earlier turns, in order (a position seen twice is twice)
    list: Vec<u64>,
    /// an open-addressing table of `list` (a slot is used when its generation is `gen`), with
    /// how many times each position is in it
    table: Vec<u64>,
    counts: Vec<u32>,
    gens: Vec<u32>,
    epoch: u32,
    /// the position at the start of the turn being played (added to the history when the
    /// next turn starts)
    start: Option<u64>,
    /// in a look-ahead: the player to move in the position (`mover` is then the player who
    /// decides)
    pub(crate) to_move: Option<u8>,
    /// The name of the contents of `list`, `table`, `counts`, `gens` and `epoch` (the bulk):
    /// every change of them gives a fresh name (`fresh_id`), and a copy takes the name of what
    /// it copies, so two histories with the same name hold the same bulk and `clone_from`
    /// copies it only when the names differ. 0: never named (empty, `Default`).
    id: u64,
    /// Set on a look-ahead's scratch copy (`start_overlay`): the positions its turn adds, and
    /// its `forget positions`, go to `extra` and `forgot` and leave the bulk as it was copied,
    /// so that the next look-ahead from the same position copies no bulk.
    overlay: bool,
    /// positions added in a look-ahead, after those of the bulk (empty out of look-aheads)
    extra: Vec<u64>,
    /// in a look-ahead: the positions of the bulk were forgotten (false out of look-aheads)
    forgot: bool,
}

impl Clone for Positions {
    fn clone(&self) -> Self {
        Positions {
            keys: self.keys.clone(),
            hash: self.hash,
            stacks: self.stacks.clone(),
            list: self.list.clone(),
            table: self.table.clone(),
            counts: self.counts.clone(),
            gens: self.gens.clone(),
            epoch: self.epoch,
            start: self.start,
            to_move: self.to_move,
            id: self.id,
            overlay: self.overlay,
            extra: self.extra.clone(),
            forgot: self.forgot,
        }
    }
    /// Reuses the buffers it overwrites; nothing to copy in a game that keeps no hash, and no
    /// bulk when `self` already holds `o`'s (the same `id`).
    fn clone_from(&mut self, o: &Self) {
        if self.keys.is_none() && o.keys.is_none() {
            return;
        }
        self.keys.clone_from(&o.keys);
        self.hash = o.hash;
        self.stacks.clone_from(&o.stacks);
        if self.id != o.id || o.id == 0 {
            self.list.clone_from(&o.list);
            self.table.clone_from(&o.table);
            self.counts.clone_from(&o.counts);
            self.gens.clone_from(&o.gens);
            self.epoch = o.epoch;
            self.id = o.id;
        }
        self.start = o.start;
        self.to_move = o.to_move;
        self.overlay = o.overlay;
        self.extra.clone_from(&o.extra);
        self.forgot = o.forgot;
    }
}

impl crate::engine::fields::Room for Positions {
    fn room_like(&mut self, o: &Self) {
        let Positions {
            keys: _,
            hash: _,
            stacks,
            list,
            table,
            counts,
            gens,
            epoch: _,
            start: _,
            to_move: _,
            id: _,
            overlay: _,
            extra,
            forgot: _,
        } = o;
        self.stacks.room_like(stacks);
        self.list.room_like(list);
        self.table.room_like(table);
        self.counts.room_like(counts);
        self.gens.room_like(gens);
        self.extra.room_like(extra);
    }
    fn fits(&self, o: &Self) -> bool {
        // (as `clone_from` copies: nothing when neither keeps a history, no bulk when this
        // one holds `o`'s already)
        let bulk = (self.id == o.id && o.id != 0)
            || (self.list.fits(&o.list)
                && self.table.fits(&o.table)
                && self.counts.fits(&o.counts)
                && self.gens.fits(&o.gens));
        (self.keys.is_none() && o.keys.is_none())
            || (self.stacks.fits(&o.stacks) && self.extra.fits(&o.extra) && bulk)
    }
    fn bytes(&self) -> usize {
        self.stacks.bytes()
            + self.list.bytes()
            + self.table.bytes()
            + self.counts.bytes()
            + self.gens.bytes()
            + self.extra.bytes()
    }
}

/// Two histories are equal when they hold the same positions (in any order) and the same
/// position now. The destructuring names every field and has no `..`: a field added breaks the
/// build until it is compared or skipped here with the reason.
impl PartialEq for Positions {
    fn eq(&self, o: &Self) -> bool {
        let Positions {
            // the game's keys, the same for every state of a game
            keys: _,
            hash,
            // each stack's share of `hash`, which `hash` already sums
            stacks: _,
            // the positions of the bulk: compared below with those a look-ahead added (`all`)
            list: _,
            // the look-up table of `list`, its generations and epoch: an index of `list`
            table: _,
            counts: _,
            gens: _,
            epoch: _,
            start,
            // set only in a look-ahead's scratch copy, which is not part of the position
            to_move: _,
            // the name of the bulk and whether a look-ahead adds to it: not positions
            id: _,
            overlay: _,
            // the positions a look-ahead added or forgot: compared with the bulk's (`all`)
            extra: _,
            forgot: _,
        } = self;
        let (mut a, mut b) = (self.all(), o.all());
        a.sort_unstable();
        b.sort_unstable();
        *hash == o.hash && *start == o.start && a == b
    }
}

/// Mixes a hash's bits (the finalizer of SplitMix64).
#[inline(always)]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Positions {
    pub(crate) fn new(g: &Ir, keys: Option<Arc<Keys>>) -> Self {
        let reserve = if keys.is_some() {
            (g.turn_limit as usize).saturating_add(1).min(RESERVED)
        } else {
            0
        };
        let keys_kept = keys.is_some();
        let slots = if keys_kept { 64 } else { 0 };
        let mut table = Vec::with_capacity((reserve * 2).next_power_of_two().max(slots));
        table.resize(slots, 0);
        let mut gens = Vec::with_capacity(table.capacity());
        gens.resize(slots, 0);
        let mut counts = Vec::with_capacity(table.capacity());
        counts.resize(slots, 0);
        Positions {
            stacks: if keys.is_some() {
                vec![0; g.sites.len()]
            } else {
                vec![]
            },
            keys,
            hash: 0,
            list: Vec::with_capacity(reserve),
            table,
            counts,
            gens,
            epoch: 1,
            start: None,
            to_move: None,
            id: fresh_id(),
            overlay: false,
            extra: Vec::with_capacity(if keys_kept { OVERLAY } else { 0 }),
            forgot: false,
        }
    }

    /// Every position of the history, in order.
    fn all(&self) -> Vec<u64> {
        let base: &[u64] = if self.forgot { &[] } else { &self.list };
        base.iter().chain(&self.extra).copied().collect()
    }

    /// From now on (until the next `clone_from`), the positions added and forgotten leave the
    /// bulk as it is (a look-ahead's scratch copy, see `overlay`).
    pub(crate) fn start_overlay(&mut self) {
        self.overlay = true;
    }

    /// The positions added and forgotten change the history itself again (a test's reference
    /// for the overlay).
    #[cfg(test)]
    pub(crate) fn end_overlay(&mut self) {
        self.overlay = false;
    }

    /// `n` counters more (or fewer) of a kind at a site (`i = site * nk + kind`).
    #[inline(always)]
    pub(crate) fn count(&mut self, i: usize, delta: i64) {
        if self.keys.is_some() {
            self.count_hashed(i, delta);
        }
    }

    #[cold]
    #[inline(never)]
    fn count_hashed(&mut self, i: usize, delta: i64) {
        if let Some(k) = &self.keys {
            self.hash = self
                .hash
                .wrapping_add(k.counts[i].wrapping_mul(delta as u64));
        }
    }

    /// `n` pieces more (or fewer) held (`i = player * nk + kind`).
    #[inline(always)]
    pub(crate) fn bank(&mut self, i: usize, delta: i64) {
        if self.keys.is_some() {
            self.bank_hashed(i, delta);
        }
    }

    #[cold]
    #[inline(never)]
    fn bank_hashed(&mut self, i: usize, delta: i64) {
        if let Some(k) = &self.keys {
            self.hash = self.hash.wrapping_add(k.bank[i].wrapping_mul(delta as u64));
        }
    }

    /// A tally slot changed from `old` to `new`.
    #[inline]
    pub(crate) fn tally(&mut self, i: usize, old: i64, new: i64) {
        if let Some(k) = &self.keys {
            let key = k.tallies.get(i).copied().unwrap_or(0);
            self.hash = self
                .hash
                .wrapping_add(key.wrapping_mul(new.wrapping_sub(old) as u64));
        }
    }

    /// A site's kind changed.
    #[inline]
    pub(crate) fn kind(&mut self, s: usize, old: usize, new: usize) {
        if let Some(k) = &self.keys {
            self.hash = self
                .hash
                .wrapping_sub(k.kinds[s * 5 + old])
                .wrapping_add(k.kinds[s * 5 + new]);
        }
    }

    /// A site's owner changed (-1 for none).
    #[inline]
    pub(crate) fn owner(&mut self, s: usize, old: i8, new: i8) {
        if let Some(k) = &self.keys {
            let at = |o: i8| s * (k.players + 1) + (o as i64 + 1) as usize;
            self.hash = self
                .hash
                .wrapping_sub(k.owners[at(old)])
                .wrapping_add(k.owners[at(new)]);
        }
    }

    /// The hash of the position with `mover` to move.
    #[inline]
    pub(crate) fn position(&self, mover: u8) -> u64 {
        let k = self
            .keys
            .as_ref()
            .map_or(0, |k| k.mover.get(mover as usize).copied().unwrap_or(0));
        mix(self.hash.wrapping_add(k))
    }

    /// `repeated`: the position was at the start of an earlier turn since the history was last
    /// cleared.
    #[inline]
    pub(crate) fn repeated(&self, mover: u8) -> bool {
        self.repetitions(mover) > 0
    }

    /// `repetitions`: how many times the position was at the start of an earlier turn since the
    /// history was last cleared.
    #[inline]
    pub(crate) fn repetitions(&self, mover: u8) -> u32 {
        if self.keys.is_none() {
            return 0;
        }
        self.count_of(self.position(self.to_move.unwrap_or(mover)))
    }

    /// A turn starts with `mover` to move: the start of the last one joins the history.
    #[inline(always)]
    pub(crate) fn turn_begins(&mut self, mover: u8) {
        if self.keys.is_some() {
            self.record_start(mover);
        }
    }

    #[inline(never)]
    fn record_start(&mut self, mover: u8) {
        if let Some(h) = self.start.take() {
            self.insert(h);
        }
        self.start = Some(self.position(mover));
    }

    /// A round starts: the history is cleared, and this is the start of its first turn.
    pub(crate) fn round_begins(&mut self, mover: u8) {
        if self.keys.is_none() {
            return;
        }
        self.forget();
        self.start = Some(self.position(mover));
    }

    /// `forget positions`: no position seen so far counts, the start of this turn included.
    #[inline(never)]
    pub(crate) fn forget(&mut self) {
        self.start = None;
        self.extra.clear();
        if self.overlay {
            self.forgot = true;
            return;
        }
        self.id = fresh_id();
        self.list.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.gens.iter_mut().for_each(|g| *g = 0);
            self.epoch = 1;
        }
    }

    /// Positions in the history (the start of the turn being played not counted).
    pub(crate) fn len(&self) -> usize {
        let base = if self.forgot { 0 } else { self.list.len() };
        base + self.extra.len()
    }

    fn count_of(&self, h: u64) -> u32 {
        let extra = self.extra.iter().filter(|&&x| x == h).count() as u32;
        if self.forgot {
            return extra;
        }
        extra + self.count_in_bulk(h)
    }

    fn count_in_bulk(&self, h: u64) -> u32 {
        if self.list.is_empty() || self.table.is_empty() {
            return 0;
        }
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        loop {
            if self.gens[i] != self.epoch {
                return 0;
            }
            if self.table[i] == h {
                return self.counts[i];
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, h: u64) {
        if self.overlay {
            self.extra.push(h);
            return;
        }
        self.id = fresh_id();
        self.list.push(h);
        if self.list.len() * 2 > self.table.len() {
            // Twice the room (within what was reserved, nothing is allocated), and every
            // position of the history put in again.
            let n = (self.table.len() * 2).max(64);
            self.table.resize(n, 0);
            self.counts.resize(n, 0);
            self.gens.resize(n, 0);
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                self.gens.iter_mut().for_each(|g| *g = 0);
                self.epoch = 1;
            }
            for i in 0..self.list.len() {
                let x = self.list[i];
                self.place(x);
            }
        } else {
            self.place(h);
        }
    }

    fn place(&mut self, h: u64) {
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        while self.gens[i] == self.epoch {
            if self.table[i] == h {
                self.counts[i] += 1;
                return;
            }
            i = (i + 1) & mask;
        }
        self.gens[i] = self.epoch;
        self.table[i] = h;
        self.counts[i] = 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::history::{ID_BLOCK, fresh_id};

    /// Names are never 0 and never given twice, by one thread past the end of its block or by
    /// threads side by side.
    #[test]
    fn names_are_fresh_across_blocks_and_threads() {
        let take = || (0..ID_BLOCK + 10).map(|_| fresh_id()).collect::<Vec<_>>();
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(take);
            let b = s.spawn(take);
            (a.join().unwrap_or_default(), b.join().unwrap_or_default())
        });
        let mut all = [a, b, take()].concat();
        assert_eq!(all.len() as u64, 3 * (ID_BLOCK + 10));
        assert!(!all.contains(&0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len() as u64, 3 * (ID_BLOCK + 10), "a name given twice");
    }
}
