//! The bridge to the Python tests (tests/python/, pytest): `cargo test --release` builds the
//! Python package and runs them, so that the test command stays one.
//!
//! A virtual environment under `target/pyvenv/` is made once (`python3 -m venv`) with the
//! test requirements (maturin, pytest, numpy, open-spiel, pettingzoo, gymnasium), and made
//! again when that list changes. The package is built with `maturin build --release` into
//! `target/pyvenv/wheels` (cargo's build of the bindings in `target/pyvenv/cargo`, kept, so
//! that a rebuild is incremental) and installed into the environment, then pytest runs with
//! `LUDIC_BIN` naming this build's `ludic` binary. A failing test fails this one with pytest's
//! output.
//!
//! Without `venv` (Debian's python3 comes without it), the test installs `python3-venv` when it
//! runs as root with apt-get. Without Python, or without the network to make the environment,
//! the test says what is missing and passes, unless `CI=true`: in CI a setup failure is a
//! failure.
//!
//! Time (2 busy cores): cold (the environment made and the bindings' first build) 264 s
//! measured; warm (nothing changed) 13 s, 8 s of them the 53 tests themselves.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the environment holds; a change of this list makes it again.
const REQUIREMENTS: &[&str] = &[
    "maturin>=1.5,<2",
    "pytest",
    "numpy",
    "open-spiel",
    "pettingzoo",
    "gymnasium",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a command; its output when it fails.
fn run(cmd: &mut Command) -> Result<String, String> {
    let shown = format!("{cmd:?}");
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => Err(format!(
            "`{shown}` failed ({}):\n{}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("`{shown}` could not start: {e}")),
    }
}

/// The environment's python, made or updated as needed.
fn venv(dir: &Path) -> Result<PathBuf, String> {
    let python = dir.join("venv/bin/python");
    let stamp = dir.join("venv/requirements.txt");
    let wanted = REQUIREMENTS.join("\n");
    if python.exists() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return Ok(python);
    }
    let _ = std::fs::remove_dir_all(dir.join("venv"));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let make = || {
        run(Command::new("python3")
            .args(["-m", "venv"])
            .arg(dir.join("venv")))
    };
    if let Err(first) = make() {
        // Debian's python3 comes without venv: its package, where this may install it
        let _ = std::fs::remove_dir_all(dir.join("venv"));
        install_debian_venv().map_err(|e| format!("python3 with venv is needed: {first}\n{e}"))?;
        make().map_err(|e| format!("python3 with venv is needed: {e}"))?;
    }
    run(Command::new(&python).args(["-m", "pip", "install", "-q", "--upgrade", "pip"]))?;
    run(Command::new(&python)
        .args(["-m", "pip", "install", "-q"])
        .args(REQUIREMENTS))
    .map_err(|e| format!("the test requirements could not be installed: {e}"))?;
    std::fs::write(&stamp, wanted).map_err(|e| e.to_string())?;
    Ok(python)
}

/// `apt-get install python3-venv`, as root on a Debian-like system (the README's test command
/// sets up what the tests need on a fresh machine).
fn install_debian_venv() -> Result<(), String> {
    let root = run(Command::new("id").arg("-u")).is_ok_and(|u| u.trim() == "0");
    if !root || !Path::new("/usr/bin/apt-get").exists() {
        return Err("install python3-venv (Debian: `apt-get install python3-venv`)".into());
    }
    run(Command::new("apt-get").args(["update", "-qq"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq", "python3-venv"])
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    Ok(())
}

/// Builds the wheel and installs it into the environment.
fn install(python: &Path, dir: &Path) -> Result<(), String> {
    let wheels = dir.join("wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    run(Command::new(python)
        .args(["-m", "maturin", "build", "--release", "--quiet", "-o"])
        .arg(&wheels)
        .current_dir(root())
        .env("CARGO_TARGET_DIR", dir.join("cargo")))?;
    let wheel = std::fs::read_dir(&wheels)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or("maturin built no wheel")?;
    run(Command::new(python)
        .args([
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--force-reinstall",
        ])
        .arg(&wheel))?;
    Ok(())
}

#[test]
fn python_tests_pass() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let dir = root().join("target/pyvenv");
    let setup = venv(&dir).and_then(|py| install(&py, &dir).map(|()| py));
    let python = match setup {
        Ok(p) => p,
        Err(e) if !ci => {
            eprintln!("SKIPPED: the Python tests need python3 (with venv) and PyPI: {e}");
            return;
        }
        Err(e) => panic!("the Python tests could not be set up: {e}"),
    };
    let out = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"])
        .current_dir(root().join("tests/python"))
        .env("LUDIC_BIN", env!("CARGO_BIN_EXE_ludic"))
        // no __pycache__ in the repository (tests/generic.rs reads every file under src/)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("pytest runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "the Python tests failed:\n{text}");
}
