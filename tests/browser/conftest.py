"""Shared fixtures of the browser tests: a `ludic serve` on a free port of 127.0.0.1 (the
binary named by `LUDIC_BIN`, set by tests/browser.rs; else target/release/ludic), and headless
Chromium driven through chromedriver (selenium). Every page a test opened is checked at the end
for errors in the browser's console (a script error fails the test)."""

import os
import pathlib
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "target" / "screenshots"


def ludic_bin() -> str:
    return os.environ.get("LUDIC_BIN", str(ROOT / "target" / "release" / "ludic"))


@pytest.fixture(scope="session")
def server():
    """The address of a running `ludic serve` (http://127.0.0.1:PORT), stopped at the end."""
    p = subprocess.Popen(
        [ludic_bin(), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = p.stdout.readline()
    # "ludic serve: listening on http://127.0.0.1:PORT/ (Ctrl-C stops it)"
    words = [w for w in line.split() if w.startswith("http://")]
    if not words:
        p.kill()
        raise RuntimeError(f"ludic serve did not start: {line!r} {p.stderr.read()!r}")
    yield words[0].rstrip("/")
    p.terminate()
    p.wait(timeout=10)


def make_driver(width=1280, height=900):
    """A headless Chromium with a viewport of `width` x `height` (below 500 pixels wide, a
    phone's screen emulated: a desktop window is never narrower)."""
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={max(width, 500)},{height}"):
        o.add_argument(a)
    if width < 500:
        o.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}})
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def console_errors(d):
    """The console's errors, but an API's 4xx answer (a test that sends a mistake on purpose sees
    it in the page; a missing page asset still counts)."""
    return [e for e in d.get_log("browser") if e.get("level") == "SEVERE" and not (
        e.get("source") == "network" and "/api/" in e.get("message", "")
        and " status of 4" in e.get("message", ""))]


@pytest.fixture
def browsers():
    """A factory of browsers (`browsers()` or `browsers(width, height)`), each closed at the end
    of the test and checked for script errors."""
    made = []

    def make(width=1280, height=900):
        d = make_driver(width, height)
        made.append(d)
        return d

    yield make
    errors = []
    for d in made:
        errors += console_errors(d)
        d.quit()
    assert not errors, f"errors in the browser's console: {errors}"


@pytest.fixture
def browser(browsers):
    """One browser."""
    return browsers()


def screenshot(d, name):
    """Saves the page as target/screenshots/NAME.png (looked at by people, not compared)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    d.save_screenshot(str(path))
    return path
