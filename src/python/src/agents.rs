//! Bots: ludic's agents (`ludic::agents`) with pyspiel's `Bot` interface.

use crate::game::{Game, same_game};
use crate::guard;
use crate::state::state_of;
use ludic::agents::{Agent, AgentSpec, Event};
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
        })
    }
}

/// ludic's Monte Carlo tree search as a bot for `game`: with a time a decision (`time`, in
/// seconds) or a number of playouts (`playouts`; deterministic for a seed), the exploration
/// constant `c` (default 1.0) and `threads` (default 1). Without a budget it searches about a
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
        let agent = &self.agent;
        py.detach(move || {
            guard(|| {
                let mut guard = agent.lock().unwrap_or_else(|e| e.into_inner());
                let (agent, rng) = &mut *guard;
                let t = agent.decide(&g, &st, rng, &mut |_| {});
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
            let Some(d) = u32::try_from(action).ok().and_then(|a| g.decision_of(&s.s(), a)) else {
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
        let fresh = Bot::make(Python::attach(|py| self.game.clone_ref(py)), &self.spec, self.seed)?;
        let inner = fresh.agent.into_inner().unwrap_or_else(|e| e.into_inner());
        *self.agent.lock().unwrap_or_else(|e| e.into_inner()) = inner;
        Ok(())
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
