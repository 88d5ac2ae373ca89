//! Sweeps from Python (`ludic.sweep`, src/python/ludic/sweep.py), over the library's
//! `ludic::study::sweep`: a sweep is planned once ([`sweep_plan`]: the grid checked against
//! the game, and its tasks, a point or a shard of one each), each task played natively by
//! [`sweep_task`] (in this process, or in a Ray worker: no Python in the playout loop, the GIL
//! released while it plays), and the tasks' results joined by [`sweep_merge`], exactly as
//! `ludic merge` joins the files of `ludic sweep --plan`.
//!
//! A task receives the sweep as a small JSON text (its "spec": the game as given, the `-o`
//! settings, the variants, games, seed, agents, quick), so that it can travel to a worker of
//! a cluster; it gives a `ludic-sweep-1` text holding its one point.

use crate::{GameError, guard};
use ludic::study::Control;
use ludic::study::sweep::{self, Sweep, SweepError, SweepSpec, Sweeper};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::sync::atomic::Ordering;

/// A task: a point's index, the shard (from 1) and the number of shards.
type Task = (u64, u64, u64);

/// The format of a task's spec.
const SPEC_FORMAT: &str = "ludic-sweep-spec-1";

/// A sweep's error as a Python exception: a grid or settings that do not fit the game are a
/// `ValueError`, a game that cannot be read or loaded a `GameError`.
fn sweep_error(py: Python<'_>, e: SweepError) -> PyErr {
    match e {
        SweepError::Usage(m) => PyValueError::new_err(m),
        SweepError::Game(m) => {
            let err = GameError::new_err(m);
            let value = err.value(py);
            let _ = value.setattr("diagnostics", pyo3::types::PyList::empty(py));
            let _ = value.setattr("settings", Vec::<String>::new());
            err
        }
    }
}

/// The arguments of a sweep, as `ludic sweep` takes them.
struct Args {
    game: String,
    options: Vec<String>,
    variants: Vec<String>,
    games: u64,
    seed: u64,
    agents: Vec<String>,
    quick: bool,
}

impl Args {
    fn to_json(&self) -> Value {
        json!({
            "format": SPEC_FORMAT,
            "game": self.game,
            "options": self.options,
            "variants": self.variants,
            "games": self.games,
            "seed": self.seed,
            "agents": self.agents,
            "quick": self.quick,
        })
    }

    /// Reads a spec that [`sweep_plan`] wrote.
    fn from_json(text: &str) -> Result<Args, String> {
        let bad = |why: &str| {
            format!("not a sweep task's spec (`ludic._ludic.sweep_plan` writes one): {why}")
        };
        let v: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        if v.get("format").and_then(Value::as_str) != Some(SPEC_FORMAT) {
            return Err(bad(&format!("its \"format\" is not \"{SPEC_FORMAT}\"")));
        }
        let text = |k: &str| -> Result<String, String> {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad(&format!("\"{k}\" is not a string")))
        };
        let list = |k: &str| -> Result<Vec<String>, String> {
            serde_json::from_value(v.get(k).cloned().unwrap_or(Value::Null))
                .map_err(|_| bad(&format!("\"{k}\" is not a list of strings")))
        };
        let int = |k: &str| -> Result<u64, String> {
            v.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(&format!("\"{k}\" is not a whole number")))
        };
        Ok(Args {
            game: text("game")?,
            options: list("options")?,
            variants: list("variants")?,
            games: int("games")?,
            seed: int("seed")?,
            agents: list("agents")?,
            quick: v
                .get("quick")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("\"quick\" is not true or false"))?,
        })
    }

    /// The sweep ready to play: the grid read and checked against the game.
    fn sweeper(&self) -> Result<Sweeper, SweepError> {
        let spec = SweepSpec::new(
            &self.game,
            &self.options,
            &self.variants,
            self.games,
            self.seed,
            &self.agents,
            self.quick,
        )
        .map_err(SweepError::Usage)?;
        Sweeper::new(spec)
    }
}

/// Plans a sweep: `game` (a built-in game's name or a `.game` file's path), `options` the
/// settings as `ludic sweep -o` takes them (`NAME=v1,v2`, `NAME=A..B`, `NAME=A..B/STEP`,
/// `NAME=VALUE` for every point), `variants` the axis of variants (`default` is the rules
/// without one), `games` per point, the `seed` every point is played with, `agents` as
/// `--agent` takes them, `quick` the cheap metrics only, `shards` the tasks each point is
/// split into. Returns `(spec, points, tasks)`: the spec a task receives, the number of
/// points, and the tasks `(index, shard, shards)` in grid order (`shard` from 1). Raises
/// `ValueError` when the grid or the settings do not fit the game, `GameError` when the game
/// does not load.
#[pyfunction]
#[pyo3(signature = (game, options, variants=vec![], games=1000, seed=1, agents=vec![], quick=false, shards=1))]
#[allow(clippy::too_many_arguments)]
pub fn sweep_plan(
    py: Python<'_>,
    game: String,
    options: Vec<String>,
    variants: Vec<String>,
    games: u64,
    seed: u64,
    agents: Vec<String>,
    quick: bool,
    shards: u64,
) -> PyResult<(String, u64, Vec<Task>)> {
    if games == 0 {
        return Err(PyValueError::new_err(
            "a sweep plays at least one game a point (games=0)",
        ));
    }
    if shards == 0 || shards > games {
        return Err(PyValueError::new_err(format!(
            "shards={shards}: a point is split into 1 to {games} shards (one game at least each)"
        )));
    }
    let args = Args {
        game,
        options,
        variants,
        games,
        seed,
        agents,
        quick,
    };
    let s = guard(|| Ok(args.sweeper()))?.map_err(|e| sweep_error(py, e))?;
    let points = s.size();
    let tasks = (0..points)
        .flat_map(|k| (1..=shards).map(move |i| (k, i, shards)))
        .collect();
    Ok((args.to_json().to_string(), points, tasks))
}

/// Plays one task of a sweep planned by [`sweep_plan`]: point `index` (from 0), or shard
/// `shard` of `shards` of its games (from 1; `shards=1` is the whole point), on `jobs`
/// threads, natively with the GIL released. Returns a `ludic-sweep-1` text holding that one
/// point: its study (or a shard of it) as `ludic simulate` writes it, or the game's refusal
/// of its options in "error". Raises `ValueError` for a bad spec, point or shard, and
/// `KeyboardInterrupt` when Ctrl-C stopped it.
#[pyfunction]
#[pyo3(signature = (spec, index, shard=1, shards=1, jobs=1))]
pub fn sweep_task(
    py: Python<'_>,
    spec: &str,
    index: u64,
    shard: u64,
    shards: u64,
    jobs: usize,
) -> PyResult<String> {
    if jobs == 0 {
        return Err(PyValueError::new_err(
            "jobs=0: a task plays on 1 thread at least",
        ));
    }
    let args = Args::from_json(spec).map_err(PyValueError::new_err)?;
    let s = guard(|| Ok(args.sweeper()))?.map_err(|e| sweep_error(py, e))?;
    if shards == 1 && shard != 1 {
        return Err(PyValueError::new_err(format!(
            "there is no shard {shard} of 1: the shards are 1/N to N/N"
        )));
    }
    let range = s
        .range((shards != 1).then_some((shard, shards)))
        .map_err(|e| sweep_error(py, e))?;
    let ctl = Control::default();
    let stop = &ctl.stop;
    let played = py.detach(|| {
        guard(|| {
            // now and then, the GIL taken back for a moment to see whether Ctrl-C was pressed
            let tick = |_| {
                if Python::attach(|py| py.check_signals()).is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            Ok(s.play(index, range, jobs, &ctl, tick))
        })
    })?;
    let point = played.map_err(|e| sweep_error(py, e))?;
    if ctl.stop.load(Ordering::Relaxed) {
        return Err(PyKeyboardInterrupt::new_err(format!(
            "the sweep's point {index} ({}) was stopped",
            point.label
        )));
    }
    let mut out = s.empty();
    out.put(point);
    Ok(out.to_json().to_string())
}

/// What is kept of a sweep's `output` file when the sweep is played again (`name` names it in
/// messages): its points played whole (every game of the point, not partial) or refused by
/// the game, as they are. Returns `(kept, indices)`: a `ludic-sweep-1` text of those points,
/// to merge with the tasks of the others, and their indices. Raises `ValueError` when the text
/// is not a sweep, or is another sweep (what differs named), as `ludic sweep --output` does.
#[pyfunction]
pub fn sweep_resume(
    py: Python<'_>,
    spec: &str,
    text: &str,
    name: &str,
) -> PyResult<(String, Vec<u64>)> {
    let args = Args::from_json(spec).map_err(PyValueError::new_err)?;
    let s = guard(|| Ok(args.sweeper()))?.map_err(|e| sweep_error(py, e))?;
    guard(|| {
        let old = Sweep::read(text, name).map_err(PyValueError::new_err)?;
        let mut kept = s.empty();
        let d = kept.differences(&old);
        if !d.is_empty() {
            return Err(PyValueError::new_err(format!(
                "`{name}` holds another sweep: its {} differ (the file's first, this sweep's second)\nhint: give another output file, or delete it to play the sweep again",
                d.join(", ")
            )));
        }
        let whole = vec![[0, args.games]];
        kept.points = old
            .points
            .into_iter()
            .filter(|p| {
                p.is_done(args.games) && (p.error.is_some() || p.ranges() == Some(whole.clone()))
            })
            .collect();
        kept.update_partial();
        let indices = kept.points.iter().map(|p| p.index).collect();
        Ok((kept.to_json().to_string(), indices))
    })
}

/// Merges `ludic-sweep-1` texts holding parts of one sweep (the tasks' results, or files of
/// `ludic sweep`) as `ludic merge` does: the shards of a point merged exactly, the points in
/// grid order. Returns the sweep as `ludic sweep --format json` writes it. Raises `ValueError`
/// when a text is not a sweep or the parts are not of one sweep.
#[pyfunction]
pub fn sweep_merge(parts: Vec<String>) -> PyResult<String> {
    guard(|| {
        let mut read = vec![];
        for (k, text) in parts.iter().enumerate() {
            let name = format!("part {}", k + 1);
            let s = Sweep::read(text, &name).map_err(PyValueError::new_err)?;
            read.push((name, s));
        }
        let merged = sweep::merge(&read).map_err(PyValueError::new_err)?;
        serde_json::to_string_pretty(&merged)
            .map_err(|e| PyValueError::new_err(format!("the merged sweep cannot be written: {e}")))
    })
}
