//! Playing through the API: action ids, whose turn, chance, the result, the observation and
//! the events of a step. Every method is one of [`Game`], taking the [`State`] it works on.

use crate::engine::{Decision, Event, Game, IllegalMove, Outcome, Pending, State};
use crate::ir::Player;

/// An action id: a number below [`Game::num_actions`] that names one decision of the game,
/// the same in every position (see [`crate::actions`] for how the ids are laid out).
pub type Action = u32;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// a player decides: [`Game::legal_actions`] are his decisions
    Decision(Player),
    /// a chance event: [`Game::chance_outcomes`] are its outcomes
    Chance,
    /// the game is over, with this result
    Over(Outcome),
}

impl Game {
    /// The name the game was loaded by: a built-in game's file stem (`my-game`), the path of its
    /// file, `<text>` for a text; empty for a game built with [`Game::new`].
    pub fn source_name(&self) -> &str {
        &self.origin.0
    }

    /// The hash of the game's source text ([`crate::source_hash`]), as records keep it; empty
    /// for a game built with [`Game::new`].
    pub fn source_hash(&self) -> &str {
        &self.origin.1
    }

    /// Names the game's origin: the name it was loaded by and its source text (hashed), as
    /// [`crate::load`] does, for a game loaded otherwise ([`crate::load_game`]).
    pub fn set_origin(&mut self, name: &str, source: &str) {
        self.origin = std::sync::Arc::new((name.to_string(), crate::source_hash(source)));
    }

    /// How many action ids the game has: every decision of every position has an id below
    /// it. It depends only on the game's file and settings. A game whose sower orders the
    /// drops of a lap has
    /// [`MAX_ORDERED_LAP`](crate::actions::MAX_ORDERED_LAP) ids for them.
    ///
    /// ```
    /// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
    ///     .unwrap();
    /// let st = g.start();
    /// assert!(g.legal_actions(&st).iter().all(|&a| (a as usize) < g.num_actions()));
    /// ```
    pub fn num_actions(&self) -> usize {
        self.actions.total() as usize
    }

    /// The legal decisions' ids, in increasing order (empty at a chance event or at the end).
    pub fn legal_actions(&self, st: &State) -> Vec<Action> {
        let mut v = Vec::with_capacity(st.moves().len());
        self.legal_actions_into(st, &mut v);
        v
    }

    /// [`Game::legal_actions`] into a buffer, which is cleared first: nothing is allocated
    /// once the buffer has grown.
    pub fn legal_actions_into(&self, st: &State, out: &mut Vec<Action>) {
        out.clear();
        out.extend(st.moves().iter().filter_map(|&d| self.actions.id_of(st, d)));
        // the decisions come alternative by alternative, in the order of their values: sorted
        // already but for a set listed out of order and a choice whose alternatives share a
        // value
        if !out.is_sorted() {
            out.sort_unstable();
        }
    }

    /// The id of a decision at the state's pending point (`None` when the pending point
    /// cannot have that decision, legal or not).
    pub fn action_of(&self, st: &State, d: Decision) -> Option<Action> {
        self.actions.id_of(st, d)
    }

    /// The decision an id names at the state's pending point (`None` when it names none of
    /// this point's kind; a decision returned may still be illegal here).
    pub fn decision_of(&self, st: &State, a: Action) -> Option<Decision> {
        self.actions.decision_of(st, a)
    }

    /// Plays the decision of id `a`; an illegal one leaves the state unchanged.
    ///
    /// ```
    /// let g = ludic::load(&ludic::Source::infer(ludic::builtin::GAMES[0].0), &Default::default())
    ///     .unwrap();
    /// let mut st = g.start();
    /// let a = g.legal_actions(&st)[0];
    /// g.apply_action(&mut st, a).unwrap();
    /// assert!(g.apply_action(&mut st, g.num_actions() as u32).is_err());
    /// ```
    pub fn apply_action(&self, st: &mut State, a: Action) -> Result<(), IllegalMove> {
        let d = self.checked_decision(st, a)?;
        self.play_unchecked(st, d);
        Ok(())
    }

    /// Plays the decision of id `a` like [`Game::apply_action`] and returns what the rules did
    /// until the next decision, chance event or end (for narration).
    pub fn apply_action_narrated(
        &self,
        st: &mut State,
        a: Action,
    ) -> Result<Vec<Event>, IllegalMove> {
        let d = self.checked_decision(st, a)?;
        self.play_narrated(st, d)
    }

    /// Applies outcome number `i` of the pending chance event (its place in
    /// [`Game::chance_outcomes`]).
    pub fn apply_chance(&self, st: &mut State, i: usize) -> Result<(), IllegalMove> {
        self.play_chance(st, i as i64)
    }

    /// Applies a chance outcome like [`Game::apply_chance`] and returns what followed it.
    pub fn apply_chance_narrated(
        &self,
        st: &mut State,
        i: usize,
    ) -> Result<Vec<Event>, IllegalMove> {
        self.play_chance_narrated(st, i as i64)
    }

    /// Reads a decision in notation and plays it (see [`Game::parse_decision`] for what is
    /// read, and its messages); returns its id.
    pub fn apply_notation(&self, st: &mut State, text: &str) -> Result<Action, String> {
        let d = self.parse_decision(st, text)?;
        let a = self
            .action_of(st, d)
            .ok_or_else(|| format!("`{text}` has no action id"))?;
        self.play_unchecked(st, d);
        Ok(a)
    }

    /// The notation of the decision of id `a` here (`sow s7`, `mu@3`), or the id in words
    /// when it names no decision here.
    pub fn action_to_string(&self, st: &State, a: Action) -> String {
        match self.decision_of(st, a) {
            Some(d) => self.notation_of(st, d),
            None => format!("action {a}"),
        }
    }

    /// The id of a legal decision written in notation, read as the terminal reads a move (see
    /// [`Game::parse_decision`], with the same messages).
    pub fn string_to_action(&self, st: &State, text: &str) -> Result<Action, String> {
        let d = self.parse_decision(st, text)?;
        self.action_of(st, d)
            .ok_or_else(|| format!("`{text}` has no action id"))
    }

    /// The most outcomes a chance event of the game can have (who plays first, each throw's
    /// chart): [`Game::chance_outcomes`] never has more.
    pub fn max_chance_outcomes(&self) -> usize {
        self.dice
            .iter()
            .map(|d| d.outcomes.len())
            .chain([self.players.len()])
            .max()
            .unwrap_or(0)
    }

    /// Whose turn it is: a player's decision, a chance event, or the end with its result.
    pub fn status(&self, st: &State) -> Status {
        match st.pending() {
            Pending::Choice(_) | Pending::Drop(_) => Status::Decision(st.mover()),
            Pending::ChanceFirst | Pending::Throw(_) => Status::Chance,
            Pending::Over(o) => Status::Over(o),
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(&self, st: &State) -> bool {
        st.is_over()
    }

    /// Whether a chance event is pending.
    pub fn is_chance_node(&self, st: &State) -> bool {
        matches!(st.pending(), Pending::ChanceFirst | Pending::Throw(_))
    }

    /// The player who decides now (`None` at a chance event or at the end).
    pub fn current_player(&self, st: &State) -> Option<Player> {
        match self.status(st) {
            Status::Decision(p) => Some(p),
            _ => None,
        }
    }

    /// What each player gets from the game, by player number (the players of
    /// [`Game::players`]: one per side, or with teams each member of a side): 1 when his side
    /// won, -1 when another side won, 0 for a draw, and 0 for everyone while the game goes on.
    /// Teammates get the same.
    pub fn returns(&self, st: &State) -> Vec<f64> {
        (0..self.players.len())
            .map(|p| self.player_return(st, Player(p as u8)))
            .collect()
    }

    /// What one player gets (see [`Game::returns`]).
    pub fn player_return(&self, st: &State, p: Player) -> f64 {
        match st.outcome().map(|o| o.winner) {
            Some(Some(w)) if w == self.side_of(p) => 1.0,
            Some(Some(_)) => -1.0,
            _ => 0.0,
        }
    }

    /// The position as JSON, as `ludic replay --format json` shows it: `game` (the title),
    /// `sites` (by name: `kind`, `owner`, `pieces` by kind, `count`), `tokens` (`owner`,
    /// `kind`, `site`, `area`, `pos`), `turn` (from 1), `mover`, `pending` (`decision`,
    /// `chance` or `over`), `legal` (the notations of the legal decisions, in the order of
    /// [`State::moves`]), `captured` and `scores` by player, `result` (`winner`, `reason`,
    /// `why`, `fault`) or null, `cycles_cut`, `round`, `tallies` by name.
    pub fn observation_json(&self, st: &State) -> serde_json::Value {
        crate::render::state_json(self, st)
    }

    /// Checks that id `a` names a legal decision here.
    fn checked_decision(&self, st: &mut State, a: Action) -> Result<Decision, IllegalMove> {
        match st.pending() {
            Pending::Over(_) => return Err(IllegalMove::GameOver),
            Pending::ChanceFirst | Pending::Throw(_) => return Err(IllegalMove::ChancePending),
            _ => {}
        }
        match self.decision_of(st, a) {
            Some(d) if st.moves().contains(&d) && self.passes_deferred(st, d) => Ok(d),
            Some(d) => Err(IllegalMove::NotLegal(self.notation_of(st, d))),
            None => Err(IllegalMove::NotLegal(format!("action {a}"))),
        }
    }
}
