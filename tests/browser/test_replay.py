"""The Replay section in a real browser: a record made by the command line uploaded, then
stepped forward, back, with the slider, the list and the keys; at each step shown, the board in
the page equals the engine's (the Python package replaying the record's first steps)."""

import json
import pathlib
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import ludic
from conftest import ludic_bin, screenshot
from test_play import board_of_state, page_board


def cli_record(tmp_path: pathlib.Path, game: str, seed: int) -> pathlib.Path:
    """A game between two random agents recorded by `ludic match`."""
    out = tmp_path / "records"
    subprocess.run([ludic_bin(), "match", game, "--agent", "random", "--agent", "random", "-n", "1",
                    "--seed", str(seed), "--record-dir", str(out)], check=True, capture_output=True)
    return out / "game-1.json"


def engine_board_at(record_text: str, n: int):
    """The position after the record's first `n` steps, replayed by the Python package."""
    rec = json.loads(record_text)
    rec["steps"] = rec["steps"][:n]
    rec["result"] = None
    rec.pop("final", None)
    return board_of_state(ludic.load_record(json.dumps(rec)))


def shown_step(d):
    """The step the page shows, or None while the uploaded record is still being read (the
    board has no step until the file has been read and checked: a moment after the upload)."""
    step = d.find_element(By.ID, "replay-board").get_attribute("data-step")
    return None if step is None else int(step)


def wait_step(d, n):
    WebDriverWait(d, 10).until(lambda d: shown_step(d) == n)


def test_a_record_is_uploaded_and_stepped(server, browser, tmp_path):
    path = cli_record(tmp_path, "puluc", 4)
    text = path.read_text()
    total = len(json.loads(text)["steps"])
    d = browser
    d.get(server + "/#replay")
    d.find_element(By.ID, "record-file").send_keys(str(path))
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "replay-board").get_attribute("data-step") == "0")
    assert d.find_element(By.ID, "replay-position").text == f"0 / {total}"
    assert len(d.find_elements(By.CSS_SELECTOR, "#replay-steps li")) == total

    def check(n):
        wait_step(d, n)
        assert page_board(d, "replay-board") == engine_board_at(text, n), f"step {n}"

    check(0)
    for n in range(1, 6):
        d.find_element(By.ID, "replay-forward").click()
        check(n)
    d.find_element(By.ID, "replay-back").click()
    check(4)
    # the slider to the middle, by its keys (a person drags it or uses the arrows)
    slider = d.find_element(By.ID, "replay-slider")
    d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                     slider, total // 2)
    check(total // 2)
    screenshot(d, "replay-middle")
    # the keys of the page: → and ← (with nothing focused), End, Home
    d.find_element(By.ID, "replay-title").click()
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    check(total // 2 + 1)
    body.send_keys(Keys.ARROW_LEFT)
    check(total // 2)
    body.send_keys(Keys.END)
    check(total)
    # the end: the record's result in words
    assert "wins" in d.find_element(By.ID, "replay-next").text or "draw" in d.find_element(
        By.ID, "replay-next").text.lower()
    # a step of the list
    d.find_element(By.CSS_SELECTOR, '#replay-steps a[data-step="3"]').click()
    check(3)
    body.send_keys(Keys.HOME)
    check(0)


def test_a_bad_record_is_refused_with_a_reason(server, browser, tmp_path):
    bad = tmp_path / "bad.json"
    rec = json.loads(cli_record(tmp_path, "pallankuzhi", 2).read_text())
    rec["steps"][3] = {"type": "decision", "player": rec["steps"][3]["player"], "notation": "sow s99"}
    bad.write_text(json.dumps(rec))
    browser.get(server + "/#replay")
    browser.find_element(By.ID, "record-file").send_keys(str(bad))
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "replay-error").text)
    assert "step 4" in browser.find_element(By.ID, "replay-error").text


def test_on_a_phone_a_record_is_stepped_and_fits(server, browsers, tmp_path):
    path = cli_record(tmp_path, "pallankuzhi", 5)
    text = path.read_text()
    total = len(json.loads(text)["steps"])
    d = browsers(390, 844)
    d.get(server + "/#replay")
    d.find_element(By.ID, "record-file").send_keys(str(path))
    wait_step(d, 0)
    forward = d.find_element(By.ID, "replay-forward")
    d.execute_script("arguments[0].scrollIntoView()", forward)
    for n in (1, 2, 3):
        forward.click()
        wait_step(d, n)
    assert page_board(d, "replay-board") == engine_board_at(text, 3)
    width = d.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    board = d.find_element(By.ID, "replay-board").rect
    assert board["width"] <= 390 and board["x"] >= 0
    assert d.find_element(By.ID, "replay-position").text == f"3 / {total}"
    screenshot(d, "replay-phone")
