//! Bots: ludic's agents (`ludic::agents`) with pyspiel's `Bot` interface.

use crate::game::{Game, same_game};
use crate::guard;
use crate::state::state_of;
use ludic::agents::{Agent, AgentSpec, Event, Forfeit};
use ludic::{Action, Status};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use std::sync::Mutex;

/// One of ludic's computer players for one game, with pyspiel's `Bot` interface:
/// `step(state)` returns the action it chooses. Its random choices come from its own
/// generator, seeded when it is made (`seed`): the same seed and the same states give the
/// same actions (for a search with a number of playouts; a search with a time depends on the
/// machine).
#[pyclass(module = "ludic._ludic")]
pub struct Bot {
    game: Py<Game>,
    spec: String,
    seed: u64,
    agent: Mutex<(Box<dyn Agent>, Xoshiro256PlusPlus)>,
    /// the estimate of the last decision's search (none before, or when it was not searched)
    last: Mutex<Option<ludic::agents::Estimate>>,
}

impl Bot {
    fn make(game: Py<Game>, spec: &str, seed: u64) -> PyResult<Bot> {
        let parsed = AgentSpec::parse(spec, 1).map_err(PyValueError::new_err)?;
        let agent = parsed
            .build()
            .ok_or_else(|| PyValueError::new_err("`human` is not a computer player"))?;
        Ok(Bot {
            game,
            spec: spec.to_string(),
            seed,
            agent: Mutex::new((agent, Xoshiro256PlusPlus::seed_from_u64(seed))),
            last: Mutex::new(None),
        })
    }
}

/// ludic's Monte Carlo tree search as a bot for `game`: with a time a decision (`time`, in
/// seconds) or a number of playouts (`playouts`; deterministic for a seed), the exploration
/// constant `c` (default 0.5) and `threads` (default 1). Without a budget it searches about a
/// second a decision.
#[pyfunction]
#[pyo3(signature = (game, time=None, playouts=None, seed=0, c=None, threads=1))]
pub fn mcts_bot(
    game: Py<Game>,
    time: Option<f64>,
    playouts: Option<u64>,
    seed: u64,
    c: Option<f64>,
    threads: usize,
) -> PyResult<Bot> {
    let mut parts = vec![];
    match (time, playouts) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "give a time or a number of playouts, not both",
            ));
        }
        (Some(t), None) => parts.push(format!("time={t}s")),
        (None, Some(p)) => parts.push(format!("playouts={p}")),
        (None, None) => {}
    }
    if let Some(c) = c {
        parts.push(format!("c={c}"));
    }
    parts.push(format!("threads={}", threads.max(1)));
    Bot::make(game, &format!("mcts:{}", parts.join(",")), seed)
}

/// A bot that plays a uniformly random legal decision (its generator seeded with `seed`).
#[pyfunction]
#[pyo3(signature = (game, seed=0))]
pub fn random_bot(game: Py<Game>, seed: u64) -> PyResult<Bot> {
    Bot::make(game, "random", seed)
}

#[pymethods]
impl Bot {
    /// A bot from an agent spec as the command line writes it (`random`, `mcts`,
    /// `mcts:playouts=2000,c=1.4`, `mcts:time=500ms`).
    #[new]
    #[pyo3(signature = (game, spec, seed=0))]
    fn py_new(game: Py<Game>, spec: &str, seed: u64) -> PyResult<Bot> {
        Bot::make(game, spec, seed)
    }

    /// The action the bot chooses for the player to move at `state` (a decision point of
    /// the bot's game). The search runs without holding the GIL.
    fn step(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Action> {
        let state = state_of(state)?;
        let s = state.borrow();
        same_game(self.game.get(), s.game.get())?;
        let g = s.game.get().g.clone();
        let st = s.s().clone();
        drop(s);
        if !matches!(g.status(&st), Status::Decision(_)) || st.moves().is_empty() {
            return Err(PyValueError::new_err(
                "a bot decides only where a player is to move",
            ));
        }
        let (agent, last) = (&self.agent, &self.last);
        py.detach(move || {
            guard(|| {
                let mut guard = agent.lock().unwrap_or_else(|e| e.into_inner());
                let (agent, rng) = &mut *guard;
                let t = agent
                    .decide(&g, &st, rng, &mut |_| {})
                    .map_err(|f| PyValueError::new_err(format!("the bot forfeits: {f}")))?;
                *last.lock().unwrap_or_else(|e| e.into_inner()) = t.estimate;
                g.action_of(&st, t.decision)
                    .ok_or_else(|| PyValueError::new_err("the decision has no action id"))
            })
        })
    }

    /// Tells the bot what was played at `state` (by `player`, or chance when -1), so that a
    /// search keeps the part of its tree the game went into (pyspiel's `inform_action`).
    fn inform_action(&self, state: &Bound<'_, PyAny>, player: i64, action: i64) -> PyResult<()> {
        let state = state_of(state)?;
        let s = state.borrow();
        let g = &s.game.get().g;
        let event = if player < 0 {
            Event::Chance(action)
        } else {
            let Some(d) = u32::try_from(action)
                .ok()
                .and_then(|a| g.decision_of(&s.s(), a))
            else {
                return Ok(());
            };
            Event::Decision(d)
        };
        let mut guard = self.agent.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.observe(g, &s.s(), event);
        Ok(())
    }

    /// Starts again: a new agent with its generator seeded as at the start.
    fn restart(&self) -> PyResult<()> {
        let fresh = Bot::make(
            Python::attach(|py| self.game.clone_ref(py)),
            &self.spec,
            self.seed,
        )?;
        let inner = fresh.agent.into_inner().unwrap_or_else(|e| e.into_inner());
        *self.agent.lock().unwrap_or_else(|e| e.into_inner()) = inner;
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(())
    }

    /// What the search of the last `step` found, as a dict: `playouts` (all threads),
    /// `visits` and `value` (the chosen decision's playouts and mean reward for the mover, 1 a
    /// win, 0.5 a draw) and `seconds` (the search's wall time); None before the first step and
    /// after a step that was not searched (a single legal decision, a random bot).
    #[getter]
    fn last_search(&self, py: Python<'_>) -> PyResult<Option<Py<pyo3::types::PyDict>>> {
        let Some(e) = *self.last.lock().unwrap_or_else(|e| e.into_inner()) else {
            return Ok(None);
        };
        let d = pyo3::types::PyDict::new(py);
        d.set_item("playouts", e.playouts)?;
        d.set_item("visits", e.visits)?;
        d.set_item("value", e.value)?;
        d.set_item("seconds", e.elapsed.as_secs_f64())?;
        Ok(Some(d.unbind()))
    }

    /// Whether the bot gives a policy (pyspiel's `provides_policy`): no.
    fn provides_policy(&self) -> bool {
        false
    }

    /// What the bot is, as records write it (`random`, `mcts, 200 playouts a move`).
    fn describe(&self) -> String {
        let g = self.agent.lock().unwrap_or_else(|e| e.into_inner());
        g.0.describe()
    }

    /// The spec it was made from.
    #[getter]
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn __repr__(&self) -> String {
        format!("<ludic.Bot {} seed={}>", self.spec, self.seed)
    }
}

/// A Python object with `step(state) -> action` as one of ludic's agents: it is given a
/// `ludic.State` (with its history) at each of its decisions. An exception, or an answer that
/// is no legal action, forfeits the game, with the reason in the result.
struct PyAgent {
    obj: Py<PyAny>,
    game: Py<Game>,
    history: Vec<Action>,
    name: String,
}

impl Agent for PyAgent {
    fn decide(
        &mut self,
        g: &ludic::Game,
        st: &ludic::State,
        _rng: &mut Xoshiro256PlusPlus,
        _progress: &mut dyn FnMut(ludic::agents::Progress),
    ) -> Result<ludic::agents::Thought, Forfeit> {
        Python::attach(|py| {
            let state =
                crate::state::State::new(self.game.clone_ref(py), st.clone(), self.history.clone());
            let answer = self
                .obj
                .call_method1(py, "step", (state,))
                .map_err(|e| Forfeit::new(format!("its step raised {e}")))?;
            let a: i64 = answer.extract(py).map_err(|_| {
                Forfeit::new(format!(
                    "answered `{}`, which is not an action id",
                    answer
                        .bind(py)
                        .repr()
                        .map(|r| r.to_string())
                        .unwrap_or_default()
                ))
            })?;
            let d = u32::try_from(a)
                .ok()
                .and_then(|a| g.decision_of(st, a))
                .filter(|d| st.moves().contains(d))
                .ok_or_else(|| {
                    Forfeit::new(format!("answered {a}, which is not a legal action id"))
                })?;
            Ok(ludic::agents::Thought {
                decision: d,
                estimate: None,
            })
        })
    }

    fn begin(&mut self, _g: &ludic::Game, _seat: &ludic::agents::Seat) {
        self.history.clear();
    }

    fn observe(&mut self, g: &ludic::Game, before: &ludic::State, event: Event) {
        let a = match event {
            Event::Chance(o) => Some(o as Action),
            Event::Decision(d) => g.action_of(before, d),
        };
        self.history.extend(a);
    }

    fn describe(&self) -> String {
        self.name.clone()
    }
}

/// An agent from Python: a spec string, or an object with `step(state)`.
fn agent_of(py: Python<'_>, game: &Py<Game>, a: &Bound<'_, PyAny>) -> PyResult<Box<dyn Agent>> {
    if let Ok(spec) = a.extract::<String>() {
        let parsed = AgentSpec::parse(&spec, 1).map_err(PyValueError::new_err)?;
        return parsed
            .build()
            .ok_or_else(|| PyValueError::new_err("`human` cannot play a match"));
    }
    if !a.hasattr("step")? {
        return Err(PyValueError::new_err(
            "an agent is a spec (`random`, `mcts:playouts=200`) or an object with step(state)",
        ));
    }
    let name = match a.getattr("describe").and_then(|d| d.call0()) {
        Ok(d) => d.extract::<String>()?,
        Err(_) => format!("python:{}", a.get_type().name()?),
    };
    Ok(Box::new(PyAgent {
        obj: a.clone().unbind(),
        game: game.clone_ref(py),
        history: vec![],
        name,
    }))
}

/// Plays `games` games between two agents as `ludic match` does, with the same games for the
/// same seed: game `i` has agent A on side `i mod sides` and agent B on every other side,
/// its chance events and each agent's choices drawn from generators seeded by (`seed`, `i`)
/// (the library's game loop, `ludic::agents::play_game`). An agent is a spec as the command
/// line writes it (`random`, `mcts:playouts=200`, `cmd:python3 bot.py`) or a Python object
/// with `step(state) -> action` (an exception or an illegal answer forfeits the game).
///
/// Returns a dict: `games` (each a dict of `index`, `a_side`, `winner` (a side's name or
/// None), `reason`, `result` (as records write it), `decisions`, `a_score` (1, 0.5 or 0), and
/// `record` (the record's text, with `record=True`)), `score` (A's mean score), `wins`,
/// `draws`, `losses` (A's).
#[pyfunction]
#[pyo3(signature = (game, agents, games=1, seed=0, record=false))]
pub fn play_match(
    py: Python<'_>,
    game: Py<Game>,
    agents: Vec<Bound<'_, PyAny>>,
    games: u64,
    seed: u64,
    record: bool,
) -> PyResult<Py<PyAny>> {
    if agents.len() != 2 {
        return Err(PyValueError::new_err("a match is between two agents"));
    }
    let g = game.get().g.clone();
    let mut out = vec![];
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    for i in 0..games {
        let mut boxed = vec![];
        for a in &agents {
            boxed.push(agent_of(py, &game, a)?);
        }
        let names: Vec<String> = boxed.iter().map(|a| a.describe()).collect();
        let a_side = ludic::agents::match_side(&g, i);
        let g2 = g.clone();
        let played = py.detach(move || {
            guard(|| {
                let seat = |p: ludic::Player| usize::from(g2.side_of(p) != a_side);
                let setup = ludic::agents::GameSetup {
                    seed,
                    index: i,
                    record,
                };
                Ok(ludic::agents::play_game(
                    &g2,
                    &mut boxed,
                    &seat,
                    &setup,
                    &mut (),
                ))
            })
        })?;
        let Some(p) = played else {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "the match was stopped",
            ));
        };
        let winner = p.end.winner(&g);
        let a_score = match winner {
            Some(w) if w == a_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        match winner {
            Some(w) if w == a_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        let result = p.end.json(&g);
        let mut item = serde_json::json!({
            "index": i,
            "a_side": g.side_name(a_side),
            "winner": winner.map(|w| g.side_name(w).to_string()),
            "reason": p.end.code(),
            "result": result,
            "decisions": p.decisions,
            "a_score": a_score,
            "record": null,
        });
        if record {
            let agents_of = (0..g.players().len())
                .map(|pl| {
                    let pl = ludic::Player(pl as u8);
                    let k = usize::from(g.side_of(pl) != a_side);
                    (g.player_name(pl).to_string(), names[k].clone())
                })
                .collect();
            let rec = ludic::record::Record {
                format: ludic::record::FORMAT,
                game: g.source_name().to_string(),
                title: g.title().to_string(),
                source_hash: g.source_hash().to_string(),
                options: g.option_values(),
                seed: Some(seed),
                agents: agents_of,
                steps: p.steps,
                result: Some(result),
                last: Some(ludic::render::final_position(&g, &p.state)),
            };
            let text = serde_json::to_string_pretty(&rec)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            item["record"] = serde_json::json!(text + "\n");
        }
        out.push(item);
    }
    let n = out.len().max(1) as f64;
    let v = serde_json::json!({
        "games": out,
        "score": (wins as f64 + draws as f64 / 2.0) / n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
    });
    crate::json_to_py(py, &v)
}
