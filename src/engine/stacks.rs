//! Tokens moved on the board: put on a site, taken off it, carried with the tokens above
//! them; each move keeps the board's counts, its indexes and the position's hash up to date.

use super::bits::Layout;
use super::state::Board;
use super::tokens::ON_BOARD;
use crate::ir::Game as Ir;

const NONE: u16 = u16::MAX;

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
        self.index.total[s] += 1;
        l.set(&mut self.index.bits, l.nonempty(), s, true);
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
        self.index.total[s] -= 1;
        l.set(
            &mut self.index.bits,
            l.nonempty(),
            s,
            self.index.total[s] > 0,
        );
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
                l.set(&mut self.index.bits, l.top_owner(old as usize), s, false);
            }
            if owner >= 0 {
                l.set(&mut self.index.bits, l.top_owner(owner as usize), s, true);
            }
            self.toks.top_owner[s] = owner;
        }
        l.set(&mut self.index.bits, l.tokens_here(), s, top >= 0);
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
        let kinds = toks.kinds_kept();
        while x >= 0 {
            let u = x as usize;
            toks.clock += 1;
            toks.height[u] = toks.clock;
            toks.site[u] = to;
            toks.pos[u] = pos(u);
            if kinds {
                let k = toks.kind[u] as usize;
                toks.kind_at[from * toks.nk + k] -= 1;
                toks.kind_at[to as usize * toks.nk + k] += 1;
            }
            n += 1;
            x = toks.above[u];
        }
        toks.count_at[from] -= n;
        toks.count_at[to as usize] += n;
        self.index.total[from] -= n;
        l.set(
            &mut self.index.bits,
            l.nonempty(),
            from,
            self.index.total[from] > 0,
        );
        self.set_top(g, l, from);
        self.index.total[to as usize] += n;
        l.set(&mut self.index.bits, l.nonempty(), to as usize, true);
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
