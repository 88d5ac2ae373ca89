//! `Game`: a loaded game, shared by its states; `load_game` and `load_record`.

use crate::state::State;
use crate::{game_error, guard, json_to_py, settings};
use ludic::record::{Record, history_of_steps};
use ludic::{Source, Status};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// A game loaded from a built-in name, a path or the text of a `.game` file, with its option
/// settings (`ludic.load_game`). It is shared by all its states and never changes.
#[pyclass(frozen, module = "ludic._ludic")]
pub struct Game {
    pub(crate) g: Arc<ludic::Game>,
    /// what it was loaded from (the argument of `load_game`), for `__reduce__`
    pub(crate) source: String,
    /// the options given, as `NAME=VALUE`, and the variant
    pub(crate) sets: Vec<(String, String)>,
    pub(crate) variant: Option<String>,
}

impl Game {
    /// Loads a game (the same loading as the command line's).
    pub(crate) fn load(py: Python<'_>, source: &str, settings: ludic::Settings) -> PyResult<Game> {
        let src = Source::infer(source);
        let loaded = guard(|| Ok(ludic::load(&src, &settings)))?;
        match loaded {
            Ok(g) => Ok(Game {
                g: Arc::new(g),
                source: source.to_string(),
                sets: settings.sets,
                variant: settings.variant,
            }),
            Err(f) => Err(game_error(py, &f)),
        }
    }

    /// A state of this game at the start.
    pub(crate) fn state_at_start(slf: &Bound<'_, Game>) -> State {
        let g = &slf.get().g;
        State::new(slf.clone().unbind(), g.start(), vec![])
    }

    /// A state after a history (one number a step, as `apply_action` takes them).
    pub(crate) fn state_after(slf: &Bound<'_, Game>, history: Vec<u32>) -> PyResult<State> {
        let g = &slf.get().g;
        let st = guard(|| {
            g.replay_history(&history).map_err(|(i, e)| {
                PyValueError::new_err(format!("step {} of the history: {e}", i + 1))
            })
        })?;
        Ok(State::new(slf.clone().unbind(), st, history))
    }
}

/// Loads a game: `name_or_path_or_text` is a built-in game's name (`ludic.builtin_games()`),
/// the path of a `.game` file, or the text of one; `params` sets options (a dict of option
/// names to ints, bools or strings), `variant` names a variant. Raises `GameError` with the
/// command line's message when the game does not load.
#[pyfunction]
#[pyo3(signature = (name_or_path_or_text, params=None, variant=None))]
pub fn load_game(
    py: Python<'_>,
    name_or_path_or_text: &str,
    params: Option<&Bound<'_, PyDict>>,
    variant: Option<String>,
) -> PyResult<Game> {
    Game::load(py, name_or_path_or_text, settings(params, variant)?)
}

/// Reads a game record in the command line's format (the JSON text that `ludic play
/// --record` and `ludic match --record-dir` write) and replays it: returns the state it leads
/// to, whose `history()` is its steps as numbers and whose `game()` is the game loaded with
/// the record's options. `game` names another description to use instead of the record's.
/// Raises `ValueError` when the text is not a record or a step is not legal, `GameError` when
/// the game does not load.
#[pyfunction]
#[pyo3(signature = (text, game=None))]
pub fn load_record(py: Python<'_>, text: &str, game: Option<&str>) -> PyResult<State> {
    let rec: Record = serde_json::from_str(text)
        .map_err(|e| PyValueError::new_err(format!("not a ludic record: {e}")))?;
    if rec.format != ludic::record::FORMAT {
        return Err(PyValueError::new_err(format!(
            "a record of format {}; this ludic reads format {}",
            rec.format,
            ludic::record::FORMAT
        )));
    }
    let sets = rec
        .options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let settings = ludic::Settings {
        variant: None,
        sets,
    };
    let g = Game::load(py, game.unwrap_or(&rec.game), settings)?;
    let (st, history) = guard(|| {
        history_of_steps(&g.g, &rec.steps).map_err(|e| PyValueError::new_err(e.to_string()))
    })?;
    let g = Bound::new(py, g)?;
    Ok(State::new(g.unbind(), st, history))
}

#[pymethods]
impl Game {
    /// The number of players (with teams, each member of a side is a player).
    fn num_players(&self) -> usize {
        self.g.players().len()
    }

    /// The number of action ids: every decision of every position has an id below it.
    fn num_distinct_actions(&self) -> usize {
        self.g.num_actions()
    }

    /// The most outcomes a chance event can have (who plays first, each throw's chart).
    fn max_chance_outcomes(&self) -> usize {
        self.g.max_chance_outcomes()
    }

    /// A bound on the decisions of a game (chance events not counted), from its limits: in a
    /// round, the decisions allowed or the turns allowed times 10000 decisions a turn,
    /// whichever is smaller, plus 10000 for the decisions between two rounds; times 100000
    /// rounds for a game with rounds. Safe, not tight.
    fn max_game_length(&self) -> u64 {
        self.g.max_game_length()
    }

    /// The lowest return a player can get (-1: his side lost).
    fn min_utility(&self) -> f64 {
        -1.0
    }

    /// The highest return a player can get (1: his side won).
    fn max_utility(&self) -> f64 {
        1.0
    }

    /// The sum of the players' returns when it is the same at every end (a zero-sum game:
    /// two sides of equal size), else `None`.
    fn utility_sum(&self) -> Option<f64> {
        let (players, sides) = (self.g.players().len(), self.g.sides().len());
        (sides == 2 && players % 2 == 0).then_some(0.0)
    }

    /// The state at the start of the game.
    fn new_initial_state(slf: &Bound<'_, Game>) -> State {
        Game::state_at_start(slf)
    }

    /// The state a serialized history leads to (`State.serialize()`: one number a line).
    fn deserialize_state(slf: &Bound<'_, Game>, text: &str) -> PyResult<State> {
        let mut history = vec![];
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            history.push(line.parse::<u32>().map_err(|_| {
                PyValueError::new_err(format!("`{line}` is not an action in a serialized state"))
            })?);
        }
        Game::state_after(slf, history)
    }

    /// The state a history (a list of numbers, as `State.history()` gives) leads to.
    fn state_from_history(slf: &Bound<'_, Game>, history: Vec<u32>) -> PyResult<State> {
        Game::state_after(slf, history)
    }

    /// The name it was loaded by: a built-in game's file stem, the path, or `<text>`.
    fn name(&self) -> String {
        self.g.source_name().to_string()
    }

    /// The game's title, as its file says.
    fn title(&self) -> String {
        self.g.title().to_string()
    }

    /// The hash of the game's source text, as records keep it.
    fn source_hash(&self) -> String {
        self.g.source_hash().to_string()
    }

    /// The players' names, by player number.
    fn players(&self) -> Vec<String> {
        self.g.players().to_vec()
    }

    /// The sides' names (without teams, one per player).
    fn sides(&self) -> Vec<String> {
        self.g.sides().to_vec()
    }

    /// The side of each player, by player number.
    fn side_of_players(&self) -> Vec<usize> {
        (0..self.g.players().len())
            .map(|p| self.g.side_of(ludic::Player(p as u8)).0 as usize)
            .collect()
    }

    /// Every option's value in this game, as written in a setting (`{"holes": "7"}`).
    fn options(&self) -> std::collections::BTreeMap<String, String> {
        self.g.option_values()
    }

    /// The options given to `load_game` (the `params`, as `NAME -> VALUE` strings).
    fn params(&self) -> std::collections::BTreeMap<String, String> {
        self.sets.iter().cloned().collect()
    }

    /// The variant given to `load_game`, or `None`.
    fn variant(&self) -> Option<String> {
        self.variant.clone()
    }

    /// Each option of the game: a dict of `name`, `doc`, `value`, `default`, `domain`, `words`.
    fn option_descriptions(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = PyList::empty(py);
        for o in self.g.all_options() {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            d.set_item("doc", o.doc)?;
            d.set_item("value", &o.value)?;
            d.set_item("default", &o.default)?;
            d.set_item("domain", &o.domain)?;
            d.set_item("words", o.words.clone())?;
            list.append(d)?;
        }
        Ok(list.unbind())
    }

    /// The variants of the game: a dict of `name`, `doc` and `sets` (the options it sets).
    fn variants(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = PyList::empty(py);
        for v in self.g.all_variants() {
            let d = PyDict::new(py);
            d.set_item("name", v.name)?;
            d.set_item("doc", v.doc)?;
            d.set_item("sets", v.sets.clone())?;
            list.append(d)?;
        }
        Ok(list.unbind())
    }

    /// What kind of game it is, in pyspiel's words: a dict of `short_name`, `long_name`,
    /// `dynamics` (`sequential`), `chance_mode` (`explicit_stochastic` when it has a chance
    /// event, else `deterministic`), `information` (`perfect`), `utility` (`zero_sum` or
    /// `general_sum`), `reward_model` (`terminal`), `min_num_players`, `max_num_players`.
    fn get_type(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let g = &self.g;
        let chance = g.max_chance_outcomes() > 0
            && (g.all_dice().next().is_some() || g.is_chance_node(&g.start()));
        let d = PyDict::new(py);
        d.set_item("short_name", g.source_name())?;
        d.set_item("long_name", g.title())?;
        d.set_item("dynamics", "sequential")?;
        d.set_item(
            "chance_mode",
            if chance {
                "explicit_stochastic"
            } else {
                "deterministic"
            },
        )?;
        d.set_item("information", "perfect")?;
        let zero = self.utility_sum().is_some();
        d.set_item("utility", if zero { "zero_sum" } else { "general_sum" })?;
        d.set_item("reward_model", "terminal")?;
        d.set_item("min_num_players", g.players().len())?;
        d.set_item("max_num_players", g.players().len())?;
        Ok(d.unbind())
    }

    /// The shape of `State.observation_tensor()`: one dimension, its length.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.g.observation_tensor_size()]
    }

    /// The length of `State.observation_tensor()`.
    fn observation_tensor_size(&self) -> usize {
        self.g.observation_tensor_size()
    }

    /// The parts of the observation tensor in order, each `(name, length)`: `sites` (per site:
    /// its kind one-hot over hole, store, cell, point, void; the counters of each piece kind;
    /// whether each player owns it; with tokens, each player's tokens of each kind on it),
    /// `areas` (each area off the board, each player's tokens there), `captured` (each
    /// player's captures by kind), `tallies` (each tally: one value, or one per player, or one
    /// per site), `turn` (the mover one-hot, then chance, then terminal), `throw` (the last
    /// throw one-hot over every outcome of every set of dice), `round`.
    fn observation_tensor_layout(&self) -> Vec<(String, usize)> {
        self.g
            .observation_layout()
            .into_iter()
            .map(|(n, l)| (n.to_string(), l))
            .collect()
    }

    /// The game's source name and its options: `name(opt=value,...)`.
    fn __str__(&self) -> String {
        let opts: Vec<String> = self.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut s = format!("{}({})", self.g.source_name(), opts.join(","));
        if let Some(v) = &self.variant {
            s.push_str(&format!(" variant {v}"));
        }
        s
    }

    fn __repr__(&self) -> String {
        format!("<ludic.Game {}>", self.__str__())
    }

    /// Pickling: the game is loaded again from its source and settings.
    fn __reduce__(slf: &Bound<'_, Game>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let py = slf.py();
        let me = slf.get();
        let f = py.import("ludic._ludic")?.getattr("load_game")?;
        let params = PyDict::new(py);
        for (k, v) in &me.sets {
            params.set_item(k, v)?;
        }
        let args = (me.source.clone(), params, me.variant.clone()).into_pyobject(py)?;
        Ok((f.unbind(), args.into_any().unbind()))
    }

    /// Whether two games are the same: the same text and options.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Game>().is_ok_and(|o| {
            let o = o.get();
            o.g.source_hash() == self.g.source_hash()
                && o.g.option_values() == self.g.option_values()
        })
    }

    /// A hash of the game's text and options (equal games hash alike).
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.g.source_hash().hash(&mut h);
        self.g.option_values().hash(&mut h);
        h.finish()
    }

    /// Everything `ludic rules` would tell as data: a dict of `title`, `players`, `sides`,
    /// `sites` (name, x, y, kind, owner), `pieces`, `tallies`, `dice`, `options`, `variants`.
    fn describe(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let g = &self.g;
        let sites: Vec<serde_json::Value> = g
            .all_sites()
            .map(|s| {
                serde_json::json!({"name": s.name, "x": s.x, "y": s.y,
                    "kind": s.kind.name(),
                    "owner": s.owner.map(|p| g.player_name(p).to_string())})
            })
            .collect();
        let pieces: Vec<serde_json::Value> = g
            .piece_kinds()
            .map(|p| serde_json::json!({"name": p.name, "value": p.value}))
            .collect();
        let tallies: Vec<serde_json::Value> = g
            .all_tallies()
            .map(|t| serde_json::json!({"name": t.name, "doc": t.doc, "per_player": t.per_player, "per_site": t.per_site, "initial": t.initial}))
            .collect();
        let dice: Vec<serde_json::Value> = g
            .all_dice()
            .map(|d| serde_json::json!({"name": d.name, "outcomes": d.outcomes.iter().map(|(v, n, p)| serde_json::json!({"value": v, "name": n, "probability": p})).collect::<Vec<_>>()}))
            .collect();
        let v = serde_json::json!({
            "title": g.title(), "players": g.players(), "sides": g.sides(),
            "sites": sites, "pieces": pieces, "tallies": tallies, "dice": dice,
            "options": g.option_values(),
        });
        json_to_py(py, &v)
    }
}

/// Checks that a state passed from Python is of the bot's game (the same object, or a game
/// loaded from the same text with the same options).
pub(crate) fn same_game(a: &Game, b: &Game) -> PyResult<()> {
    let equal =
        || a.g.source_hash() == b.g.source_hash() && a.g.option_values() == b.g.option_values();
    if Arc::ptr_eq(&a.g, &b.g) || equal() {
        Ok(())
    } else {
        Err(PyTypeError::new_err("the state is of another game"))
    }
}

/// Whose turn it is, in pyspiel's numbers: the player, -1 at a chance event, -4 at the end.
pub(crate) fn player_id(g: &ludic::Game, st: &ludic::State) -> i64 {
    match g.status(st) {
        Status::Decision(p) => i64::from(p.0),
        Status::Chance => -1,
        Status::Over(_) => -4,
    }
}
