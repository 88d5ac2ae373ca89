//! Bit sets of sites and of tokens, and where each index of the board lives in its word arena.

use crate::ir::SiteKind;

/// Words of a set of `n` elements.
pub(crate) fn words(n: usize) -> usize {
    n.div_ceil(64).max(1)
}

/// A set of sites or tokens that does not change during play, as words.
pub(crate) fn from_fn(n: usize, f: impl Fn(usize) -> bool) -> Vec<u64> {
    let mut v = vec![0u64; words(n)];
    for i in (0..n).filter(|&i| f(i)) {
        v[i / 64] |= 1 << (i % 64);
    }
    v
}

#[inline(always)]
pub(crate) fn test(w: &[u64], i: usize) -> bool {
    w[i / 64] >> (i % 64) & 1 != 0
}

/// Calls `f` on every element of the set, in increasing order, until it returns false.
#[inline(always)]
pub(crate) fn for_each(w: &[u64], mut f: impl FnMut(usize) -> bool) -> bool {
    for (i, &word) in w.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let b = x.trailing_zeros() as usize;
            x &= x - 1;
            if !f(i * 64 + b) {
                return false;
            }
        }
    }
    true
}

/// Where each site index lives in [`crate::engine::Board::bits`]: `w` words per set.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// words of a set of sites
    pub(crate) w: usize,
    players: usize,
}

impl Layout {
    pub(crate) fn new(sites: usize, players: usize) -> Self {
        Layout {
            w: words(sites),
            players,
        }
    }
    /// Words of the whole arena.
    pub(crate) fn len(&self) -> usize {
        self.top_owner(self.players)
    }
    /// Sites of a kind.
    #[inline(always)]
    pub(crate) fn kind(&self, k: SiteKind) -> usize {
        k as usize * self.w
    }
    /// Sites owned by a player (`-1`, or any value outside the players: by nobody).
    #[inline(always)]
    pub(crate) fn owner(&self, o: i8) -> usize {
        let i = if o >= 0 && (o as usize) < self.players {
            o as usize
        } else {
            self.players
        };
        (SiteKind::ALL.len() + i) * self.w
    }
    /// Sites holding at least one piece (counter or token).
    #[inline(always)]
    pub(crate) fn nonempty(&self) -> usize {
        (SiteKind::ALL.len() + self.players + 1) * self.w
    }
    /// Sites holding at least one token.
    #[inline(always)]
    pub(crate) fn tokens_here(&self) -> usize {
        self.nonempty() + self.w
    }
    /// Sites whose top token belongs to player `p`.
    #[inline(always)]
    pub(crate) fn top_owner(&self, p: usize) -> usize {
        self.tokens_here() + (1 + p) * self.w
    }
    #[inline(always)]
    pub(crate) fn set(&self, bits: &mut [u64], offset: usize, i: usize, on: bool) {
        let w = &mut bits[offset + i / 64];
        let m = 1u64 << (i % 64);
        if on {
            *w |= m;
        } else {
            *w &= !m;
        }
    }
}
