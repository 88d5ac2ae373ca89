//! The bridge to the browser tests (tests/browser/, pytest with selenium): `ludic serve`'s page
//! driven in a real Chromium, headless, through its WebDriver (chromedriver).
//!
//! The Python environment is the one of tests/python.rs (tests/common/pyenv.rs: selenium is
//! among its requirements, and the `ludic` package, used to check the page against the
//! engine). Chromium and chromedriver are Debian's `chromium` and `chromium-driver`, installed
//! with apt-get when missing and the test runs as root. Without them (and not root), the test
//! says what is missing and passes, unless `CI=true`: in CI a setup failure is a failure.

#[path = "common/pyenv.rs"]
mod pyenv;
use pyenv::{apt_install, ci, install, pytest, root, venv};
use std::path::Path;

/// Chromium and its WebDriver, installed if missing.
fn chromium() -> Result<(), String> {
    let have =
        || Path::new("/usr/bin/chromium").exists() && Path::new("/usr/bin/chromedriver").exists();
    if !have() {
        apt_install(&["chromium", "chromium-driver"])?;
    }
    if have() {
        Ok(())
    } else {
        Err("chromium and chromedriver are not in /usr/bin after installing them".into())
    }
}

#[test]
fn browser_tests_pass() {
    let dir = root().join("target/pyvenv");
    let setup = chromium()
        .and_then(|()| venv(&dir))
        .and_then(|py| install(&py, &dir).map(|()| py));
    let python = match setup {
        Ok(p) => p,
        Err(e) if !ci() => {
            eprintln!(
                "SKIPPED: the browser tests need Chromium, chromedriver and python3 (with venv): {e}"
            );
            return;
        }
        Err(e) => panic!("the browser tests could not be set up: {e}"),
    };
    pytest(&python, &root().join("tests/browser"), "browser tests");
}
