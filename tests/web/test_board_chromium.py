"""The boards of `records serve` in headless Chromium at a phone's width (390 px) and a desktop's (1280 px): each
board wholly in the window, no page wider than the window at 390 px (only a table scrolls, inside its column), a
continuation's letter on the board followed by a click, and a row and its letter lit together."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytestmark = pytest.mark.chromium

PAGES = {"explore?game=go&size=19": "explore-board", "explore?game=go&size=9&moves=E5": "explore-board",
         "explore?game=cation&size=6": "explore-board", "patterns?game=go&size=19": "pattern-svg",
         "patterns?pattern=X./..&anchor=corner&game=cation&size=6&either-colour=true": "pattern-svg",
         "games/3": "board", "games/7": "board"}


@pytest.fixture(params=[390, 1280])
def width(request: pytest.FixtureRequest, browser) -> Iterator[int]:
    """The window `width` px wide for one test, as it was after."""
    before = browser.get_window_size()
    browser.set_window_size(request.param, 900)
    try:
        yield request.param
    finally:
        browser.set_window_size(before["width"], before["height"])


@pytest.mark.parametrize(("path", "board_id"), PAGES.items())
def test_the_board_is_whole_in_the_window_and_the_page_no_wider(browser, served, width: int, path: str,
                                                                board_id: str) -> None:
    browser.get(served + path)
    box = browser.execute_script(
        "var r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return [r.left, r.right, r.width, r.height, document.documentElement.clientWidth,"
        " document.documentElement.scrollWidth];", board_id)
    left, right, w, h, client, scroll = box
    assert client <= width
    assert left >= 0 and right <= client and abs(w - h) < 1  # the whole board, square
    assert w >= min(client - 48, 560)  # as wide as its column lets it (a phone: the window less its margins)
    assert scroll <= client, f"{path} scrolls sideways at {width} px"


def test_a_continuation_letter_follows_its_link_and_lights_its_row(browser, served, width: int) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.get(served + "explore?game=go&size=9")
    mark = browser.find_element(By.CSS_SELECTOR, 'a.continuation-mark[data-letter="A"]')
    row = browser.find_element(By.ID, "continuation-A")
    ActionChains(browser).move_to_element(row).perform()
    assert "lit" in (mark.get_attribute("class") or "").split()
    ActionChains(browser).move_to_element(mark).perform()
    assert "lit" in (row.get_attribute("class") or "").split()
    href = browser.execute_script("return arguments[0].href.baseVal;", mark)
    assert href == row.find_element(By.CSS_SELECTOR, "a.continuation").get_attribute("href").removeprefix(
        served.rstrip("/"))
    mark.click()
    assert browser.current_url == served.rstrip("/") + href


@pytest.mark.parametrize("path", ["games", "players", "events", "ratings", "verify",
                                  "crosstable?event=Autumn+club+tournament", "explore?game=conversion-go&size=6"])
def test_no_page_scrolls_sideways_on_a_phone(browser, served, width: int, path: str) -> None:
    """A table wider than the window scrolls inside itself; the page never does."""
    browser.get(served + path)
    client, scroll = browser.execute_script(
        "return [document.documentElement.clientWidth, document.documentElement.scrollWidth];")
    assert scroll <= client, f"{path} scrolls sideways at {width} px"


def test_the_move_on_the_board_is_highlighted_in_the_move_list(browser, served, width: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(served + "games/3#move=4")
    current = browser.find_elements(By.CSS_SELECTOR, "#moves li.current")
    assert [li.get_attribute("data-move") for li in current] == ["4"]
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert [li.get_attribute("data-move") for li in browser.find_elements(By.CSS_SELECTOR, "#moves li.current")] \
        == ["5"]
    browser.find_element(By.CSS_SELECTOR, '#moves li[data-move="2"] a').click()
    assert browser.execute_script("return document.getElementById('counter').textContent;").startswith("2 /")


@pytest.mark.parametrize("path", ["explore?game=go&size=9", "games/3", "patterns?game=go&size=9"])
def test_the_pages_follow_a_dark_system_theme(browser, served, path: str) -> None:
    def background() -> list[int]:
        colour = browser.execute_script("return getComputedStyle(document.body).backgroundColor;")
        return [int(x) for x in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]

    browser.get(served + path)
    assert sum(background()) > 600  # light by default
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        browser.get(served + path)
        assert sum(background()) < 150
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
