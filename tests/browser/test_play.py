"""The Play section in a real browser: each of the five games played to its end by clicks
against the random agent, the board in the page checked against the engine after every decision
(the Python package replaying the table's record: the same engine, fed independently); a game
between two browsers with moves crossing over and a closed tab rejoining; screenshots."""

import json
import random
import re
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

import ludic
from conftest import screenshot

GAMES = ["pallankuzhi", "ceelkoqyuqkoqiji", "puluc", "kuilichi-chanakua", "tuknanavuhpi"]
# set in the form: Tuknanavuhpi against random runs to a hundred decisions and more (two thirds
# of these tests' time); its turn limit ends it sooner, as a draw when no side has won by then
OPTIONS = {"tuknanavuhpi": {"max_turns": "60"}}

# The picture's contents as the page shows them: per site, the counts of each kind (the number
# in a hole or beside a point, and the badges of other kinds) and the owners of the tokens on it.
READ_BOARD = r"""
const board = document.getElementById(arguments[0]);
const out = {};
const num = (t) => { const m = /^(\d+)\s*(.*)$/.exec(t.trim()); return m ? [Number(m[1]), m[2]] : [1, t.trim()]; };
for (const g of board.querySelectorAll('g.site[data-site]')) {
  const counts = {};
  for (const t of g.querySelectorAll('text.count')) {
    if (t.closest('.piece-badge')) { const [n, name] = num(t.textContent); counts[name] = (counts[name] || 0) + n; continue; }
    const parts = t.textContent.split('+');
    counts[t.dataset.kind] = (counts[t.dataset.kind] || 0) + Number(parts[0]);
    for (const p of parts.slice(1)) { const [n, name] = num(p); counts[name] = (counts[name] || 0) + n; }
  }
  out[g.dataset.site] = {counts, tokens: []};
}
for (const st of board.querySelectorAll('g.stack[data-site]')) {
  for (const t of st.querySelectorAll('g.token')) out[st.dataset.site].tokens.push(t.dataset.player);
}
return out;
"""


def get_json(url):
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def get_text(url):
    with urllib.request.urlopen(url) as r:
        return r.read().decode()


def table_id(d):
    return d.execute_script("return location.hash").split("/")[1]


def board_of_state(state):
    """An engine's position (a state of the Python package), as `page_board` reads the page:
    per site, the counts of each kind and the owners of the tokens on it (sorted)."""
    j = state.to_json()
    out = {s: {"counts": {k: v for k, v in x["pieces"].items() if v}, "tokens": []}
           for s, x in j["sites"].items()}
    for t in j.get("tokens") or []:
        if t.get("site") is not None and t.get("area") is None and t["site"] in out:
            out[t["site"]]["tokens"].append(t["owner"])
    for x in out.values():
        x["tokens"].sort()
    return out


def engine_board(server, tid):
    """The position of the table's record replayed by the Python package (see
    `board_of_state`), and that state."""
    state = ludic.load_record(get_text(f"{server}/api/tables/{tid}/record"))
    return board_of_state(state), state


def page_board(d, board_id="board"):
    """The board the page shows in the element `board_id` (see READ_BOARD)."""
    b = d.execute_script(READ_BOARD, board_id)
    return {s: {"counts": {k: v for k, v in x["counts"].items() if v}, "tokens": sorted(x["tokens"])}
            for s, x in b.items()}


def check_board(d, server, tid, where):
    want, state = engine_board(server, tid)
    got = page_board(d)
    assert got == want, f"{where}: the page's board differs from the engine's: " + str(
        {s: (got.get(s), want.get(s)) for s in set(got) | set(want) if got.get(s) != want.get(s)})
    return state


def settled(d):
    """The page is at a decision of its own (buttons offered) or at the end; the version shown."""
    return d.execute_script("""
      const b = document.getElementById('board');
      if (!b || !b.dataset.version) return null;
      const end = document.getElementById('end');
      if (end && !end.hidden) return 'end:' + b.dataset.version;
      if (document.querySelector('#legal button.decision')) return 'decide:' + b.dataset.version;
      return null;""")


def wait_settled(d, other_than=None, timeout=30):
    return WebDriverWait(d, timeout).until(
        lambda d: (lambda s: s if s and s != other_than else None)(settled(d)))


def start(d, server, game, seed, seats=None, options=None):
    """A game set up with the form: the first player you, the others as `seats` says; the
    game's `options` typed in."""
    d.get(server + "/#play")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.ID, "start"))
    Select(d.find_element(By.ID, "game")).select_by_value(game)
    for name, value in (options or {}).items():
        i = d.find_element(By.CSS_SELECTOR, f'[data-option="{name}"]')
        if i.tag_name == "select":
            Select(i).select_by_value(value)
        else:
            i.clear()
            i.send_keys(value)
    for i, sel in enumerate(d.find_elements(By.CSS_SELECTOR, "select[data-seat]")):
        want = (seats or {}).get(i, "you" if i == 0 else "random")
        Select(sel).select_by_value(want)
    d.find_element(By.ID, "seed").send_keys(str(seed))
    d.find_element(By.ID, "start").click()
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))


def click_decision(d, rng):
    """Plays a random legal decision by clicking: the sites of its path on the board, then its
    button if the clicks leave a choice. Returns its notation.

    The page plays a decision on the click that leaves it the only one, fully clicked; that
    click's request is still on its way when the click returns (the board unchanged), so
    whether the button is needed is known from the decisions offered, not from the board."""
    buttons = d.find_elements(By.CSS_SELECTOR, "#legal button.decision")
    notes = [b.get_attribute("data-notation") for b in buttons]
    note = rng.choice(notes)
    names = set(d.execute_script(
        "return [...document.querySelectorAll('#board g.site[data-site]')].map(g => g.dataset.site)"))

    def path_of(n):
        # `g4@2`: a token at g4 on a track that passes g4 twice
        words = [w if w in names else re.sub(r"@\d+$", "", w) for w in n.split()]
        return [w for w in words if w in names]

    path = path_of(note)
    for site in path:
        g = d.find_element(By.CSS_SELECTOR, f'#board g.site[data-site="{site}"]')
        assert "selectable" in (g.get_attribute("class") or ""), f"{site} of `{note}` is not offered"
        # a site with pieces stacked on it is clicked on its top piece, as a person would
        top = d.find_elements(By.CSS_SELECTOR, f'#board g.stack[data-site="{site}"] g.token')
        target = top[-1] if top else g
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        target.click()
    left = [n for n in notes if path_of(n)[:len(path)] == path]
    if not (path and left == [note]):
        # the clicks left several decisions (or the decision has no site): its button
        b = d.find_element(By.CSS_SELECTOR, f'#legal button.decision[data-notation="{note}"]')
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", b)
        b.click()
    return note


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_played_to_its_end_by_clicks(server, browser, game):
    rng = random.Random(f"clicks-{game}")
    start(browser, server, game, seed=11, options=OPTIONS.get(game))
    tid = table_id(browser)
    options = get_json(f"{server}/api/tables/{tid}/record").get("options") or {}
    for name, value in OPTIONS.get(game, {}).items():
        assert str(options.get(name)) == value, f"{game}: the record's options are {options}"
    shown = wait_settled(browser)
    decisions = 0
    while shown.startswith("decide"):
        state = check_board(browser, server, tid, f"{game} after {decisions} decisions")
        assert not state.is_terminal()
        # the page offers exactly the engine's legal decisions
        offered = sorted(b.get_attribute("data-notation") for b in
                         browser.find_elements(By.CSS_SELECTOR, "#legal button.decision"))
        assert offered == sorted(state.legal_action_strings()), f"{game}: offered {offered}"
        if decisions == 6:
            screenshot(browser, f"play-{game}")
        click_decision(browser, rng)
        decisions += 1
        shown = wait_settled(browser, other_than=shown)
    state = check_board(browser, server, tid, f"{game} at the end")
    assert state.is_terminal()
    end = browser.find_element(By.ID, "end").text
    assert end and end == get_json(f"{server}/api/tables/{tid}")["end_text"]
    assert decisions > 0
    # the narration is the server's, line for line
    lines = [li.get_attribute("textContent") for li in browser.find_elements(By.CSS_SELECTOR, "#narration li")]
    assert lines == get_json(f"{server}/api/tables/{tid}")["narration"]


def test_two_browsers_play_by_link_and_a_closed_tab_rejoins(server, browsers):
    a, b = browsers(), browsers()
    start(a, server, "pallankuzhi", seed=5, seats={0: "you", 1: "link"})
    link = a.find_element(By.CSS_SELECTOR, "input[data-link]").get_attribute("value")
    b.get(link)
    WebDriverWait(b, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    rng = random.Random(3)
    tid = table_id(a)
    players = [a, b]
    for turn in range(6):
        mover, other = players[turn % 2], players[(turn + 1) % 2]
        shown = wait_settled(mover)
        assert shown.startswith("decide"), f"move {turn}: {shown}"
        version = other.find_element(By.ID, "board").get_attribute("data-version")
        click_decision(mover, rng)
        # the other browser sees the move without a reload, through the events
        WebDriverWait(other, 10).until(
            lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version)
        check_board(other, server, tid, f"the other browser after move {turn}")
        if turn == 3:
            # B's tab closes; its link opens it again, on the same seat
            b.get("about:blank")
            b.get(link)
            WebDriverWait(b, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
            assert "You play North" in b.find_element(By.ID, "status").text
    screenshot(a, "play-two-browsers")


def test_the_board_is_readable_on_a_phone(server, browsers):
    d = browsers(390, 844)
    start(d, server, "kuilichi-chanakua", seed=4)
    wait_settled(d)
    width = d.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    screenshot(d, "play-phone")


def test_options_are_chosen_within_their_domains(server, browser):
    """A choice (`on | off`) is a list, a range (`2..40`) a number within it; what is chosen is
    the game played (the record's options)."""
    d = browser
    d.get(server + "/#play")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.ID, "start"))
    Select(d.find_element(By.ID, "game")).select_by_value("pallankuzhi")
    choice = d.find_element(By.CSS_SELECTOR, '[data-option="chogi"]')
    assert choice.tag_name == "select"
    assert [o.get_attribute("value") for o in choice.find_elements(By.TAG_NAME, "option")] == ["on", "off"]
    number = d.find_element(By.CSS_SELECTOR, '[data-option="seeds"]')
    assert (number.get_attribute("type"), number.get_attribute("min"), number.get_attribute("max")) == (
        "number", "2", "40")
    start(d, server, "pallankuzhi", seed=3, options={"chogi": "off", "seeds": "6"})
    rec = json.loads(get_text(f"{server}/api/tables/{table_id(d)}/record"))
    assert rec["options"]["chogi"] == "off" and rec["options"]["seeds"] == "6", rec["options"]
