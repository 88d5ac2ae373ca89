//! The effects of statements on individual pieces (tokens): placed, moved, sent off the board.

use super::super::compile::{CSet, Num};
use super::super::events::Event;
use super::super::state::{Fault, pieces_count, raise};
use super::super::tokens::{ON_BOARD, UNPLACED};
use super::super::{Game, State};
use super::NONE;
use crate::ir::SiteId;

impl Game {
    /// `send t to AREA`.
    #[inline]
    pub(super) fn send(&self, st: &mut State, token: &Num, area: u8) -> bool {
        let prog = &*self.prog;
        let t = token(&st.b, &mut st.r);
        if let Some(t) = prog.t.token(t) {
            let from = st.b.toks.site_of(t);
            st.b.remove_token(self, &prog.t.layout, t, area, prog.t.tok_before[t]);
            st.log.push(|| Event::Sent {
                token: t,
                from,
                area,
            });
        }
        st.pc += 1;
        false
    }

    /// `place N piece on SET for P`, `place N piece in AREA for P`: tokens not placed yet.
    pub(super) fn place_tokens(
        &self,
        st: &mut State,
        count: &Num,
        piece: u8,
        on: Option<&CSet>,
        area: u8,
        owner: Option<&Num>,
    ) {
        let t = &*self.prog.t;
        let l = &t.layout;
        let n = count(&st.b, &mut st.r);
        let owner = owner.map(|o| o(&st.b, &mut st.r));
        let Some(n) = pieces_count(&st.b.fault, n) else {
            return;
        };
        match on {
            Some(set) => self.collect(st, set),
            None => st.scratch.clear(),
        }
        let targets = if on.is_some() { st.scratch.len() } else { 1 };
        for p in 0..self.players.len() {
            if owner.is_some_and(|o| o != p as i64) {
                continue;
            }
            for i in 0..targets {
                for _ in 0..n {
                    // The first token of that player and kind not placed yet (the player's
                    // tokens a word at a time).
                    let unplaced = st.b.toks.in_area(UNPLACED);
                    let (mine, kind) = (&t.tok_of_player[p], &st.b.toks.kind);
                    let found = (0..t.tw).find_map(|i| {
                        let mut w = unplaced[i] & mine[i];
                        while w != 0 {
                            let x = i * 64 + w.trailing_zeros() as usize;
                            w &= w - 1;
                            if kind[x] == piece {
                                return Some(x);
                            }
                        }
                        None
                    });
                    let Some(x) = found else {
                        raise(&st.b.fault, Fault::NotEnoughTokens);
                        return;
                    };
                    if on.is_some() {
                        let s = st.scratch[i];
                        let pos = self.landing_pos(x, s);
                        st.b.put_token(self, l, x, s, pos);
                        st.log.push(|| Event::Moved {
                            token: x,
                            from: None,
                            to: SiteId(s),
                        });
                    } else {
                        st.b.remove_token(self, l, x, area, t.tok_before[x]);
                    }
                }
            }
        }
    }

    /// The position of token `x` put on site `s`: the site's first position on its owner's
    /// track, or the position before the track.
    fn landing_pos(&self, x: usize, s: u16) -> i32 {
        let t = &self.prog.t;
        let p = t.track_pos(t.tok_owner[x] as usize, s as usize);
        if p >= 0 { p as i32 } else { t.tok_before[x] }
    }

    /// `move t to N` (a track position) or `move t onto S` (a site), with the tokens above it
    /// when it carries them.
    pub(super) fn move_token(
        &self,
        st: &mut State,
        token: i64,
        to: i64,
        onto_site: bool,
        carry: bool,
    ) {
        let t = &*self.prog.t;
        let l = &t.layout;
        let Some(x) = t.token(token) else {
            return;
        };
        let owner = t.tok_owner[x] as usize;
        let (dest, pos) = if onto_site {
            match t.site(to) {
                Some(s) => (s as u16, self.landing_pos(x, s as u16)),
                None => return,
            }
        } else {
            let Some(track) = t.track_of(owner) else {
                return;
            };
            match to
                .checked_sub(track.first)
                .and_then(|i| usize::try_from(i).ok())
                .and_then(|i| track.sites.get(i))
            {
                Some(&s) => (s, to as i32),
                None => return,
            }
        };
        let from = st.b.toks.site[x];
        let was = (from != NONE).then_some(SiteId(from));
        if carry && from != NONE && from != dest {
            // x and the tokens above it go along, in one piece.
            let moved = st.b.carry_stack(self, l, x, dest, |u| {
                if u == x {
                    pos
                } else {
                    self.landing_pos(u, dest)
                }
            });
            if st.log.on {
                let mut u = Some(x);
                for _ in 0..moved {
                    let Some(tok) = u else { break };
                    st.log.push(|| Event::Moved {
                        token: tok,
                        from: was,
                        to: SiteId(dest),
                    });
                    u = st.b.tokens_above(tok);
                }
            }
            return;
        }
        st.b.put_token(self, l, x, dest, pos);
        st.log.push(|| Event::Moved {
            token: x,
            from: was,
            to: SiteId(dest),
        });
        debug_assert!(st.b.toks.area[x] == ON_BOARD);
    }
}
