//! The positions of a tree's inner nodes, kept so that an iteration does not replay every
//! decision from the root.
//!
//! An iteration's selection needs no position at a decision node (UCB reads the children's
//! statistics), only at a chance node (to draw an outcome) and at the node it ends on (to
//! expand it, or to play out from it). The path is therefore walked without playing it, and the
//! position is made only where it is needed: copied from the deepest node of the path whose
//! position is kept here (the root's is the tree's own), then the decisions and outcomes below
//! it replayed. A node's position is kept when it is expanded (and when a walk passes an inner
//! node without one, as after a subtree is reused), up to [`States::cap`] positions a search:
//! the first expanded are the most visited, near the root.
//!
//! The search is the same with or without the kept positions (the same choices, the same draws
//! of the generator, the same playouts): only the work of replaying changes.

use crate::State;

/// No kept position.
const NONE: u32 = u32::MAX;
/// Buffers made for the first positions kept.
const FIRST: usize = 64;
/// The kept positions of a tree take at most this many bytes.
const KEPT_BYTES: usize = 64 << 20;

/// The kept positions of one tree: a slot for each node, and the positions themselves.
///
/// Their buffers are made while the tree's first search runs (as many as it asks for, twice as
/// many each time), and afterward only at the start of a search, as many more as the last
/// search asked for and had none: a search after the first allocates nothing while it runs.
pub(super) struct States {
    /// per node of the arena: the index of its position in `pool`, or [`NONE`]
    slot: Vec<u32>,
    /// the positions; those past `used` are buffers kept from an earlier search, to reuse
    pool: Vec<State>,
    used: usize,
    cap: usize,
    /// the tree's first search is running: buffers are made as they are needed
    first: bool,
    /// positions this search would have kept and had no buffer for
    unmet: usize,
}

impl States {
    /// At most `cap` positions a search (0: none kept, every path replayed from the root).
    pub(super) fn new(cap: usize) -> States {
        States {
            slot: vec![],
            pool: vec![],
            used: 0,
            cap,
            first: true,
            unmet: 0,
        }
    }

    /// Forgets every kept position (their buffers stay, for the next positions kept), for an
    /// arena of `nodes` nodes, and makes the buffers the last search lacked: copies of `root`
    /// with the room of `scratch` (the state the playouts have grown).
    pub(super) fn reset(&mut self, nodes: usize, root: &State, scratch: &State) {
        self.slot.clear();
        self.slot.resize(nodes, NONE);
        if self.used > 0 || self.unmet > 0 {
            // a search ran: the next ones make their buffers here
            self.first = false;
        }
        let want = (self.used + self.unmet).min(self.cap);
        if want > self.pool.len() {
            self.make(want - self.pool.len(), root, scratch);
        }
        self.used = 0;
        self.unmet = 0;
    }

    /// Makes `n` more buffers: copies of `st` with the room of `scratch` (fewer when they
    /// would take more than [`KEPT_BYTES`] in all).
    fn make(&mut self, n: usize, st: &State, scratch: &State) {
        let made = || {
            let mut p = st.clone();
            p.make_room_like(scratch);
            p
        };
        let first = made();
        self.cap = self
            .cap
            .min(KEPT_BYTES / first.bytes())
            .max(self.pool.len());
        let n = n.min(self.cap - self.pool.len());
        if n > 0 {
            self.pool.push(first);
            self.pool.extend((1..n).map(|_| made()));
        }
    }

    /// Makes room for the slots of an arena grown to `nodes` nodes.
    pub(super) fn grow(&mut self, nodes: usize) {
        if self.slot.len() < nodes {
            self.slot.resize(nodes, NONE);
        }
    }

    /// The kept position of `node`, if any.
    #[inline]
    pub(super) fn get(&self, node: u32) -> Option<&State> {
        match self.slot.get(node as usize) {
            Some(&i) if i != NONE => Some(&self.pool[i as usize]),
            _ => None,
        }
    }

    /// Whether `node` has a kept position.
    #[inline]
    pub(super) fn has(&self, node: u32) -> bool {
        self.slot.get(node as usize).is_some_and(|&i| i != NONE)
    }

    /// Whether another position can be kept in this search.
    #[inline]
    pub(super) fn room(&self) -> bool {
        self.used < self.cap && (self.first || self.used < self.pool.len())
    }

    /// Keeps `st` as the position of `node` (nothing when the search's share is used up, no
    /// buffer is left, or the node has one already).
    pub(super) fn keep(&mut self, node: u32, st: &State) {
        if self.has(node) || node as usize >= self.slot.len() {
            return;
        }
        if !self.room() {
            if self.used < self.cap {
                // no buffer left in a search after the first: the next search makes more
                self.unmet += 1;
            }
            return;
        }
        if self.used == self.pool.len() {
            let more = self.pool.len().max(FIRST).min(self.cap - self.pool.len());
            self.make(more, st, st);
            if self.used == self.pool.len() {
                return;
            }
        }
        // a buffer made before the playouts grew the scratch state may be too small: the
        // position is then not kept (kept positions save work only), rather than allocate
        if !self.pool[self.used].can_copy_without_allocating(st) {
            return;
        }
        self.pool[self.used].clone_from(st);
        self.slot[node as usize] = self.used as u32;
        self.used += 1;
    }
}
