//! The Python environment of the tests that run Python (tests/python.rs, tests/browser.rs): a
//! virtual environment under `target/pyvenv/` made once (`python3 -m venv`) with the test
//! requirements, made again when their list changes, and the package built with maturin and
//! installed into it. Test binaries run one after another, so they share it without a race.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the environment holds; a change of this list makes it again.
pub const REQUIREMENTS: &[&str] = &[
    "maturin>=1.5,<2",
    "pytest",
    "numpy",
    "open-spiel",
    "pettingzoo",
    "gymnasium",
    "selenium",
    // the sweep on a local Ray cluster (tests/python/test_sweep.py); ray 2.60 on CPython 3.11:
    // a 79 MB wheel, 240 MB installed, 21 s to install
    "ray",
];

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a command; its output when it fails.
pub fn run(cmd: &mut Command) -> Result<String, String> {
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
pub fn venv(dir: &Path) -> Result<PathBuf, String> {
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
        apt_install(&["python3-venv"])
            .map_err(|e| format!("python3 with venv is needed: {first}\n{e}"))?;
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

/// `apt-get install PACKAGES`, as root on a Debian-like system (the README's test command
/// sets up what the tests need on a fresh machine).
pub fn apt_install(packages: &[&str]) -> Result<(), String> {
    let root = run(Command::new("id").arg("-u")).is_ok_and(|u| u.trim() == "0");
    if !root || !Path::new("/usr/bin/apt-get").exists() {
        return Err(format!(
            "install {} (Debian: `apt-get install {}`)",
            packages.join(", "),
            packages.join(" ")
        ));
    }
    run(Command::new("apt-get").args(["update", "-qq"]))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-qq"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    Ok(())
}

/// Builds the wheel and installs it into the environment.
pub fn install(python: &Path, dir: &Path) -> Result<(), String> {
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

/// Whether this run is CI's (`CI=true`), where a setup failure is a failure, not a skip.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Runs pytest on the tests in `dir` with `LUDIC_BIN` naming this build's binary; panics with
/// pytest's output when a test fails.
pub fn pytest(python: &Path, dir: &Path, what: &str) {
    let out = Command::new(python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"])
        .current_dir(dir)
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
    assert!(out.status.success(), "the {what} failed:\n{text}");
}
