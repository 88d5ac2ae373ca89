//! The bridge to the Python tests (tests/python/, pytest): `cargo test --release` builds the
//! Python package and runs them, so that the test command stays one.
//!
//! A virtual environment under `target/pyvenv/` is made once (`python3 -m venv`) with the
//! test requirements (maturin, pytest, numpy, open-spiel, pettingzoo, gymnasium, selenium, ray), and made
//! again when that list changes. The package is built with `maturin build --release` into
//! `target/pyvenv/wheels` (cargo's build of the bindings in `target/pyvenv/cargo`, kept, so
//! that a rebuild is incremental) and installed into the environment, then pytest runs with
//! `LUDIC_BIN` naming this build's `ludic` binary. A failing test fails this one with pytest's
//! output (the environment: tests/common/pyenv.rs, shared with tests/browser.rs).
//!
//! Without `venv` (Debian's python3 comes without it), the test installs `python3-venv` when it
//! runs as root with apt-get. Without Python, or without the network to make the environment,
//! the test says what is missing and passes, unless `CI=true`: in CI a setup failure is a
//! failure.
//!
//! Time (2 busy cores): cold (the environment made and the bindings' first build) 264 s
//! measured; warm (nothing changed) 13 s, 8 s of them the 53 tests themselves;
//! tests/python/test_sweep.py adds 16 s (measured alone), most of it starting a local Ray cluster.

#[path = "common/pyenv.rs"]
mod pyenv;
use pyenv::{ci, install, pytest, root, venv};

#[test]
fn python_tests_pass() {
    let dir = root().join("target/pyvenv");
    let python = match venv(&dir).and_then(|py| install(&py, &dir).map(|()| py)) {
        Ok(p) => p,
        Err(e) if !ci() => {
            eprintln!("SKIPPED: the Python tests need python3 (with venv) and PyPI: {e}");
            return;
        }
        Err(e) => panic!("the Python tests could not be set up: {e}"),
    };
    pytest(&python, &root().join("tests/python"), "Python tests");
}
