//! `State`: a position of a game and the history that led to it.

use crate::game::{Game, player_id};
use crate::{guard, json_to_py};
use ludic::Action;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

/// A position of a game, with the history that led to it (`game.new_initial_state()`).
/// Methods follow pyspiel's `State`: at a chance event `apply_action` takes an outcome's
/// number (from `chance_outcomes()`), elsewhere a legal action id.
#[pyclass(module = "ludic._ludic")]
pub struct State {
    pub(crate) game: Py<Game>,
    /// (in a mutex: a pyclass is shared between threads, and a position has cells)
    pub(crate) st: Mutex<ludic::State>,
    pub(crate) history: Vec<Action>,
}

impl State {
    pub(crate) fn new(game: Py<Game>, st: ludic::State, history: Vec<Action>) -> State {
        State {
            game,
            st: Mutex::new(st),
            history,
        }
    }

    /// The loaded game.
    pub(crate) fn g(&self) -> &ludic::Game {
        &self.game.get().g
    }

    /// The position.
    pub(crate) fn s(&self) -> MutexGuard<'_, ludic::State> {
        self.st.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `f(action)` or `f(player, action)`: pyspiel's two signatures, the action picked out.
fn last_of<'py, T: FromPyObject<'py>>(
    a: &Bound<'py, PyAny>,
    b: Option<&Bound<'py, PyAny>>,
) -> PyResult<T> {
    b.unwrap_or(a).extract()
}

#[pymethods]
impl State {
    /// Whose turn it is: the player's number, -1 (`CHANCE_PLAYER_ID`) at a chance event, -4
    /// (`TERMINAL_PLAYER_ID`) when the game is over.
    fn current_player(&self) -> i64 {
        player_id(self.g(), &self.s())
    }

    /// Whether a chance event is pending.
    fn is_chance_node(&self) -> bool {
        self.g().is_chance_node(&self.s())
    }

    /// Whether a player is to decide.
    fn is_player_node(&self) -> bool {
        player_id(self.g(), &self.s()) >= 0
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.g().is_terminal(&self.s())
    }

    /// Always False: ludic's games are sequential.
    fn is_simultaneous_node(&self) -> bool {
        false
    }

    /// The outcomes of the pending chance event as `(action, probability)` pairs (the action
    /// is the outcome's number, for `apply_action`); empty when no chance event is pending.
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.g()
            .chance_outcomes(&self.s())
            .into_iter()
            .enumerate()
            .map(|(i, (_, p))| (i as Action, p))
            .collect()
    }

    /// The legal action ids, in increasing order: the decisions of the player to move, or at
    /// a chance event the outcomes' numbers; empty at the end. With `player`, empty unless it
    /// is that player's turn.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<Action> {
        let g = self.g();
        if player.is_some_and(|p| p != player_id(g, &self.s())) {
            return vec![];
        }
        if g.is_chance_node(&self.s()) {
            (0..g.chance_count(&self.s()) as Action).collect()
        } else {
            g.legal_actions(&self.s())
        }
    }

    /// A list of 0 and 1, one per action id (`num_distinct_actions()` of them; at a chance
    /// event, `max_chance_outcomes()`): 1 for the legal ones.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask(&self, player: Option<i64>) -> Vec<u8> {
        let g = self.g();
        let n = if g.is_chance_node(&self.s()) {
            g.max_chance_outcomes()
        } else {
            g.num_actions()
        };
        let mut mask = vec![0u8; n];
        for a in self.legal_actions(player) {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = 1;
            }
        }
        mask
    }

    /// Plays an action: a legal action id, or at a chance event an outcome's number. Raises
    /// `ValueError` (with the command line's words) when it is not legal; the state is then
    /// unchanged.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = Action::try_from(action).map_err(|_| {
            PyValueError::new_err(format!("`action {action}` is not a legal decision here"))
        })?;
        let g = &self.game.get().g;
        let st = self.st.get_mut().unwrap_or_else(|e| e.into_inner());
        guard(|| {
            g.apply_history_step(st, a)
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })?;
        self.history.push(a);
        Ok(())
    }

    /// Plays a decision written in the command line's notation (`sow s7`, or its number in
    /// the list of legal decisions, as `ludic play` reads it; at a chance event an outcome's
    /// name) and returns its action id. Raises `ValueError` with the command line's message
    /// when it is not legal here.
    fn apply_notation(&mut self, text: &str) -> PyResult<Action> {
        let a = self.string_to_action_of(text)?;
        self.apply_action(i64::from(a))?;
        Ok(a)
    }

    /// The notation of an action here (`sow s7`), or at a chance event the outcome's name.
    /// Called as pyspiel does: `action_to_string(action)` or `action_to_string(player,
    /// action)`.
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(
        &self,
        player_or_action: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let a: i64 = last_of(player_or_action, action)?;
        let g = self.g();
        let Ok(a) = Action::try_from(a) else {
            return Ok(format!("action {a}"));
        };
        Ok(if g.is_chance_node(&self.s()) {
            if (a as usize) < g.chance_count(&self.s()) {
                g.outcome_name(&self.s(), i64::from(a))
            } else {
                format!("outcome {a}")
            }
        } else {
            g.action_to_string(&self.s(), a)
        })
    }

    /// The action id of a decision written in notation (or at a chance event the number of
    /// the outcome named); `string_to_action(text)` or `string_to_action(player, text)`.
    /// Raises `ValueError` with the command line's message when it names no legal decision.
    #[pyo3(signature = (player_or_text, text=None))]
    fn string_to_action(
        &self,
        player_or_text: &Bound<'_, PyAny>,
        text: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Action> {
        let t: String = last_of(player_or_text, text)?;
        self.string_to_action_of(&t)
    }

    /// What each player got: 1 when his side won, -1 when another side won, 0 for a draw and
    /// while the game goes on.
    fn returns(&self) -> Vec<f64> {
        self.g().returns(&self.s())
    }

    /// What each player got from the last step: the returns once the game is over (rewards
    /// come only at the end), else 0 for everyone.
    fn rewards(&self) -> Vec<f64> {
        self.g().returns(&self.s())
    }

    /// `returns()[player]`.
    fn player_return(&self, player: usize) -> PyResult<f64> {
        self.returns()
            .get(player)
            .copied()
            .ok_or_else(|| PyValueError::new_err(format!("no player {player}")))
    }

    /// `rewards()[player]`.
    fn player_reward(&self, player: usize) -> PyResult<f64> {
        self.player_return(player)
    }

    /// A copy of the state (the game is shared).
    fn clone(&self, py: Python<'_>) -> State {
        State {
            game: self.game.clone_ref(py),
            st: Mutex::new(self.s().clone()),
            history: self.history.clone(),
        }
    }

    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone(py)
    }

    /// Pickling: the game, then the history replayed.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let f = self.game.bind(py).getattr("state_from_history")?;
        let args = (self.history.clone(),).into_pyobject(py)?;
        Ok((f.unbind(), args.into_any().unbind()))
    }

    /// The game of the state.
    fn get_game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// Every step from the start, one number each (an action id, or at a chance event the
    /// outcome's number).
    fn history(&self) -> Vec<Action> {
        self.history.clone()
    }

    /// The history as a string, pyspiel's way: the numbers joined by `, `.
    fn history_str(&self) -> String {
        self.history
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The steps played, chance events included.
    fn move_number(&self) -> usize {
        self.history.len()
    }

    /// The state as text, pyspiel's default way: the history, one number a line
    /// (`game.deserialize_state` replays it).
    fn serialize(&self) -> String {
        self.history.iter().map(|a| format!("{a}\n")).collect()
    }

    /// The position in words, as the command line draws it (every player sees everything:
    /// `player` is accepted and ignored).
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<i64>) -> String {
        let _ = player;
        ludic::render::board_text(self.g(), &self.s())
    }

    /// The observation tensor (a list of floats, `game.observation_tensor_size()` of them, laid
    /// out as `game.observation_tensor_layout()` says): per site its kind, counters by kind,
    /// owner and tokens; tokens off the board; captures; tallies; whose turn; the last throw;
    /// the round. The same for every player (perfect information).
    #[pyo3(signature = (player=None))]
    fn observation_tensor(&self, player: Option<i64>) -> Vec<f32> {
        let _ = player;
        self.g().observation_tensor(&self.s())
    }

    /// The position as the command line's JSON (`ludic replay --format json`): a dict of
    /// `game`, `sites`, `tokens`, `turn`, `mover`, `pending`, `legal`, `captured`, `scores`,
    /// `result`, `cycles_cut`, `round`, `tallies`.
    fn to_json(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        json_to_py(py, &self.g().observation_json(&self.s()))
    }

    /// The game so far as a record in the command line's format (JSON text): `ludic replay`
    /// replays it, `ludic.load_record` reads it back. `seed` and `agents` (a dict of player
    /// name to who played him) are written into it.
    #[pyo3(signature = (seed=None, agents=None))]
    fn to_record(
        &self,
        seed: Option<u64>,
        agents: Option<BTreeMap<String, String>>,
    ) -> PyResult<String> {
        let g = self.g();
        let rec = guard(|| {
            ludic::record::record_of_history(g, &self.history, seed, agents.unwrap_or_default())
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })?;
        serde_json::to_string_pretty(&rec)
            .map(|t| t + "\n")
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The result once the game is over: a dict of `winner` (a side's name or None for a
    /// draw), `reason`, `why` (and `fault`), as in the command line's JSON; None before.
    fn result(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let v = self.g().observation_json(&self.s());
        json_to_py(py, &v["result"])
    }

    /// The legal decisions in notation, in the order of `legal_actions()` (at a chance
    /// event, the outcomes' names).
    fn legal_action_strings(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut out = vec![];
        for a in self.legal_actions(None) {
            let a = a.into_pyobject(py)?.into_any();
            out.push(self.action_to_string(&a, None)?);
        }
        Ok(out)
    }

    /// The position in words, as the command line draws it.
    fn __str__(&self) -> String {
        ludic::render::board_text(self.g(), &self.s())
    }

    fn __repr__(&self) -> String {
        format!(
            "<ludic.State of {} after {} steps>",
            self.g().source_name(),
            self.history.len()
        )
    }

    /// Two states are equal when they are of the same game and have the same history.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<State>().is_ok_and(|o| {
            let o = o.borrow();
            std::ptr::eq(o.g(), self.g()) && o.history == self.history
        })
    }
}

impl State {
    /// The action of a text at this state (a decision's notation, or an outcome's name).
    fn string_to_action_of(&self, text: &str) -> PyResult<Action> {
        let g = self.g();
        if g.is_chance_node(&self.s()) {
            return g
                .parse_outcome(&self.s(), text)
                .map(|o| o as Action)
                .map_err(PyValueError::new_err);
        }
        if g.is_terminal(&self.s()) {
            return Err(PyValueError::new_err("the game is over"));
        }
        g.string_to_action(&self.s(), text)
            .map_err(PyValueError::new_err)
    }
}

/// The state passed to a bot or a function: a `ludic.State`, or an OpenSpiel/PettingZoo
/// wrapper holding one as `.ludic_state`.
pub(crate) fn state_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, State>> {
    if let Ok(s) = obj.downcast::<State>() {
        return Ok(s.clone());
    }
    if let Ok(inner) = obj.getattr("ludic_state")
        && let Ok(s) = inner.downcast::<State>()
    {
        return Ok(s.clone());
    }
    Err(PyTypeError::new_err(
        "expected a ludic.State (or a state wrapping one as `.ludic_state`)",
    ))
}
