//! Individual pieces ("tokens"): where each one is (a site, an area off the board, or not yet
//! placed), its position on its side's track, and the stack of each site, bottom to top, kept as
//! a linked list so that moving a token costs the same on any board. Sets of tokens on the
//! board, in each area and not yet placed are kept as bit sets for quantifiers.

use super::bits::Layout;
use super::bits::words;
use super::state::Board;
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
    pub(crate) clock: u32,
    /// the top and bottom token of each site (-1 when it holds none)
    pub(crate) top: Vec<i16>,
    pub(crate) bottom: Vec<i16>,
    /// tokens at each site
    pub(crate) count_at: Vec<u32>,
    /// the owner of the top token of each site (-1 for none), as the index records it
    pub(crate) top_owner: Vec<i16>,
    /// the stack of a site as a list: the token above and below each token (-1 for none)
    above: Vec<i16>,
    below: Vec<i16>,
    /// words of a set of tokens
    pub(crate) tw: usize,
    /// sets of tokens: on the board, not placed, then one for each area
    pub(crate) bits: Vec<u64>,
}

super::state::clone_by_fields!(Tokens {
    site,
    area,
    pos,
    height,
    clock,
    top,
    bottom,
    count_at,
    top_owner,
    above,
    below,
    tw,
    bits,
});

impl Tokens {
    pub(crate) fn new(g: &Ir) -> Self {
        let n = g.tokens.len();
        let tw = words(n);
        let mut t = Tokens {
            site: vec![NONE; n],
            area: vec![UNPLACED; n],
            pos: (0..n).map(|t| g.before_track(g.tokens[t].owner)).collect(),
            height: vec![0; n],
            clock: 0,
            top: vec![-1; g.sites.len()],
            bottom: vec![-1; g.sites.len()],
            count_at: vec![0; g.sites.len()],
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
            && g.tokens[a].kind == g.tokens[b].kind
            && self.site[a] == self.site[b]
            && self.area[a] == self.area[b]
            && self.pos[a] == self.pos[b]
    }

    /// The site of a token, if it is on the board.
    pub fn site_of(&self, t: usize) -> Option<crate::ir::SiteId> {
        (self.site[t] != NONE).then_some(crate::ir::SiteId(self.site[t]))
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
    fn unlink(&mut self, t: usize) {
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
        self.site[t] = NONE;
    }

    /// Puts a token on top of a site's stack.
    fn push(&mut self, t: usize, s: u16) {
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
        self.site[t] = s;
    }

    fn set_area(&mut self, t: usize, a: u8) {
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

impl Board {
    /// Puts token `t` on top of site `s`, at track position `pos`.
    pub(crate) fn put_token(&mut self, g: &Ir, l: &Layout, t: usize, s: u16, pos: i32) {
        let from = self.toks.site[t];
        if from != NONE {
            self.toks.unlink(t);
            self.token_left(g, l, from as usize);
        }
        let area = self.toks.area[t];
        self.toks.push(t, s);
        self.toks.set_area(t, ON_BOARD);
        self.toks.pos[t] = pos;
        let s = s as usize;
        self.total[s] += 1;
        l.set(&mut self.bits, l.nonempty(), s, true);
        self.set_top(g, l, s);
        if self.seen.keys.is_some() {
            self.hash_token_moved(g, t, from, s as u16, area, ON_BOARD);
        }
    }

    /// Takes token `t` off the board into area `a`, at position `pos` (before its track).
    pub(crate) fn remove_token(&mut self, g: &Ir, l: &Layout, t: usize, a: u8, pos: i32) {
        let from = self.toks.site[t];
        let area = self.toks.area[t];
        self.toks.unlink(t);
        self.toks.set_area(t, a);
        self.toks.pos[t] = pos;
        if from != NONE {
            self.token_left(g, l, from as usize);
        }
        if self.seen.keys.is_some() {
            self.hash_token_moved(g, t, from, NONE, area, a);
        }
    }

    /// The hash of the position after token `t` went from site `from` to site `to` (either
    /// may be `NONE`) and from area `old` to area `new`: out of the way of the games that keep
    /// no hash.
    #[cold]
    #[inline(never)]
    fn hash_token_moved(&mut self, g: &Ir, t: usize, from: u16, to: u16, old: u8, new: u8) {
        for s in [from, to] {
            if s != NONE {
                self.stack_changed(g, s as usize);
            }
        }
        self.area_changed(g, t, old, new);
    }

    /// The indexes of a site a token left.
    fn token_left(&mut self, g: &Ir, l: &Layout, s: usize) {
        self.total[s] -= 1;
        l.set(&mut self.bits, l.nonempty(), s, self.total[s] > 0);
        self.set_top(g, l, s);
    }

    /// The indexes of the top token of a site, after its stack changed: the site moves from
    /// the set of its old top owner to that of the new one.
    #[inline]
    fn set_top(&mut self, g: &Ir, l: &Layout, s: usize) {
        let top = self.toks.top[s];
        let owner = if top >= 0 {
            g.tokens[top as usize].owner.0 as i16
        } else {
            -1
        };
        let old = self.toks.top_owner[s];
        if old != owner {
            if old >= 0 {
                l.set(&mut self.bits, l.top_owner(old as usize), s, false);
            }
            if owner >= 0 {
                l.set(&mut self.bits, l.top_owner(owner as usize), s, true);
            }
            self.toks.top_owner[s] = owner;
        }
        l.set(&mut self.bits, l.tokens_here(), s, top >= 0);
    }

    /// Moves token `t` and every token above it on its site, in their order, on top of site
    /// `to` (`carry`): the stack is cut and put back in one piece. `pos` gives each token its
    /// position there. Returns how many tokens moved.
    pub(crate) fn carry_stack(
        &mut self,
        g: &Ir,
        l: &Layout,
        t: usize,
        to: u16,
        pos: impl Fn(usize) -> i32,
    ) -> u32 {
        let from = self.toks.site[t] as usize;
        let toks = &mut self.toks;
        // Cut the segment from t up to the top of its stack.
        let below = toks.below[t];
        match below {
            -1 => toks.bottom[from] = -1,
            b => toks.above[b as usize] = -1,
        }
        let last = toks.top[from] as usize;
        toks.top[from] = below;
        // Put it on top of the other stack, each token a new height in its order.
        let top = toks.top[to as usize];
        toks.below[t] = top;
        match top {
            -1 => toks.bottom[to as usize] = t as i16,
            x => toks.above[x as usize] = t as i16,
        }
        toks.top[to as usize] = last as i16;
        let mut n = 0;
        let mut x = t as i16;
        while x >= 0 {
            let u = x as usize;
            toks.clock += 1;
            toks.height[u] = toks.clock;
            toks.site[u] = to;
            toks.pos[u] = pos(u);
            n += 1;
            x = toks.above[u];
        }
        toks.count_at[from] -= n;
        toks.count_at[to as usize] += n;
        self.total[from] -= n;
        l.set(&mut self.bits, l.nonempty(), from, self.total[from] > 0);
        self.set_top(g, l, from);
        self.total[to as usize] += n;
        l.set(&mut self.bits, l.nonempty(), to as usize, true);
        self.set_top(g, l, to as usize);
        if self.seen.keys.is_some() {
            let area = self.toks.area[t];
            self.hash_token_moved(g, t, from as u16, to, area, area);
        }
        n
    }

    /// The tokens above `t` on its site, lowest first (for `carry`).
    pub(crate) fn tokens_above(&self, t: usize) -> Option<usize> {
        let a = self.toks.above[t];
        (a >= 0).then_some(a as usize)
    }
}
