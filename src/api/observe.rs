//! What a learning program reads of a position: the observation tensor, a fixed-size vector
//! of numbers built from what the game file declares (sites, piece kinds, players, tokens,
//! areas, tallies, dice), and a bound on the length of a game; and the history of a game as
//! numbers (OpenSpiel's convention), replayed.

use crate::engine::{Game, IllegalMove, State};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};

use super::play::Action;

/// The kinds of sites, in the order of their one-hot features.
const SITE_KINDS: [SiteKind; 5] = [
    SiteKind::Hole,
    SiteKind::Store,
    SiteKind::Cell,
    SiteKind::Point,
    SiteKind::Void,
];

/// The names of the parts of the observation tensor, in order.
const PARTS: [&str; 7] = [
    "sites", "areas", "captured", "tallies", "turn", "throw", "round",
];

impl Game {
    /// The parts of the observation tensor, in order: each part's name and how many numbers it
    /// has. With S sites, K piece kinds, P players, A areas off the board:
    ///
    /// - `sites`: S blocks, one per site in the order of [`Game::all_sites`], each of
    ///   `5 + K + P` numbers, plus `P × K` when the game has tokens: the site's kind one-hot
    ///   (hole, store, cell, point, void), the counters of each kind on it, whether each
    ///   player owns it (0 or 1), and (with tokens) the tokens of each player and kind on it;
    /// - `areas`: for each area off the board, then each player, his tokens there (A × P);
    /// - `captured`: for each player, then each kind, the pieces he has captured (P × K);
    /// - `tallies`: each tally in the order of [`Game::all_tallies`]: one number, or P (`per
    ///   player`), or S (`per site`);
    /// - `turn`: whose decision it is, one-hot over the players (all 0 at a chance event or
    ///   at the end), then 1 at a chance event, then 1 at the end (P + 2);
    /// - `throw`: the last throw, one-hot over every outcome of every set of dice in the order
    ///   of [`Game::all_dice`] (all 0 before the first throw, and in a game without dice);
    /// - `round`: the round being played (1 for the first).
    ///
    /// Counts and tallies are their values, not scaled. The layout depends only on the game's
    /// file and settings.
    ///
    /// ```
    /// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
    ///     .unwrap();
    /// let parts = g.observation_layout();
    /// assert_eq!(parts[0].0, "sites");
    /// let total: usize = parts.iter().map(|p| p.1).sum();
    /// assert_eq!(total, g.observation_tensor_size());
    /// assert_eq!(g.observation_tensor(&g.start()).len(), total);
    /// ```
    pub fn observation_layout(&self) -> Vec<(&'static str, usize)> {
        PARTS.into_iter().zip(self.part_sizes()).collect()
    }

    /// The length of each part of the tensor, in the order of [`PARTS`] (nothing allocated).
    fn part_sizes(&self) -> [usize; 7] {
        let (s, k, p) = (self.sites.len(), self.pieces.len(), self.players.len());
        let tallies: usize = self
            .tallies
            .iter()
            .map(|t| match (t.per_player, t.per_site) {
                (true, _) => p,
                (_, true) => s,
                _ => 1,
            })
            .sum();
        [
            s * self.site_features(),
            self.areas.len() * p,
            p * k,
            tallies,
            p + 2,
            self.dice.iter().map(|d| d.outcomes.len()).sum(),
            1,
        ]
    }

    /// The numbers of one site's block in the tensor.
    fn site_features(&self) -> usize {
        let (k, p) = (self.pieces.len(), self.players.len());
        SITE_KINDS.len() + k + p + if self.tokens.is_empty() { 0 } else { p * k }
    }

    /// The length of [`Game::observation_tensor`].
    pub fn observation_tensor_size(&self) -> usize {
        self.part_sizes().iter().sum()
    }

    /// The observation tensor of a position (see [`Game::observation_layout`] for what each
    /// number is). Both players see the whole position: ludic's games have no hidden
    /// information.
    pub fn observation_tensor(&self, st: &State) -> Vec<f32> {
        let mut v = vec![0.0; self.observation_tensor_size()];
        self.observation_tensor_into(st, &mut v);
        v
    }

    /// [`Game::observation_tensor`] into a buffer (of [`Game::observation_tensor_size`]
    /// numbers at least; the rest is left alone), allocating nothing.
    pub fn observation_tensor_into(&self, st: &State, out: &mut [f32]) {
        let (ns, nk, np) = (self.sites.len(), self.pieces.len(), self.players.len());
        let size = self.observation_tensor_size();
        if out.len() < size {
            return;
        }
        let out = &mut out[..size];
        out.fill(0.0);
        let f = self.site_features();
        for s in 0..ns {
            let site = SiteId(s as u16);
            let b = &mut out[s * f..(s + 1) * f];
            if let Some(i) = SITE_KINDS.iter().position(|&k| k == st.site_kind(site)) {
                b[i] = 1.0;
            }
            let b = &mut b[SITE_KINDS.len()..];
            for (k, x) in b[..nk].iter_mut().enumerate() {
                *x = st.count(self, site, PieceKind(k as u8)) as f32;
            }
            if let Some(p) = st.site_owner(site).filter(|p| (p.0 as usize) < np) {
                b[nk + p.0 as usize] = 1.0;
            }
        }
        let mut at = ns * f;
        let areas = at;
        at += self.areas.len() * np;
        for (t, info) in self.tokens.iter().enumerate() {
            let (o, k) = (info.owner.0 as usize, st.tokens().kind_of(t).0 as usize);
            if let Some(s) = st.tokens().site_of(t) {
                let i = s.0 as usize * f + SITE_KINDS.len() + nk + np + o * nk + k;
                if let Some(x) = out.get_mut(i) {
                    *x += 1.0;
                }
            } else if let Some(a) = st.tokens().area_of(t)
                && let Some(x) = out.get_mut(areas + a as usize * np + o)
            {
                *x += 1.0;
            }
        }
        for p in 0..np {
            for k in 0..nk {
                out[at] = st.captured(self, Player(p as u8), PieceKind(k as u8)) as f32;
                at += 1;
            }
        }
        for t in &self.tallies {
            if t.per_player {
                for p in 0..np {
                    out[at] = st.tally_value(t, Some(Player(p as u8))).unwrap_or(0) as f32;
                    at += 1;
                }
            } else if t.per_site {
                for s in 0..ns {
                    out[at] = st.tally_at(t, SiteId(s as u16)).unwrap_or(0) as f32;
                    at += 1;
                }
            } else {
                out[at] = st.tally_value(t, None).unwrap_or(0) as f32;
                at += 1;
            }
        }
        match self.current_player(st) {
            Some(p) => out[at + p.0 as usize] = 1.0,
            None if self.is_chance_node(st) => out[at + np] = 1.0,
            None => out[at + np + 1] = 1.0,
        }
        at += np + 2;
        if let Some((d, o)) = st.last_throw() {
            let before: usize = self.dice[..(d as usize).min(self.dice.len())]
                .iter()
                .map(|d| d.outcomes.len())
                .sum();
            if let Some(x) = out.get_mut(at + before + o as usize) {
                *x = 1.0;
            }
        }
        at += self.dice.iter().map(|d| d.outcomes.len()).sum::<usize>();
        out[at] = st.round() as f32;
    }

    /// A bound on the decisions of a game (chance events not counted), from its limits: in a
    /// round, the decisions allowed (`limit N moves`) or the turns allowed (`limit N turns`)
    /// times [`DECISION_LIMIT`](crate::DECISION_LIMIT) decisions a turn, whichever is smaller,
    /// plus [`DECISION_LIMIT`](crate::DECISION_LIMIT) for the decisions between two rounds;
    /// times [`ROUND_LIMIT`](crate::ROUND_LIMIT) rounds for a game with a `between rounds`
    /// program, else one. A game without a limit of turns or moves has none: `u64::MAX`. The
    /// bound is safe, not tight: the engine stops every game within it.
    ///
    /// ```
    /// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
    ///     .unwrap();
    /// assert!(g.max_game_length() > 0);
    /// ```
    pub fn max_game_length(&self) -> u64 {
        let d = u64::from(crate::DECISION_LIMIT);
        let by_turns = match self.turn_limit {
            u32::MAX => u64::MAX,
            t => u64::from(t).saturating_mul(d),
        };
        let by_moves = self.move_limit().map_or(u64::MAX, u64::from);
        let round = by_turns.min(by_moves);
        if round == u64::MAX {
            return u64::MAX;
        }
        if self.has_rounds() {
            round
                .saturating_add(d)
                .saturating_mul(u64::from(crate::ROUND_LIMIT))
        } else {
            round
        }
    }

    /// Applies one number of a game's history, as OpenSpiel's `apply_action` does: at a chance
    /// event the outcome's number (its place in [`Game::chance_outcomes`]), else a decision's
    /// action id. An illegal one leaves the state unchanged.
    pub fn apply_history_step(&self, st: &mut State, a: Action) -> Result<(), IllegalMove> {
        if self.is_chance_node(st) {
            self.apply_chance(st, a as usize)
        } else {
            self.apply_action(st, a)
        }
    }

    /// The position a history leads to from the start (each number as
    /// [`Game::apply_history_step`] takes it), or the place (from 0) of the first number that
    /// is refused, and why.
    ///
    /// ```
    /// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
    ///     .unwrap();
    /// let st = g.replay_history(&[]).unwrap();
    /// assert_eq!(g.observation_json(&st), g.observation_json(&g.start()));
    /// assert!(g.replay_history(&[u32::MAX]).is_err());
    /// ```
    pub fn replay_history(&self, history: &[Action]) -> Result<State, (usize, IllegalMove)> {
        let mut st = self.start();
        for (i, &a) in history.iter().enumerate() {
            self.apply_history_step(&mut st, a).map_err(|e| (i, e))?;
        }
        Ok(st)
    }
}
