"""The Author section in a real browser: a text typed in the editor is checked as you type,
each diagnostic shown under its line with `ludic validate`'s message; the language's words
highlighted; `ludic rules`' summary shown; "Play this" on a 7-hole Ceelkoqyuqkoqiji written in
the editor starts that game in the Play section."""

import json
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ludic_bin, screenshot

BROKEN = """game "Broken" from "pallankuzhi" { }
option seeds = 4
require seeds > nosuchname "more seeds"
# the end
"""

SEVEN = """game "Seven holes" from "ceelkoqyuqkoqiji" { }
option holes = 7
option stones = 7
option gong_value = 7
"""


def open_editor(d, server):
    d.get(server + "/#author")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.ID, "editor-code"))
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "editor-status").text)


def type_text(d, text):
    """Types `text` into the editor over what it holds, key by key, as a person would."""
    code = d.find_element(By.ID, "editor-code")
    code.click()
    code.send_keys(Keys.CONTROL, "a")
    code.send_keys(Keys.DELETE)
    for line in text.splitlines(keepends=True):
        code.send_keys(line.replace("\n", Keys.ENTER))
    # the editor's text is what was typed
    WebDriverWait(d, 5).until(lambda d: editor_text(d).rstrip("\n") == text.rstrip("\n"))


def editor_text(d):
    return d.execute_script("""
      const out = []; const walk = (n) => { for (const c of n.childNodes) {
        if (c.nodeType === 3) out.push(c.nodeValue);
        else if (c.nodeType === 1 && !c.classList.contains('diag')) {
          if (c.tagName === 'BR') { if (!c.classList.contains('tail')) out.push('\\n'); } else walk(c); } } };
      walk(document.getElementById('editor-code')); return out.join('');""")


def validate(tmp_path, text):
    f = tmp_path / "typed.game"
    f.write_text(text)
    out = subprocess.run([ludic_bin(), "validate", str(f), "--format", "json"], capture_output=True, text=True)
    return json.loads(out.stdout)[0]


def test_an_error_is_shown_under_its_line(server, browser, tmp_path):
    d = browser
    open_editor(d, server)
    type_text(d, BROKEN)
    assert editor_text(d).rstrip("\n") == BROKEN.rstrip("\n")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#editor-code .diag"))
    want = validate(tmp_path, BROKEN)["diagnostics"]
    assert [x["line"] for x in want] == [3]
    diag = d.find_element(By.CSS_SELECTOR, "#editor-code .diag")
    assert diag.get_attribute("data-line") == "3"
    assert want[0]["message"] in diag.text
    # in the page: right after line 3 and before line 4, on the screen too
    assert d.execute_script(
        "return arguments[0].previousElementSibling.dataset.line", diag) == "3"
    line3 = d.find_element(By.CSS_SELECTOR, '#editor-code span.line[data-line="3"]').rect
    line4 = d.find_element(By.CSS_SELECTOR, '#editor-code span.line[data-line="4"]').rect
    box = diag.rect
    assert line3["y"] + line3["height"] <= box["y"] + 1 and box["y"] + box["height"] <= line4["y"] + 1
    assert "1 error" in d.find_element(By.ID, "editor-status").text
    assert d.find_element(By.ID, "editor-play").get_attribute("disabled") is not None
    # the list: a click goes to the line
    item = d.find_element(By.CSS_SELECTOR, "#editor-diagnostics a")
    assert item.text.startswith("line 3:17")
    screenshot(d, "author-error")
    # the error fixed: the diagnostic goes, the text is valid
    fixed = BROKEN.replace("nosuchname", "1")
    type_text(d, fixed)
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "editor-status").text == "valid: Broken")
    assert not d.find_elements(By.CSS_SELECTOR, "#editor-code .diag")


def test_words_are_highlighted_and_the_rules_summarised(server, browser):
    d = browser
    open_editor(d, server)
    d.find_element(By.CSS_SELECTOR, '#editor-builtin option[value="puluc"]').click()
    WebDriverWait(d, 10).until(lambda d: "Puluc" in d.find_element(By.ID, "editor-rules").text)
    # the ten reserved words in bold, the soft keywords (words that may be names) plain
    keywords = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#editor-code .tok-keyword")}
    assert {"where", "and", "if"} <= keywords, keywords
    soft = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#editor-code .tok-soft")}
    assert {"game", "sides", "board", "turn"} <= soft and not soft & keywords, soft
    builtins = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#editor-code .tok-builtin")}
    assert "mover" in builtins
    # the editor holds the built-in text exactly
    with __import__("urllib.request").request.urlopen(server + "/api/games/puluc/text") as r:
        assert editor_text(d) == json.load(r)["text"]
    rules = d.find_element(By.ID, "editor-rules").text
    assert "The start:" in rules and "Decisions:" in rules


def test_play_this_plays_a_seven_hole_game_written_in_the_editor(server, browser):
    d = browser
    open_editor(d, server)
    type_text(d, SEVEN)
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "editor-status").text == "valid: Seven holes")
    WebDriverWait(d, 10).until(lambda d: "holes" in d.find_element(By.ID, "editor-rules").text)
    d.find_element(By.ID, "editor-play").click()
    # the Play section shows the new table
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#play #board svg"))
    assert d.execute_script("return location.hash").startswith("#play/")
    holes = d.execute_script("""
      const by = {}; for (const g of document.querySelectorAll('#board g.site[data-kind="hole"]')) {
        by[g.dataset.owner] = (by[g.dataset.owner] || 0) + 1; } return by;""")
    assert set(holes.values()) == {7}, holes
    assert "Seven holes" in d.find_element(By.ID, "status").text
    # and it plays: a decision by its button
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#legal button.decision"))
    version = d.find_element(By.ID, "board").get_attribute("data-version")
    d.find_element(By.CSS_SELECTOR, "#legal button.decision").click()
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "board").get_attribute("data-version") != version)


def test_on_a_phone_the_diagnostic_fits_and_its_list_goes_to_the_line(server, browsers):
    d = browsers(390, 844)
    open_editor(d, server)
    type_text(d, BROKEN)
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#editor-code .diag"))
    width = d.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    diag = d.find_element(By.CSS_SELECTOR, "#editor-code .diag")
    assert diag.is_displayed() and diag.get_attribute("data-line") == "3"
    # the caret elsewhere (line 1), then the list's entry clicked: the caret is on line 3
    d.find_element(By.CSS_SELECTOR, '#editor-code span.line[data-line="1"]').click()
    link = d.find_element(By.CSS_SELECTOR, '#editor-diagnostics a[data-line="3"]')
    d.execute_script("arguments[0].scrollIntoView()", link)
    link.click()
    caret_line = d.execute_script("""
      const s = getSelection(); if (!s.rangeCount) return null;
      let n = s.getRangeAt(0).startContainer; if (n.nodeType === 3) n = n.parentElement;
      const line = n.closest('span.line'); return line ? line.dataset.line : null;""")
    assert caret_line == "3"
    assert d.switch_to.active_element.get_attribute("id") == "editor-code"
    screenshot(d, "author-phone")
