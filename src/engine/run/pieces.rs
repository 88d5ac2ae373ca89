//! The effects of statements on pieces counted by site: owners and kinds of sites, captures,
//! pieces placed and given, and the tallies.

use super::super::compile::{CSet, Num, TallyAtOp};
use super::super::events::Event;
use super::super::state::{Fault, pieces_count, raise};
use super::super::{Game, State};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};

impl Game {
    /// `set owner(h) = p`.
    pub(super) fn set_owner(&self, st: &mut State, s: &Num, p: &Num) -> bool {
        let s = s(&st.b, &mut st.r);
        let p = p(&st.b, &mut st.r);
        if let Some(s) = self.prog.t.site(s) {
            let o = self.player_index(p).map_or(-1, |p| p as i8);
            st.b.set_owner(&self.prog.t.layout, s, o);
            st.log.push(|| Event::Owner {
                site: SiteId(s as u16),
                owner: (o >= 0).then_some(Player(o as u8)),
            });
        }
        st.pc += 1;
        false
    }

    /// `set kind(h) = k`.
    pub(super) fn set_kind(&self, st: &mut State, s: &Num, k: &Num) -> bool {
        let s = s(&st.b, &mut st.r);
        let k = k(&st.b, &mut st.r);
        if let (Some(s), Some(k)) = (self.prog.t.site(s), SiteKind::from_index(k)) {
            st.b.set_kind(&self.prog.t.layout, s, k);
            st.log.push(|| Event::Kind {
                site: SiteId(s as u16),
                kind: k,
            });
        }
        st.pc += 1;
        false
    }

    /// `set kind(t) = K` of a token (no token: nothing happens, as for `move`).
    pub(super) fn set_token_kind(&self, st: &mut State, t: &Num, k: &Num) -> bool {
        let t = t(&st.b, &mut st.r);
        let k = k(&st.b, &mut st.r);
        if let Some(t) = self.prog.t.token(t) {
            // a kind declared with `tokens N` (as the check of a constant kind says)
            let Some(k) = u8::try_from(k)
                .ok()
                .filter(|&k| self.pieces.get(k as usize).is_some_and(|p| p.tokens))
            else {
                raise(&st.b.fault, Fault::NotTokenKind);
                st.pc += 1;
                return false;
            };
            st.b.set_token_kind(self, t, k);
            st.log.push(|| Event::TokenKind {
                token: t,
                kind: PieceKind(k),
                site: st.b.toks.site_of(t),
            });
        }
        st.pc += 1;
        false
    }

    /// `capture SET keep K to P`.
    #[inline]
    pub(super) fn capture(&self, st: &mut State, set: &CSet, keep: &Num, to: &Num) -> bool {
        self.collect(st, set);
        let keep = keep(&st.b, &mut st.r);
        let to = to(&st.b, &mut st.r);
        if let (Some(keep), Some(to)) = (pieces_count(&st.b.fault, keep), self.player_index(to)) {
            let l = &self.prog.t.layout;
            let nk = self.pieces.len();
            for i in 0..st.scratch.len() {
                let s = st.scratch[i] as usize;
                let mut left = keep;
                let mut taken = 0;
                // each kind taken, only when the events are told
                let mut kinds = Vec::new();
                for k in 0..nk {
                    let c = st.b.counts[s * nk + k];
                    let stay = c.min(left);
                    left -= stay;
                    if c > stay {
                        st.b.set_counters(l, s, k, stay);
                        st.b.bank_add(to * nk + k, c - stay);
                        taken += c - stay;
                        if st.log.on {
                            kinds.push((PieceKind(k as u8), c - stay));
                        }
                    }
                }
                if taken > 0 {
                    st.log.push(|| Event::Captured {
                        site: SiteId(s as u16),
                        player: Player(to as u8),
                        pieces: taken,
                        kinds,
                    });
                }
            }
        }
        st.pc += 1;
        false
    }

    /// `place N piece on SET [from P]`.
    #[inline]
    pub(super) fn place(
        &self,
        st: &mut State,
        count: &Num,
        piece: usize,
        on: &CSet,
        from: Option<&Num>,
    ) -> bool {
        self.collect(st, on);
        let n = count(&st.b, &mut st.r);
        let from = from.map(|f| f(&st.b, &mut st.r));
        let created = n.max(0) as u64 * st.scratch.len() as u64;
        if let Some(n) = pieces_count(&st.b.fault, n)
            && (from.is_some() || st.b.create(created))
        {
            let l = &self.prog.t.layout;
            let nk = self.pieces.len();
            for i in 0..st.scratch.len() {
                let s = st.scratch[i] as usize;
                if let Some(p) = from {
                    let Some(p) = self.player_index(p) else {
                        break;
                    };
                    let held = &mut st.b.bank[p * nk + piece];
                    if *held < n {
                        raise(&st.b.fault, Fault::NotEnoughHeld);
                        break;
                    }
                    *held -= n;
                    st.b.seen.bank(p * nk + piece, -(n as i64));
                }
                st.b.add_counters(l, s, piece, n);
                if n > 0 {
                    st.log.push(|| Event::Placed {
                        site: SiteId(s as u16),
                        kind: PieceKind(piece as u8),
                        pieces: n,
                        from: from
                            .and_then(|p| self.player_index(p))
                            .map(|p| Player(p as u8)),
                    });
                }
            }
        }
        st.pc += 1;
        false
    }

    /// `give N piece from A to B`: captured pieces change hands.
    #[inline]
    pub(super) fn give(
        &self,
        st: &mut State,
        count: &Num,
        piece: usize,
        from: &Num,
        to: &Num,
    ) -> bool {
        let n = count(&st.b, &mut st.r);
        let a = from(&st.b, &mut st.r);
        let b = to(&st.b, &mut st.r);
        if n < 0 {
            raise(&st.b.fault, Fault::NegativeCount);
        } else if let (Some(a), Some(b), true) = (self.player_index(a), self.player_index(b), n > 0)
        {
            let nk = self.pieces.len();
            let (ia, ib) = (a * nk + piece, b * nk + piece);
            match u32::try_from(n) {
                Ok(n) if n <= st.b.bank[ia] => {
                    st.b.bank[ia] -= n;
                    st.b.seen.bank(ia, -(n as i64));
                    st.b.bank_add(ib, n);
                    st.log.push(|| Event::Given {
                        from: Player(a as u8),
                        to: Player(b as u8),
                        kind: PieceKind(piece as u8),
                        pieces: n,
                    });
                }
                _ => raise(&st.b.fault, Fault::NotEnoughHeld),
            }
        }
        st.pc += 1;
        false
    }

    /// `set per_hole = n`, `set debt(p) = n`.
    #[inline]
    pub(super) fn set_tally(
        &self,
        st: &mut State,
        slot: usize,
        player: Option<&Num>,
        value: &Num,
    ) -> bool {
        let x = value(&st.b, &mut st.r);
        let at = match player {
            None => Some(slot),
            Some(p) => {
                let p = p(&st.b, &mut st.r);
                self.player_index(p).map(|p| slot + p)
            }
        };
        if let Some(i) = at.filter(|&i| i < st.b.tallies.len()) {
            let old = std::mem::replace(&mut st.b.tallies[i], x);
            st.b.seen.tally(i, old, x);
        }
        st.pc += 1;
        false
    }

    /// `set marked(h) = n`.
    #[inline(never)]
    pub(super) fn set_tally_at(&self, st: &mut State, at: &TallyAtOp) -> bool {
        let TallyAtOp { slot, site, value } = at;
        let x = value(&st.b, &mut st.r);
        let s = site(&st.b, &mut st.r);
        if let Some(i) = self
            .prog
            .t
            .site(s)
            .map(|s| *slot + s)
            .filter(|&i| i < st.b.tallies.len())
        {
            let old = std::mem::replace(&mut st.b.tallies[i], x);
            st.b.seen.tally(i, old, x);
        }
        st.pc += 1;
        false
    }

    /// The sites of a set, in order, into the state's scratch list.
    pub(super) fn collect(&self, st: &mut State, set: &CSet) {
        if let Some(one) = set.one_site(&st.b, &mut st.r) {
            st.scratch.clear();
            st.scratch.extend(one.map(|s| s as u16));
            return;
        }
        let mut out = std::mem::take(&mut st.scratch);
        out.clear();
        set.for_each(&st.b, &mut st.r, &mut |_, _, s| {
            out.push(s as u16);
            true
        });
        st.scratch = out;
    }
}
