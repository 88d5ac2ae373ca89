//! Individual pieces ("tokens"): where each one is (a site, an area off the board, or not yet
//! placed), its position on its side's track, and its height in the stack of its site.

use crate::engine::{State, View, view};
use crate::ir::*;

const NONE: u16 = u16::MAX;
/// `area` of a token on the board.
pub(crate) const ON_BOARD: u8 = u8::MAX;
/// `area` of a token not placed yet.
pub(crate) const UNPLACED: u8 = u8::MAX - 1;

/// Where every token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    pub(crate) site: Vec<u16>,
    pub(crate) area: Vec<u8>,
    pub(crate) pos: Vec<i32>,
    pub(crate) height: Vec<u32>,
    pub(crate) clock: u32,
    /// the top and bottom token of each site (-1 when it holds none)
    pub(crate) top: Vec<i16>,
    pub(crate) bottom: Vec<i16>,
}

impl Tokens {
    pub(crate) fn new(g: &Game) -> Self {
        let n = g.tokens.len();
        Tokens {
            site: vec![NONE; n],
            area: vec![UNPLACED; n],
            pos: (0..n).map(|t| g.before_track(g.tokens[t].owner)).collect(),
            height: vec![0; n],
            clock: 0,
            top: vec![-1; g.sites.len()],
            bottom: vec![-1; g.sites.len()],
        }
    }

    /// Recomputes the top and bottom tokens of a site after a change there.
    pub(crate) fn refresh(&mut self, s: u16) {
        if s == NONE {
            return;
        }
        let mut top: Option<(u32, usize)> = None;
        let mut bottom: Option<(u32, usize)> = None;
        for t in 0..self.site.len() {
            if self.site[t] == s {
                let h = self.height[t];
                if top.is_none_or(|(th, _)| h > th) {
                    top = Some((h, t));
                }
                if bottom.is_none_or(|(bh, _)| h < bh) {
                    bottom = Some((h, t));
                }
            }
        }
        self.top[s as usize] = top.map(|(_, t)| t as i16).unwrap_or(-1);
        self.bottom[s as usize] = bottom.map(|(_, t)| t as i16).unwrap_or(-1);
    }

    pub(crate) fn refresh_all(&mut self) {
        for s in 0..self.top.len() {
            self.refresh(s as u16);
        }
    }

    /// Whether two tokens are interchangeable: same owner, kind and place.
    pub(crate) fn same_place(&self, g: &Game, a: usize, b: usize) -> bool {
        g.tokens[a].owner == g.tokens[b].owner
            && g.tokens[a].kind == g.tokens[b].kind
            && self.site[a] == self.site[b]
            && self.area[a] == self.area[b]
            && self.pos[a] == self.pos[b]
    }

    /// The site of a token, if it is on the board.
    pub fn site_of(&self, t: usize) -> Option<SiteId> {
        (self.site[t] != NONE).then_some(SiteId(self.site[t]))
    }

    /// The area of a token, if it is in one.
    pub fn area_of(&self, t: usize) -> Option<u8> {
        (self.area[t] != ON_BOARD && self.area[t] != UNPLACED).then_some(self.area[t])
    }

    /// The tokens at a site, bottom first.
    pub fn stack(&self, s: SiteId) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.site.len())
            .filter(|&t| self.site[t] == s.0)
            .collect();
        v.sort_by_key(|&t| self.height[t]);
        v
    }

    pub fn position(&self, t: usize) -> i32 {
        self.pos[t]
    }
}

impl Game {
    /// The position number just before a player's track (tokens off the board are there).
    pub(crate) fn before_track(&self, p: Player) -> i32 {
        self.track_of(p.0 as usize)
            .map(|t| t.first as i32 - 1)
            .unwrap_or(0)
    }

    /// The track of a player's side.
    pub(crate) fn track_of(&self, p: usize) -> Option<&TrackInfo> {
        self.tracks.get(p % self.sides.len().max(1))?.as_ref()
    }

    /// The first position of site `s` on the track of `p` (None if it is not on it).
    pub(crate) fn track_pos_of(&self, p: usize, s: u16) -> Option<i64> {
        let t = self.track_of(p)?;
        if let Some(&x) = t.pos_of.get(s as usize) {
            return (x >= 0).then_some(x as i64);
        }
        t.sites
            .iter()
            .position(|&x| x == s)
            .map(|i| t.first + i as i64)
    }

    fn token_index(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&t| t < self.tokens.len())
    }

    pub(crate) fn place_tokens(
        &self,
        st: &mut State,
        count: &Expr,
        piece: PieceKind,
        on: Option<&SetExpr>,
        area: u8,
        owner: Option<&Expr>,
    ) {
        let view = view!(self, st);
        let n = view.eval(&mut st.vars, count);
        let Some(n) = crate::engine::pieces_count(&st.fault, n) else {
            return;
        };
        let owner = owner.map(|o| view.eval(&mut st.vars, o));
        let mut sites = vec![];
        if let Some(set) = on {
            view.for_each(&mut st.vars, set, &mut |_, s| {
                sites.push(s as u16);
                true
            });
        }
        for p in 0..self.players.len() {
            if owner.is_some_and(|o| o != p as i64) {
                continue;
            }
            let targets: Vec<Option<u16>> = if on.is_some() {
                sites.iter().map(|&s| Some(s)).collect()
            } else {
                vec![None]
            };
            for target in targets {
                for _ in 0..n {
                    let Some(t) = (0..self.tokens.len()).find(|&t| {
                        st.toks.area[t] == UNPLACED
                            && self.tokens[t].owner.0 as usize == p
                            && self.tokens[t].kind == piece
                    }) else {
                        crate::engine::raise(&st.fault, crate::engine::Fault::NotEnoughTokens);
                        return;
                    };
                    match target {
                        Some(s) => self.put_on(st, t, s, None),
                        None => {
                            st.toks.area[t] = area;
                            st.toks.pos[t] = self.before_track(self.tokens[t].owner);
                        }
                    }
                }
            }
        }
    }

    /// Puts a token on top of a site; its position is `pos`, or the site's first position on
    /// its owner's track.
    fn put_on(&self, st: &mut State, t: usize, s: u16, pos: Option<i64>) {
        let from = st.toks.site[t];
        st.toks.clock += 1;
        st.toks.site[t] = s;
        st.toks.area[t] = ON_BOARD;
        st.toks.height[t] = st.toks.clock;
        let owner = self.tokens[t].owner;
        st.toks.pos[t] = pos
            .or_else(|| self.track_pos_of(owner.0 as usize, s))
            .map(|p| p as i32)
            .unwrap_or_else(|| self.before_track(owner));
        st.toks.refresh(from);
        st.toks.refresh(s);
    }

    pub(crate) fn move_token(
        &self,
        st: &mut State,
        token: &Expr,
        to: &Expr,
        onto_site: bool,
        carry: bool,
    ) {
        let view = view!(self, st);
        let Some(t) = self.token_index(view.eval(&mut st.vars, token)) else {
            return;
        };
        let to = view.eval(&mut st.vars, to);
        let owner = self.tokens[t].owner.0 as usize;
        let (dest, pos) = if onto_site {
            match view.site(to) {
                Some(s) => (s as u16, None),
                None => return,
            }
        } else {
            let Some(track) = self.track_of(owner) else {
                return;
            };
            match usize::try_from(to - track.first)
                .ok()
                .and_then(|i| track.sites.get(i))
            {
                Some(&s) => (s, Some(to)),
                None => return,
            }
        };
        let from = st.toks.site[t];
        let h = st.toks.height[t];
        self.put_on(st, t, dest, pos);
        // The tokens that go along: those above t on its site, lowest first.
        if carry && from != NONE && from != dest {
            loop {
                let next = (0..self.tokens.len())
                    .filter(|&u| st.toks.site[u] == from && st.toks.height[u] > h)
                    .min_by_key(|&u| st.toks.height[u]);
                match next {
                    Some(u) => self.put_on(st, u, dest, None),
                    None => break,
                }
            }
        }
    }

    pub(crate) fn send_token(&self, st: &mut State, token: &Expr, area: u8) {
        let v = view!(self, st).eval(&mut st.vars, token);
        if let Some(t) = self.token_index(v) {
            let from = st.toks.site[t];
            st.toks.site[t] = NONE;
            st.toks.area[t] = area;
            st.toks.pos[t] = self.before_track(self.tokens[t].owner);
            st.toks.refresh(from);
        }
    }

    pub(crate) fn for_init(
        &self,
        st: &mut State,
        slot: u16,
        var: VarId,
        tokens: bool,
        cond: &Expr,
        set: &SetExpr,
    ) {
        let mut list = std::mem::take(&mut st.loops[slot as usize].0);
        list.clear();
        let view = view!(self, st);
        if tokens {
            for t in 0..self.tokens.len() {
                st.vars[var as usize] = t as i64;
                if view.eval(&mut st.vars, cond) != 0 {
                    list.push(t as u16);
                }
            }
        } else {
            view.for_each(&mut st.vars, set, &mut |_, s| {
                list.push(s as u16);
                true
            });
        }
        st.loops[slot as usize] = (list, 0);
    }
}

impl View<'_> {
    pub(crate) fn count_with_tokens(&self, s: usize, mask: KindMask) -> i64 {
        let nk = self.nk();
        let mut n: i64 = (0..nk)
            .filter(|k| mask.0 & (1 << k) != 0)
            .map(|k| self.counts[s * nk + k] as i64)
            .sum();
        for (t, info) in self.g.tokens.iter().enumerate() {
            if self.toks.site[t] as usize == s && mask.0 & (1 << info.kind.0) != 0 {
                n += 1;
            }
        }
        n
    }

    fn token(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&t| t < self.g.tokens.len())
    }

    /// The token at a site with the highest (top) or lowest height.
    fn stack_end(&self, s: i64, top: bool) -> i64 {
        match self.site(s) {
            Some(s) if top => self.toks.top[s] as i64,
            Some(s) => self.toks.bottom[s] as i64,
            None => -1,
        }
    }

    pub(crate) fn eval_tokens(&self, vars: &mut [i64], e: &Expr) -> i64 {
        let player = |p: i64| {
            usize::try_from(p)
                .ok()
                .filter(|&p| p < self.g.players.len())
        };
        match e {
            Expr::Top(s) => self.stack_end(self.eval(vars, s), true),
            Expr::Bottom(s) => self.stack_end(self.eval(vars, s), false),
            Expr::TokOwner(t) => {
                let t = self.eval(vars, t);
                self.token(t)
                    .map(|t| self.g.tokens[t].owner.0 as i64)
                    .unwrap_or(-1)
            }
            Expr::TokSite(t) => {
                let t = self.eval(vars, t);
                match self.token(t).map(|t| self.toks.site[t]) {
                    Some(s) if s != NONE => s as i64,
                    _ => -1,
                }
            }
            Expr::TokPos(t) => {
                let t = self.eval(vars, t);
                self.token(t).map(|t| self.toks.pos[t] as i64).unwrap_or(-1)
            }
            Expr::TokArea(t) => {
                let t = self.eval(vars, t);
                match self.token(t).map(|t| self.toks.area[t]) {
                    Some(a) if a != ON_BOARD && a != UNPLACED => a as i64,
                    _ => -1,
                }
            }
            Expr::TrackSite(p, n) => {
                let p = self.eval(vars, p);
                let n = self.eval(vars, n);
                let Some(t) = player(p).and_then(|p| self.g.track_of(p)) else {
                    return -1;
                };
                usize::try_from(n - t.first)
                    .ok()
                    .and_then(|i| t.sites.get(i))
                    .map(|&s| s as i64)
                    .unwrap_or(-1)
            }
            Expr::TrackPos(p, s) => {
                let p = self.eval(vars, p);
                let s = self.eval(vars, s);
                match (player(p), self.site(s)) {
                    (Some(p), Some(s)) => self.g.track_pos_of(p, s as u16).unwrap_or(-1),
                    _ => -1,
                }
            }
            Expr::TrackEnd(p) => {
                let p = self.eval(vars, p);
                player(p)
                    .and_then(|p| self.g.track_of(p))
                    .map(|t| t.first + t.sites.len() as i64 - 1)
                    .unwrap_or(-1)
            }
            Expr::Some(tokens, v, c) => {
                let n = if *tokens {
                    self.g.tokens.len()
                } else {
                    self.kinds.len()
                };
                for i in 0..n {
                    vars[*v as usize] = i as i64;
                    if self.eval(vars, c) != 0 {
                        return i as i64;
                    }
                }
                -1
            }
            Expr::Between(a, c) => {
                let (a, c) = (self.eval(vars, a), self.eval(vars, c));
                let (Some(a), Some(c)) = (self.site(a), self.site(c)) else {
                    return -1;
                };
                for step in &self.g.step {
                    let b = step[a];
                    if b != NONE && step[b as usize] as usize == c {
                        return b as i64;
                    }
                }
                -1
            }
            Expr::CoordX(s) | Expr::CoordY(s) => {
                let s = self.eval(vars, s);
                match self.site(s) {
                    Some(s) if matches!(e, Expr::CoordX(_)) => self.g.sites[s].x,
                    Some(s) => self.g.sites[s].y,
                    None => -1,
                }
            }
            Expr::TokExists(v, c) => {
                for t in 0..self.g.tokens.len() {
                    vars[*v as usize] = t as i64;
                    if self.eval(vars, c) != 0 {
                        return 1;
                    }
                }
                0
            }
            Expr::Agg(op, tokens, v, c, x) => {
                let n = if *tokens {
                    self.g.tokens.len()
                } else {
                    self.kinds.len()
                };
                let mut acc: Option<i64> = None;
                for i in 0..n {
                    vars[*v as usize] = i as i64;
                    if self.eval(vars, c) == 0 {
                        continue;
                    }
                    let val = self.eval(vars, x);
                    acc = Some(match (op, acc) {
                        (_, None) => val,
                        (AggOp::Min, Some(a)) => a.min(val),
                        (AggOp::Max, Some(a)) => a.max(val),
                        (AggOp::Sum, Some(a)) => a
                            .checked_add(val)
                            .unwrap_or_else(|| self.fail(crate::engine::Fault::Overflow)),
                    });
                }
                acc.unwrap_or(0)
            }
            _ => 0,
        }
    }
}
