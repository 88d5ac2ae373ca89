//! `ludic._ludic`: the Python bindings of ludic, a thin layer over the library's public API
//! (`ludic::load`, `ludic::Game`'s methods, `ludic::record`, `ludic::agents`,
//! `ludic::study::sweep`). The Python
//! package `ludic` (src/python/ludic/) re-exports it and adds the OpenSpiel and PettingZoo
//! adapters. Names follow pyspiel's, so that code written for OpenSpiel reads the same.
//!
//! Nothing from Python may panic the Rust side: every input is checked, and each call that
//! runs the engine goes through [`guard`], which turns a panic into a `RuntimeError`.

#![forbid(unsafe_code)]

mod agents;
mod game;
mod state;
mod sweep;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pyo3::create_exception!(
    ludic,
    GameError,
    pyo3::exceptions::PyException,
    "A game that does not load: its message is the diagnostic as the command line prints it \
     (file:line:col, the line, a caret, the hint); `.diagnostics` is the same as a list of \
     dicts (file, severity, code, message, line, column, end_line, end_column, hint, notes), \
     empty when the problem is a name, a path or an option rather than the file's text; \
     `.settings` lists what was wrong with the options or variant."
);

/// Runs `f`, turning a panic of the library into a Python `RuntimeError` (the library is not
/// meant to panic on any input; this keeps a bug from killing the interpreter).
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error in ludic (please report it): {why}"
            )))
        }
    }
}

/// A JSON value as a Python object (through the `json` module, so that numbers, lists and
/// dicts come out as Python's own).
pub(crate) fn json_to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (v.to_string(),))?.unbind())
}

/// The Python exception for a load failure.
pub(crate) fn game_error(py: Python<'_>, f: &ludic::LoadFailure) -> PyErr {
    let err = GameError::new_err(f.text.trim_end().to_string());
    let value = err.value(py);
    let diagnostics = json_to_py(py, &f.located).unwrap_or_else(|_| PyList::empty(py).into());
    let _ = value.setattr("diagnostics", diagnostics);
    let _ = value.setattr("settings", f.settings.clone());
    err
}

/// The option settings from Python's `params` (a dict of option names to values: ints, bools
/// or strings; `True`/`False` are written `on`/`off`) and a variant.
pub(crate) fn settings(
    params: Option<&Bound<'_, PyDict>>,
    variant: Option<String>,
) -> PyResult<ludic::Settings> {
    let mut sets = vec![];
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let name: String = k
                .extract()
                .map_err(|_| PyValueError::new_err("an option's name must be a string"))?;
            let value = if let Ok(b) = v.extract::<bool>() {
                if b { "on" } else { "off" }.to_string()
            } else if let Ok(i) = v.extract::<i64>() {
                i.to_string()
            } else if let Ok(s) = v.extract::<String>() {
                s
            } else {
                return Err(PyValueError::new_err(format!(
                    "the option `{name}` must be an int, a bool or a string"
                )));
            };
            sets.push((name, value));
        }
    }
    Ok(ludic::Settings { variant, sets })
}

/// The names of the built-in games, by their file stems (`ludic list`).
#[pyfunction]
fn builtin_games() -> Vec<String> {
    ludic::builtin::GAMES
        .iter()
        .map(|(n, _)| n.to_string())
        .collect()
}

/// The module.
#[pymodule]
fn _ludic(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GameError", m.py().get_type::<GameError>())?;
    m.add("CHANCE_PLAYER_ID", -1)?;
    m.add("TERMINAL_PLAYER_ID", -4)?;
    m.add("INVALID_PLAYER_ID", -3)?;
    m.add_class::<game::Game>()?;
    m.add_class::<state::State>()?;
    m.add_class::<agents::Bot>()?;
    m.add_function(wrap_pyfunction!(game::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(game::load_record, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_games, m)?)?;
    m.add_function(wrap_pyfunction!(agents::mcts_bot, m)?)?;
    m.add_function(wrap_pyfunction!(agents::random_bot, m)?)?;
    m.add_function(wrap_pyfunction!(agents::play_match, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_task, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_merge, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_resume, m)?)?;
    Ok(())
}
