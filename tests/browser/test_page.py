"""The page's frame: it loads without script errors, its sections are reached by their tabs and
by the address, and it fits a phone's width."""

import json
import urllib.request

from selenium.webdriver.common.by import By


def builtin_titles(server):
    with urllib.request.urlopen(server + "/api/games") as r:
        return [g["title"] for g in json.load(r)]


def visible_section(d):
    return [s.get_attribute("id") for s in d.find_elements(By.CSS_SELECTOR, "main > section")
            if s.get_attribute("hidden") is None]


def test_the_page_loads_and_its_tabs_show_one_section_each(server, browser):
    browser.get(server + "/")
    assert browser.title == "ludic"
    assert visible_section(browser) == ["play"]
    page = browser.find_element(By.TAG_NAME, "body").text
    for title in builtin_titles(server):
        assert title in page
    for tab in ("replay", "author", "play"):
        browser.find_element(By.CSS_SELECTOR, f'nav a[data-tab="{tab}"]').click()
        assert visible_section(browser) == [tab]
        assert browser.find_element(By.CSS_SELECTOR, f'nav a[data-tab="{tab}"]').get_attribute(
            "aria-current") == "page"
    browser.get(server + "/#author")
    assert visible_section(browser) == ["author"]


def test_the_page_fits_a_phone(server, browsers):
    d = browsers(390, 844)
    d.get(server + "/")
    width = d.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"


def test_assets_are_only_the_built_in_ones(server):
    for path in ("/web/app.js", "/web/style.css"):
        with urllib.request.urlopen(server + path) as r:
            assert r.status == 200
    for path in ("/web/..%2FCargo.toml", "/web/../../Cargo.toml", "/web/nope.js", "/web/"):
        try:
            urllib.request.urlopen(server + path)
            raise AssertionError(f"{path} was served")
        except urllib.error.HTTPError as e:
            assert e.code == 404, (path, e.code)
