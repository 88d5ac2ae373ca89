//! Individual pieces ("tokens"): where each one is (a site, an area off the board, or not yet
//! placed), its position on its side's track, and the stack of each site, bottom to top, kept as
//! a linked list so that moving a token costs the same on any board. Sets of tokens on the
//! board, in each area and not yet placed are kept as bit sets for quantifiers.

use super::bits::words;
use crate::ir::Game as Ir;

const NONE: u16 = u16::MAX;
/// `area` of a token on the board.
pub(crate) const ON_BOARD: u8 = u8::MAX;
/// `area` of a token not placed yet.
pub(crate) const UNPLACED: u8 = u8::MAX - 1;

/// Where every token is.
#[derive(Debug, PartialEq, Eq)]
pub struct Tokens {
    pub(crate) site: Vec<u16>,
    pub(crate) area: Vec<u8>,
    pub(crate) pos: Vec<i32>,
    pub(crate) height: Vec<u32>,
    /// the kind of each token (`set kind(t) = K` changes it)
    pub(crate) kind: Vec<u8>,
    pub(crate) clock: u32,
    /// the top and bottom token of each site (-1 when it holds none)
    pub(crate) top: Vec<i16>,
    pub(crate) bottom: Vec<i16>,
    /// tokens at each site
    pub(crate) count_at: Vec<u32>,
    /// tokens of each kind at each site (site `s`, kind `k` at `s * nk + k`), kept only when
    /// the compiled rules read it (`count(s, K)` reads it instead of walking the stack); empty
    /// otherwise (without tokens, or when no rule reads it), and then no move updates it
    pub(crate) kind_at: Vec<u16>,
    /// the number of kinds of pieces (the stride of `kind_at`)
    pub(crate) nk: usize,
    /// the owner of the top token of each site (-1 for none), as the index records it
    pub(crate) top_owner: Vec<i16>,
    /// the stack of a site as a list: the token above and below each token (-1 for none)
    pub(super) above: Vec<i16>,
    pub(super) below: Vec<i16>,
    /// words of a set of tokens
    pub(crate) tw: usize,
    /// sets of tokens: on the board, not placed, then one for each area
    pub(crate) bits: Vec<u64>,
}

super::fields::clone_by_fields!(Tokens {
    site,
    area,
    pos,
    height,
    kind,
    clock,
    top,
    bottom,
    count_at,
    kind_at,
    nk,
    top_owner,
    above,
    below,
    tw,
    bits,
});

impl Tokens {
    /// `kinds`: whether the counts of each kind at each site are kept (`kind_at`).
    pub(crate) fn new(g: &Ir, kinds: bool) -> Self {
        let n = g.tokens.len();
        let tw = words(n);
        let mut t = Tokens {
            site: vec![NONE; n],
            area: vec![UNPLACED; n],
            pos: (0..n).map(|t| g.before_track(g.tokens[t].owner)).collect(),
            height: vec![0; n],
            kind: g.tokens.iter().map(|t| t.kind.0).collect(),
            clock: 0,
            top: vec![-1; g.sites.len()],
            bottom: vec![-1; g.sites.len()],
            count_at: vec![0; g.sites.len()],
            kind_at: vec![
                0;
                if n > 0 && kinds {
                    g.sites.len() * g.pieces.len()
                } else {
                    0
                }
            ],
            nk: g.pieces.len(),
            top_owner: vec![-1; g.sites.len()],
            above: vec![-1; n],
            below: vec![-1; n],
            tw,
            bits: vec![0; tw * (2 + g.areas.len())],
        };
        for i in 0..n {
            t.mark(i, UNPLACED, true);
        }
        t
    }

    /// The set of tokens in area `a` (`UNPLACED`: not placed yet).
    #[inline(always)]
    pub(crate) fn in_area(&self, a: u8) -> &[u64] {
        let i = self.area_set(a);
        &self.bits[i..i + self.tw]
    }
    fn area_set(&self, a: u8) -> usize {
        match a {
            ON_BOARD => 0,
            UNPLACED => self.tw,
            a => (2 + a as usize) * self.tw,
        }
    }
    fn mark(&mut self, t: usize, a: u8, on: bool) {
        let i = self.area_set(a) + t / 64;
        if let Some(w) = self.bits.get_mut(i) {
            if on {
                *w |= 1 << (t % 64);
            } else {
                *w &= !(1 << (t % 64));
            }
        }
    }

    /// The tokens at a site, bottom first.
    pub(crate) fn at(&self, s: u16) -> impl Iterator<Item = usize> + '_ {
        let mut t = self.bottom.get(s as usize).copied().unwrap_or(-1);
        std::iter::from_fn(move || {
            (t >= 0).then(|| {
                let cur = t as usize;
                t = self.above[cur];
                cur
            })
        })
    }

    /// Whether two tokens are interchangeable: same owner, kind and place.
    pub(crate) fn same_place(&self, g: &Ir, a: usize, b: usize) -> bool {
        g.tokens[a].owner == g.tokens[b].owner
            && self.kind[a] == self.kind[b]
            && self.site[a] == self.site[b]
            && self.area[a] == self.area[b]
            && self.pos[a] == self.pos[b]
    }

    /// The site of a token, if it is on the board.
    pub fn site_of(&self, t: usize) -> Option<crate::ir::SiteId> {
        (self.site[t] != NONE).then_some(crate::ir::SiteId(self.site[t]))
    }

    /// The kind of a token now (`set kind(t) = K` changes it).
    pub fn kind_of(&self, t: usize) -> crate::ir::PieceKind {
        crate::ir::PieceKind(self.kind[t])
    }

    /// The area of a token, if it is in one.
    pub fn area_of(&self, t: usize) -> Option<u8> {
        (self.area[t] != ON_BOARD && self.area[t] != UNPLACED).then_some(self.area[t])
    }

    /// The tokens at a site, bottom first.
    pub fn stack(&self, s: crate::ir::SiteId) -> Vec<usize> {
        self.at(s.0).collect()
    }

    pub fn position(&self, t: usize) -> i32 {
        self.pos[t]
    }

    /// Takes a token out of its site's stack.
    pub(super) fn unlink(&mut self, t: usize) {
        let s = self.site[t];
        if s == NONE {
            return;
        }
        let (a, b) = (self.above[t], self.below[t]);
        match b {
            -1 => self.bottom[s as usize] = a,
            b => self.above[b as usize] = a,
        }
        match a {
            -1 => self.top[s as usize] = b,
            a => self.below[a as usize] = b,
        }
        self.above[t] = -1;
        self.below[t] = -1;
        self.count_at[s as usize] -= 1;
        if self.kinds_kept() {
            self.kind_at[s as usize * self.nk + self.kind[t] as usize] -= 1;
        }
        self.site[t] = NONE;
    }

    /// Puts a token on top of a site's stack.
    pub(super) fn push(&mut self, t: usize, s: u16) {
        self.clock += 1;
        self.height[t] = self.clock;
        let top = self.top[s as usize];
        self.below[t] = top;
        self.above[t] = -1;
        match top {
            -1 => self.bottom[s as usize] = t as i16,
            x => self.above[x as usize] = t as i16,
        }
        self.top[s as usize] = t as i16;
        self.count_at[s as usize] += 1;
        if self.kinds_kept() {
            self.kind_at[s as usize * self.nk + self.kind[t] as usize] += 1;
        }
        self.site[t] = s;
    }

    /// Token `t`, wherever it is, becomes of kind `k` (the count of its site's kinds follows).
    pub(super) fn set_kind(&mut self, t: usize, k: u8) {
        let s = self.site[t];
        if s != NONE && self.kinds_kept() {
            self.kind_at[s as usize * self.nk + self.kind[t] as usize] -= 1;
            self.kind_at[s as usize * self.nk + k as usize] += 1;
        }
        self.kind[t] = k;
    }

    /// Whether the counts of each kind at each site are kept (the rules read them).
    #[inline(always)]
    pub(crate) fn kinds_kept(&self) -> bool {
        !self.kind_at.is_empty()
    }

    /// Tokens of kind `k` at site `s` (`s` and `k` in range; the counts are kept).
    #[inline(always)]
    pub(crate) fn of_kind_at(&self, s: usize, k: usize) -> u32 {
        self.kind_at[s * self.nk + k] as u32
    }

    /// Whether the counts of each kind at each site equal those of the stacks walked token by
    /// token (what `kind_at` must always hold where it is kept; true where it is not).
    pub(crate) fn kinds_agree(&self) -> bool {
        if !self.kinds_kept() {
            return true;
        }
        let mut from_stacks = vec![0u16; self.kind_at.len()];
        for s in 0..self.top.len() {
            for t in self.at(s as u16) {
                match from_stacks.get_mut(s * self.nk + self.kind[t] as usize) {
                    Some(c) => *c += 1,
                    None => return false,
                }
            }
        }
        from_stacks == self.kind_at
    }

    pub(super) fn set_area(&mut self, t: usize, a: u8) {
        self.mark(t, self.area[t], false);
        self.area[t] = a;
        self.mark(t, a, true);
    }

    /// Rebuilds the stacks and sets from where each token is and its height (after a position
    /// was built by hand).
    pub(crate) fn reindex(&mut self, g: &Ir) {
        let n = g.tokens.len();
        self.top.iter_mut().for_each(|x| *x = -1);
        self.bottom.iter_mut().for_each(|x| *x = -1);
        self.count_at.iter_mut().for_each(|x| *x = 0);
        self.kind_at.iter_mut().for_each(|x| *x = 0);
        self.top_owner.iter_mut().for_each(|x| *x = -1);
        self.bits.iter_mut().for_each(|w| *w = 0);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&t| self.height[t]);
        let heights = self.height.clone();
        let clock = self.clock;
        for &t in &order {
            let s = std::mem::replace(&mut self.site[t], NONE);
            self.above[t] = -1;
            self.below[t] = -1;
            if s != NONE {
                self.push(t, s);
            }
            let a = self.area[t];
            self.mark(t, a, true);
        }
        self.height = heights;
        self.clock = clock.max(self.height.iter().copied().max().unwrap_or(0));
    }
}

/// A position built by hand ([`crate::setup`]): the stacks are rebuilt afterward (`reindex`).
impl Tokens {
    /// Token `t` goes on top of site `s`, at track position `pos`.
    pub(crate) fn place_by_hand(&mut self, t: usize, s: u16, pos: i32) {
        self.clock += 1;
        self.site[t] = s;
        self.area[t] = ON_BOARD;
        self.height[t] = self.clock;
        self.pos[t] = pos;
    }
    /// Token `t` goes to area `a`.
    pub(crate) fn put_in_area_by_hand(&mut self, t: usize, a: u8) {
        self.area[t] = a;
    }
}
