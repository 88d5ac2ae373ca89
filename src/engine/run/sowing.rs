//! The statements of a sowing: its start, each lap (told as an event with where the pieces
//! went) and a relay.

use super::super::compile::{Num, Skip};
use super::super::events::{Event, Landing};
use super::super::{Game, State};
use super::NONE;
use crate::ir::{PieceKind, Player, SiteId, VarId};

impl Game {
    /// The start of `sow`: the site is picked up and the direction kept.
    #[inline]
    pub(super) fn sow_start(&self, st: &mut State, from: &Num, dir: &Num) {
        let f = from(&st.b, &mut st.r);
        let d = dir(&st.b, &mut st.r);
        st.b.sow_dir = u8::from(d != 0);
        st.sow.lap_keys.clear();
        st.sow.lap_snaps.clear();
        st.sow.planning = false;
        match self.prog.t.site(f) {
            Some(s) => {
                self.pick_up(st, s);
                st.sow.cursor = s as u16;
            }
            None => st.sow.cursor = NONE,
        }
        st.pc += 1;
    }

    /// One lap of sowing (the program stops where the player orders the drops); `single`: the
    /// lap is always its sowing's first (see `Op::SowLap`).
    #[inline(always)]
    pub(super) fn sow_lap_op(
        &self,
        st: &mut State,
        orders: bool,
        skip: Option<&Skip>,
        last: VarId,
        on_cycle: u32,
        (sown, single): (Option<VarId>, bool),
    ) -> bool {
        if !st.sow.planning {
            if single {
                // the work `lap_repeats` counts for a sowing's first lap: its position, read
                st.r.work += (st.b.counts.len() + st.sow.hand.len()) as u64;
            } else if self.lap_repeats(st) {
                // The position at the start of this lap was seen before in this
                // sowing: it would go on forever. Put the hand back and stop.
                st.stats.cycle_cut();
                st.log.push(|| Event::CycleCut {
                    at: SiteId(st.sow.cursor),
                });
                self.put_back(st);
                st.pc = on_cycle;
                return false;
            }
            self.init_plan(st, orders);
        }
        if st.sow.planning && self.plan_step(st) {
            self.checkpoint(st);
            return true;
        }
        let lap = (st.log.on && st.sow.cursor != NONE).then(|| {
            let pieces = st.sow.hand.iter().sum::<u32>();
            // the kinds but the first in hand, and where they are before the lap
            let nk = self.pieces.len();
            let marked = (1..nk).any(|k| st.sow.hand[k] > 0);
            let before = marked.then(|| (st.b.counts.clone(), st.b.bank.clone()));
            (
                SiteId(st.sow.cursor),
                pieces,
                st.sow.lap_keys.len() > 1,
                before,
            )
        });
        let last_site = match sown {
            None => self.sow_lap(st, skip),
            // `sown` is read: the pieces the lap dropped
            Some(v) => {
                let (last_site, dropped) = self.sow_lap_counted(st, skip);
                st.r.set(v, dropped as i64);
                last_site
            }
        };
        st.r.set(last, last_site);
        if let Some((from, pieces, relay, before)) = lap {
            let went = before
                .map(|(counts, bank)| self.landings(st, &counts, &bank))
                .unwrap_or_default();
            st.log.push(|| Event::Lap {
                from,
                pieces,
                last: self.prog.t.site(last_site).map(|s| SiteId(s as u16)),
                relay,
                went,
            });
        }
        st.pc += 1;
        false
    }

    /// `relay h`: h is picked up and the sowing goes on from the site after it.
    #[inline]
    pub(super) fn relay(&self, st: &mut State, site: &Num, lap: u32) -> bool {
        let s = site(&st.b, &mut st.r);
        if let Some(s) = self.prog.t.site(s) {
            self.pick_up(st, s);
            st.sow.cursor = s as u16;
        }
        st.pc = lap;
        !self.checkpoint(st)
    }

    /// Where the pieces of every kind but the first went in a lap, from the counts and
    /// holdings before it (only when the events are told): the sites and holdings that gained
    /// some, in the order of the sites.
    fn landings(&self, st: &State, counts: &[u32], bank: &[u32]) -> Vec<(PieceKind, Landing)> {
        let nk = self.pieces.len();
        let mut went = vec![];
        for k in 1..nk {
            for (s, (now, was)) in st.b.counts.iter().zip(counts).enumerate() {
                if s % nk == k && now > was {
                    let site = SiteId((s / nk) as u16);
                    went.extend((0..now - was).map(|_| (PieceKind(k as u8), Landing::Site(site))));
                }
            }
            for (i, (now, was)) in st.b.bank.iter().zip(bank).enumerate() {
                if i % nk == k && now > was {
                    let p = Player((i / nk) as u8);
                    went.extend((0..now - was).map(|_| (PieceKind(k as u8), Landing::Held(p))));
                }
            }
        }
        went
    }
}
