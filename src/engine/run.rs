//! The interpreter loop: runs the compiled turn program until a decision, a chance event or the
//! end of the game, and the effects of its statements.

use super::compile::{EndOp, Op};
use super::events::Event;
use super::state::{Fault, pieces_count, raise};
use super::tokens::ON_BOARD;
use super::{EndReason, Game, Outcome, Pending, State, WORK_LIMIT};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};

const NONE: u16 = u16::MAX;

impl Game {
    pub(crate) fn end_turn(&self, st: &mut State) {
        // `another turn`: the same player plays the next turn
        if !std::mem::take(&mut st.another_turn) {
            let next = st.b.mover as usize + 1;
            st.b.mover = if next == self.players.len() {
                0
            } else {
                next as u8
            };
        } else {
            st.log.push(|| Event::AnotherTurn {
                player: Player(st.b.mover),
            });
        }
        st.turn += 1;
        st.turn_decisions = 0;
        st.b.seen.turn_begins(st.b.mover);
        st.pc = self.turn_start;
        st.planning = false;
        if st.turn - st.round_turn0 >= self.turn_limit {
            // A game won by the last allowed turn is won: the tests at the start of the next
            // turn still run, and the limit ends the game only where it would go on.
            st.limit_reached = true;
        }
    }

    /// At a decision or a chance event: true (and the game ends as a draw, or scored as the
    /// limit says) when the round's last allowed turn, or its last allowed decision, is over.
    fn stops_at_limit(&self, st: &mut State) -> bool {
        if st.limit_reached {
            self.end_at_limit(st);
        }
        st.limit_reached
    }

    /// The end of a game at a limit: the turn limit's when it is reached (also when the move
    /// limit is reached at once), else the move limit's.
    #[cold]
    #[inline(never)]
    fn end_at_limit(&self, st: &mut State) {
        let (reason, end) = if st.turn - st.round_turn0 >= self.turn_limit {
            (EndReason::TurnLimit, &self.prog.limit_ends[0])
        } else {
            (EndReason::MoveLimit, &self.prog.limit_ends[1])
        };
        let winner = match end {
            EndOp::Draw => None,
            EndOp::Score => self.score_winner(st),
            EndOp::Winner(p) => {
                let p = p(&st.b, &mut st.r);
                self.player_index(p).map(|p| self.side_of(Player(p as u8)))
            }
        };
        self.finish(st, winner, reason);
    }

    /// The side with the highest score (the value of its captures), or none on equal scores.
    fn score_winner(&self, st: &State) -> Option<Player> {
        let sides = self.sides.len();
        let mut best: Option<(usize, i64)> = None;
        let mut tie = false;
        for side in 0..sides {
            let score: i64 = (side..self.players.len())
                .step_by(sides)
                .map(|p| st.score(self, Player(p as u8)))
                .sum();
            match best {
                Some((_, b)) if score == b => tie = true,
                Some((_, b)) if score < b => {}
                _ => {
                    best = Some((side, score));
                    tie = false;
                }
            }
        }
        match (best, tie) {
            (Some((s, _)), false) => Some(Player(s as u8)),
            _ => None,
        }
    }

    pub(crate) fn finish(&self, st: &mut State, winner: Option<Player>, reason: EndReason) {
        self.finish_said(st, winner, reason, None);
    }

    /// Where the pieces of every kind but the first went in a lap, from the counts and
    /// holdings before it (only when the events are told): the sites and holdings that gained
    /// some, in the order of the sites.
    fn landings(
        &self,
        st: &State,
        counts: &[u32],
        bank: &[u32],
    ) -> Vec<(PieceKind, super::events::Landing)> {
        use super::events::Landing;
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

    /// The end of the game, with the `end game` statement that says why (if any).
    pub(crate) fn finish_said(
        &self,
        st: &mut State,
        winner: Option<Player>,
        reason: EndReason,
        said: Option<u32>,
    ) {
        st.moves.clear();
        // A fault of the rules stops the game whatever ended it then.
        let (winner, reason, said) = match st.b.fault.get() {
            Some(f) => (None, EndReason::Fault(f), None),
            None => (winner, reason, said),
        };
        st.pending = Pending::Over(Outcome {
            winner,
            reason,
            said,
        });
    }

    /// Where the program could loop (a jump back, a relay, the next element of a loop) and
    /// before it stops for a decision or a chance event: false (and the game is over) when the
    /// rules faulted or ran past the work allowed between two decisions.
    #[inline(always)]
    fn checkpoint(&self, st: &mut State) -> bool {
        if st.r.work > WORK_LIMIT {
            self.finish(st, None, EndReason::StepLimit);
            return false;
        }
        if let Some(f) = st.b.fault.get() {
            self.finish(st, None, EndReason::Fault(f));
            return false;
        }
        true
    }

    /// Runs the program until the next decision point, chance event or the end.
    pub(crate) fn run(&self, st: &mut State) {
        st.moves.clear();
        let prog = &*self.prog;
        let l = &prog.t.layout;
        if st.is_over() {
            st.moves.clear();
            return;
        }
        loop {
            st.r.work += 1;
            let Some(op) = prog.code.get(st.pc as usize) else {
                self.end_turn(st);
                if !self.checkpoint(st) {
                    return;
                }
                continue;
            };
            match op {
                Op::Jump(t) => {
                    if *t <= st.pc && !self.checkpoint(st) {
                        return;
                    }
                    st.pc = *t;
                }
                Op::JumpIfNot(c, t) => {
                    let v = c(&st.b, &mut st.r);
                    st.pc = if v == 0 { *t } else { st.pc + 1 };
                    if *t <= st.pc && !self.checkpoint(st) {
                        return;
                    }
                }
                Op::SetVar(v, e) => {
                    let x = e(&st.b, &mut st.r);
                    st.r.set(*v, x);
                    st.pc += 1;
                }
                Op::SetOwner(s, p) => {
                    let s = s(&st.b, &mut st.r);
                    let p = p(&st.b, &mut st.r);
                    if let Some(s) = prog.t.site(s) {
                        let o = self.player_index(p).map_or(-1, |p| p as i8);
                        st.b.set_owner(l, s, o);
                        st.log.push(|| Event::Owner {
                            site: SiteId(s as u16),
                            owner: (o >= 0).then_some(Player(o as u8)),
                        });
                    }
                    st.pc += 1;
                }
                Op::SetKind(s, k) => {
                    let s = s(&st.b, &mut st.r);
                    let k = k(&st.b, &mut st.r);
                    if let (Some(s), Some(k)) = (prog.t.site(s), SiteKind::from_index(k)) {
                        st.b.set_kind(l, s, k);
                        st.log.push(|| Event::Kind {
                            site: SiteId(s as u16),
                            kind: k,
                        });
                    }
                    st.pc += 1;
                }
                Op::Capture { set, keep, to } => {
                    self.collect(st, set);
                    let keep = keep(&st.b, &mut st.r);
                    let to = to(&st.b, &mut st.r);
                    if let (Some(keep), Some(to)) =
                        (pieces_count(&st.b.fault, keep), self.player_index(to))
                    {
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
                }
                Op::Place {
                    count,
                    piece,
                    on,
                    from,
                } => {
                    self.collect(st, on);
                    let n = count(&st.b, &mut st.r);
                    let from = from.as_ref().map(|f| f(&st.b, &mut st.r));
                    let created = n.max(0) as u64 * st.scratch.len() as u64;
                    if let Some(n) = pieces_count(&st.b.fault, n)
                        && (from.is_some() || st.b.create(created))
                    {
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
                            st.b.add_counters(l, s, *piece, n);
                            if n > 0 {
                                st.log.push(|| Event::Placed {
                                    site: SiteId(s as u16),
                                    kind: PieceKind(*piece as u8),
                                    pieces: n,
                                    from: from
                                        .and_then(|p| self.player_index(p))
                                        .map(|p| Player(p as u8)),
                                });
                            }
                        }
                    }
                    st.pc += 1;
                }
                Op::Choose(id) => {
                    if st.look.active {
                        // A look-ahead stops where the next choice is reached, before its
                        // decisions are listed (see `lookahead`).
                        return self.look_stops(st, *id);
                    }
                    self.enumerate(st, *id);
                    let otherwise = prog.choices[*id as usize].otherwise;
                    if !self.checkpoint(st) {
                        return;
                    }
                    if let (true, Some(t)) = (st.moves.is_empty(), otherwise) {
                        st.pc = t; // `else { … }`
                    } else if self.stops_at_limit(st) {
                        return;
                    } else if st.moves.is_empty() {
                        // No legal decision: the player passes (the rest of his turn is skipped).
                        st.passes += 1;
                        st.last_passer = st.b.mover;
                        st.log.push(|| Event::Passed {
                            player: Player(st.b.mover),
                        });
                        self.end_turn(st);
                        if !self.checkpoint(st) {
                            return;
                        }
                    } else {
                        st.pending = Pending::Choice(*id);
                        return;
                    }
                }
                Op::SowStart { from, dir } => {
                    let f = from(&st.b, &mut st.r);
                    let d = dir(&st.b, &mut st.r);
                    st.b.sow_dir = u8::from(d != 0);
                    st.lap_keys.clear();
                    st.lap_snaps.clear();
                    st.planning = false;
                    match prog.t.site(f) {
                        Some(s) => {
                            self.pick_up(st, s);
                            st.cursor = s as u16;
                        }
                        None => st.cursor = NONE,
                    }
                    st.pc += 1;
                }
                Op::SowLap {
                    orders,
                    skip,
                    last,
                    on_cycle,
                    sown,
                } => {
                    if !st.planning {
                        if self.lap_repeats(st) {
                            // The position at the start of this lap was seen before in this
                            // sowing: it would go on forever. Put the hand back and stop.
                            st.cycles_cut += 1;
                            st.log.push(|| Event::CycleCut {
                                at: SiteId(st.cursor),
                            });
                            self.put_back(st);
                            st.pc = *on_cycle;
                            continue;
                        }
                        self.init_plan(st, *orders);
                    }
                    if st.planning && self.plan_step(st) {
                        if !self.checkpoint(st) {
                            return;
                        }
                        return;
                    }
                    let lap = (st.log.on && st.cursor != NONE).then(|| {
                        let pieces = st.hand.iter().sum::<u32>();
                        // the kinds but the first in hand, and where they are before the lap
                        let nk = self.pieces.len();
                        let marked = (1..nk).any(|k| st.hand[k] > 0);
                        let before = marked.then(|| (st.b.counts.clone(), st.b.bank.clone()));
                        (SiteId(st.cursor), pieces, st.lap_keys.len() > 1, before)
                    });
                    let last_site = match sown {
                        None => self.sow_lap(st, skip.as_ref()),
                        // `sown` is read: the pieces the lap dropped
                        Some(v) => {
                            let (last_site, dropped) = self.sow_lap_counted(st, skip.as_ref());
                            st.r.set(*v, dropped as i64);
                            last_site
                        }
                    };
                    st.r.set(*last, last_site);
                    if let Some((from, pieces, relay, before)) = lap {
                        let went = before
                            .map(|(counts, bank)| self.landings(st, &counts, &bank))
                            .unwrap_or_default();
                        st.log.push(|| Event::Lap {
                            from,
                            pieces,
                            last: prog.t.site(last_site).map(|s| SiteId(s as u16)),
                            relay,
                            went,
                        });
                    }
                    st.pc += 1;
                }
                Op::Relay { site, lap } => {
                    let s = site(&st.b, &mut st.r);
                    if let Some(s) = prog.t.site(s) {
                        self.pick_up(st, s);
                        st.cursor = s as u16;
                    }
                    st.pc = *lap;
                    if !self.checkpoint(st) {
                        return;
                    }
                }
                Op::EndTurn => {
                    self.end_turn(st);
                    if !self.checkpoint(st) {
                        return;
                    }
                }
                Op::EndRound => match self.between_start {
                    Some(at) => {
                        st.planning = false;
                        st.limit_reached = false;
                        st.another_turn = false;
                        st.moves_left = self.prog.move_limit;
                        st.pc = at;
                    }
                    None => {
                        let winner = self.score_winner(st);
                        self.finish(st, winner, EndReason::Rules);
                        return;
                    }
                },
                Op::NewRound => {
                    if st.b.round >= super::ROUND_LIMIT {
                        self.finish(st, None, EndReason::RoundLimit);
                        return;
                    }
                    st.b.round += 1;
                    st.b.mover = st.b.round_first;
                    st.b.seen.round_begins(st.b.mover);
                    st.round_turn0 = st.turn;
                    st.limit_reached = false;
                    st.another_turn = false;
                    st.moves_left = self.prog.move_limit;
                    st.planning = false;
                    st.pc = self.turn_start;
                    if !self.checkpoint(st) {
                        return;
                    }
                }
                Op::SetMover(p) => {
                    let p = p(&st.b, &mut st.r);
                    if let Some(p) = self.player_index(p) {
                        st.b.mover = p as u8;
                    }
                    st.pc += 1;
                }
                Op::SetTally {
                    slot,
                    player,
                    value,
                } => {
                    let x = value(&st.b, &mut st.r);
                    let at = match player {
                        None => Some(*slot),
                        Some(p) => {
                            let p = p(&st.b, &mut st.r);
                            self.player_index(p).map(|p| *slot + p)
                        }
                    };
                    if let Some(v) = at.and_then(|i| st.b.tallies.get_mut(i)) {
                        *v = x;
                    }
                    st.pc += 1;
                }
                Op::Give {
                    count,
                    piece,
                    from,
                    to,
                } => {
                    let n = count(&st.b, &mut st.r);
                    let a = from(&st.b, &mut st.r);
                    let b = to(&st.b, &mut st.r);
                    if n < 0 {
                        raise(&st.b.fault, Fault::NegativeCount);
                    } else if let (Some(a), Some(b), true) =
                        (self.player_index(a), self.player_index(b), n > 0)
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
                                    kind: PieceKind(*piece as u8),
                                    pieces: n,
                                });
                            }
                            _ => raise(&st.b.fault, Fault::NotEnoughHeld),
                        }
                    }
                    st.pc += 1;
                }
                Op::EndGame(rule, said) => {
                    let winner = match rule {
                        EndOp::Draw => None,
                        EndOp::Winner(p) => {
                            let p = p(&st.b, &mut st.r);
                            self.player_index(p).map(|p| self.side_of(Player(p as u8)))
                        }
                        EndOp::Score => self.score_winner(st),
                    };
                    self.finish_said(st, winner, EndReason::Rules, *said);
                    return;
                }
                Op::Throw { dice, var } => {
                    if !self.checkpoint(st) || self.stops_at_limit(st) {
                        return;
                    }
                    st.throw_var = *var;
                    st.pending = Pending::Throw(*dice);
                    return;
                }
                Op::PlaceTokens {
                    count,
                    piece,
                    on,
                    area,
                    owner,
                } => {
                    self.place_tokens(st, count, *piece, on.as_ref(), *area, owner.as_ref());
                    st.pc += 1;
                }
                Op::Move {
                    token,
                    to,
                    onto_site,
                    carry,
                } => {
                    let t = token(&st.b, &mut st.r);
                    let to = to(&st.b, &mut st.r);
                    self.move_token(st, t, to, *onto_site, *carry);
                    st.pc += 1;
                }
                Op::Send { token, area } => {
                    let t = token(&st.b, &mut st.r);
                    if let Some(t) = prog.t.token(t) {
                        let from = st.b.toks.site_of(t);
                        st.b.remove_token(self, l, t, *area, prog.t.tok_before[t]);
                        st.log.push(|| Event::Sent {
                            token: t,
                            from,
                            area: *area,
                        });
                    }
                    st.pc += 1;
                }
                Op::ForTokens { slot, q } => {
                    let mut list = std::mem::take(&mut st.loops[*slot as usize]);
                    list.clear();
                    q.for_each(&st.b, &mut st.r, |_, _, x| {
                        list.push(x as u16);
                        true
                    });
                    st.loops[*slot as usize] = list;
                    st.loop_at[*slot as usize] = 0;
                    st.pc += 1;
                }
                Op::ForSites { slot, set } => {
                    let mut list = std::mem::take(&mut st.loops[*slot as usize]);
                    list.clear();
                    set.for_each(&st.b, &mut st.r, &mut |_, _, s| {
                        list.push(s as u16);
                        true
                    });
                    st.loops[*slot as usize] = list;
                    st.loop_at[*slot as usize] = 0;
                    st.pc += 1;
                }
                Op::SetTallyAt(at) => self.set_tally_at(st, at),
                Op::ForgetPositions => {
                    st.b.seen.forget();
                    st.pc += 1;
                }
                Op::ForNext { slot, var, end } => {
                    let (list, i) = (&st.loops[*slot as usize], &mut st.loop_at[*slot as usize]);
                    match list.get(*i) {
                        Some(&x) => {
                            *i += 1;
                            st.r.set(*var, x as i64);
                            st.pc += 1;
                        }
                        None => st.pc = *end,
                    }
                    if !self.checkpoint(st) {
                        return;
                    }
                }
                Op::AnotherTurn => {
                    st.another_turn = true;
                    st.pc += 1;
                }
                Op::First(p) => match p {
                    Some(p) => {
                        let p = p(&st.b, &mut st.r);
                        if let Some(p) = self.player_index(p) {
                            st.b.mover = p as u8;
                            st.b.round_first = p as u8;
                        }
                        st.pc += 1;
                    }
                    None => {
                        if self.checkpoint(st) && !self.stops_at_limit(st) {
                            st.pending = Pending::ChanceFirst;
                        }
                        return;
                    }
                },
            }
        }
    }

    /// `set marked(h) = n`.
    #[inline(never)]
    pub(crate) fn set_tally_at(
        &self,
        st: &mut State,
        at: &(usize, super::compile::Num, super::compile::Num),
    ) {
        let (slot, site, value) = at;
        let x = value(&st.b, &mut st.r);
        let s = site(&st.b, &mut st.r);
        if let Some(v) = self
            .prog
            .t
            .site(s)
            .and_then(|s| st.b.tallies.get_mut(*slot + s))
        {
            *v = x;
        }
        st.pc += 1;
    }

    /// The sites of a set, in order, into the state's scratch list.
    fn collect(&self, st: &mut State, set: &super::compile::CSet) {
        let mut out = std::mem::take(&mut st.scratch);
        out.clear();
        set.for_each(&st.b, &mut st.r, &mut |_, _, s| {
            out.push(s as u16);
            true
        });
        st.scratch = out;
    }

    fn place_tokens(
        &self,
        st: &mut State,
        count: &super::compile::Num,
        piece: u8,
        on: Option<&super::compile::CSet>,
        area: u8,
        owner: Option<&super::compile::Num>,
    ) {
        let t = self.prog.t.clone();
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
                    // The first token of that player and kind not placed yet.
                    let unplaced = st.b.toks.in_area(super::tokens::UNPLACED);
                    let mut found = None;
                    super::bits::for_each(unplaced, |x| {
                        if t.tok_owner[x] as usize == p && t.tok_kind[x] == piece {
                            found = Some(x);
                            false
                        } else {
                            true
                        }
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

    fn move_token(&self, st: &mut State, token: i64, to: i64, onto_site: bool, carry: bool) {
        let t = self.prog.t.clone();
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
