//! The position's hash kept up to date by the board's changes (the hooks every change calls),
//! and computed from scratch to check it; the tables it reads are in [`super::history`].

use super::history::{Keys, mix};
use super::state::{Board, State};
use crate::ir::Game as Ir;

impl Board {
    /// The hash of a site's stack of tokens.
    fn stack_hash(&self, g: &Ir, k: &Keys, s: usize) -> u64 {
        let mut h = 0u64;
        for (level, t) in self.toks.at(s as u16).enumerate() {
            let key = k.stack[k.class(g, t, self.toks.kind[t]) * k.nsites + s];
            let pos = self.toks.pos[t] as u32 as u64;
            h = h.wrapping_add(mix(key ^ ((level as u64) << 40) ^ pos));
        }
        h
    }

    /// The stack of a site changed (tokens came, left, or moved within it).
    #[inline]
    pub(crate) fn stack_changed(&mut self, g: &Ir, s: usize) {
        let Some(k) = &self.seen.keys else {
            return;
        };
        let new = self.stack_hash(g, k, s);
        let old = std::mem::replace(&mut self.seen.stacks[s], new);
        self.seen.hash = self.seen.hash.wrapping_sub(old).wrapping_add(new);
    }

    /// Token `t` becomes of kind `kind`: the hash of where it is follows.
    pub(crate) fn set_token_kind(&mut self, g: &Ir, t: usize, kind: u8) {
        let old = self.toks.kind[t];
        self.toks.set_kind(t, kind);
        if old == kind {
            return;
        }
        let Some(k) = &self.seen.keys else {
            return;
        };
        match self.toks.site_of(t) {
            Some(s) => self.stack_changed(g, s.0 as usize),
            None => {
                let a = self.toks.area[t];
                self.seen.hash = self
                    .seen
                    .hash
                    .wrapping_sub(k.area_key(g, t, old, a))
                    .wrapping_add(k.area_key(g, t, kind, a));
            }
        }
    }

    /// A token changed areas (`ON_BOARD` on the board).
    #[inline]
    pub(crate) fn area_changed(&mut self, g: &Ir, t: usize, old: u8, new: u8) {
        let Some(k) = &self.seen.keys else {
            return;
        };
        let kind = self.toks.kind[t];
        let h = self
            .seen
            .hash
            .wrapping_sub(k.area_key(g, t, kind, old))
            .wrapping_add(k.area_key(g, t, kind, new));
        self.seen.hash = h;
    }

    /// The hash of the board and holdings computed from scratch (what the incremental hash
    /// must equal); 0 without keys.
    pub(crate) fn hash_from_scratch(&self, g: &Ir) -> u64 {
        let Some(k) = &self.seen.keys else {
            return 0;
        };
        let mut h = 0u64;
        let add = |h: &mut u64, x: u64| *h = h.wrapping_add(x);
        for (i, &c) in self.counts.iter().enumerate() {
            add(&mut h, k.counts[i].wrapping_mul(c as u64));
        }
        for (i, &c) in self.bank.iter().enumerate() {
            add(&mut h, k.bank[i].wrapping_mul(c as u64));
        }
        for s in 0..k.nsites {
            add(&mut h, k.kinds[s * 5 + self.kinds[s] as usize]);
            add(
                &mut h,
                k.owners[s * (k.players + 1) + (self.owners[s] as i64 + 1) as usize],
            );
            add(&mut h, self.stack_hash(g, k, s));
        }
        for t in 0..g.tokens.len() {
            add(
                &mut h,
                k.area_key(g, t, self.toks.kind[t], self.toks.area[t]),
            );
        }
        for (i, &v) in self.tallies.iter().enumerate() {
            add(
                &mut h,
                k.tallies
                    .get(i)
                    .copied()
                    .unwrap_or(0)
                    .wrapping_mul(v as u64),
            );
        }
        debug_assert_eq!(k.nk, self.nk);
        h
    }

    /// Recomputes the hash and the stacks' hashes (after a position was built by hand).
    pub(crate) fn rehash(&mut self, g: &Ir) {
        let Some(k) = self.seen.keys.clone() else {
            return;
        };
        for s in 0..k.nsites {
            self.seen.stacks[s] = self.stack_hash(g, &k, s);
        }
        self.seen.hash = self.hash_from_scratch(g);
    }
}

impl State {
    /// The hash of the position (board, holdings, player to move), when the rules ask
    /// `repeated` (`None` otherwise: nothing is hashed).
    pub fn position_hash(&self) -> Option<u64> {
        self.b.seen.keys.as_ref()?;
        Some(self.b.seen.position(self.b.mover))
    }

    /// How many positions the history holds (the starts of earlier turns since the last
    /// `forget positions` or the start of the round).
    pub fn positions_seen(&self) -> usize {
        self.b.seen.len()
    }
}

impl Board {
    /// The pieces of site `s` are picked up (before they leave it).
    #[inline(never)]
    pub(crate) fn hash_pick_up(&mut self, s: usize) {
        for k in 0..self.nk {
            let c = self.counts[s * self.nk + k];
            self.seen.count(s * self.nk + k, -(c as i64));
        }
    }

    /// `n` pieces of kind `k` dropped on site `s` by a sowing, as `deposit` drops them (a store
    /// with an owner sends them to the owner).
    #[inline]
    pub(crate) fn hash_drops(&mut self, s: usize, k: usize, n: u32) {
        if self.seen.keys.is_none() {
            return;
        }
        if self.kinds[s] == crate::ir::SiteKind::Store && self.owners[s] >= 0 {
            let owner = self.owners[s] as usize;
            self.seen.bank(owner * self.nk + k, n as i64);
        } else {
            self.seen.count(s * self.nk + k, n as i64);
        }
    }
}

impl super::Game {
    /// The hash of a run of `dropped` drops of kind `k` from site `from` (past the sites of the
    /// skipping mask at `mask`): the drops are walked again once the run is over, so that a run
    /// costs nothing more in a game that keeps no hash (kinds and owners do not change during a
    /// run). Whole laps of a ring are counted at once, as the sowing drops them.
    #[inline(never)]
    pub(crate) fn hash_run(
        &self,
        st: &mut super::State,
        k: usize,
        from: u16,
        dropped: u32,
        mask: Option<usize>,
    ) {
        let t = &*self.prog.t;
        let next = &t.next[st.b.sow_dir as usize];
        let step = |st: &super::State, c: u16| {
            let mut c = next[c as usize];
            if let Some(m) = mask {
                while c != u16::MAX && st.r.scratch[m + c as usize / 64] >> (c % 64) & 1 != 0 {
                    c = next[c as usize];
                }
            }
            c
        };
        let mut left = dropped;
        if mask.is_none() && dropped as usize > t.nsites {
            // the length of the ring from `from`, if it comes back there
            let mut len = 0u32;
            let mut c = from;
            loop {
                c = next[c as usize];
                len += 1;
                if c == u16::MAX || c == from || len as usize > t.nsites {
                    break;
                }
            }
            if c == from {
                let laps = left / len;
                let mut c = from;
                for _ in 0..len {
                    c = next[c as usize];
                    st.b.hash_drops(c as usize, k, laps);
                }
                left -= laps * len;
            }
        }
        let mut c = from;
        for _ in 0..left {
            c = step(st, c);
            if c == u16::MAX {
                break;
            }
            st.b.hash_drops(c as usize, k, 1);
        }
    }
}
