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


def _variations_game(browser, served: str) -> int:
    """The example Go game whose record holds variations (examples/go/littlego/illegal-move.sgf)."""
    browser.get(served + "api/search?game=go&limit=100")
    return int(browser.execute_script(
        "return JSON.parse(document.body.innerText).filter(function (g) {"
        " return (g.source_file || '').indexOf('illegal-move') >= 0; })[0].id;"))


@pytest.mark.parametrize("path", ["players/Carla%20Nunes", "players/GoUctPlayer", "games/{variations}",
                                  "games/{variations}?line=12.1", "games/{variations}/print"])
def test_the_new_pages_do_not_scroll_sideways_and_show_their_board(browser, served, width: int, path: str) -> None:
    page = path.format(variations=_variations_game(browser, served) if "{" in path else 0)
    browser.get(served + page)
    client, scroll = browser.execute_script(
        "return [document.documentElement.clientWidth, document.documentElement.scrollWidth];")
    assert scroll <= client, f"{page} scrolls sideways at {width} px"
    for svg in browser.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#board, figure svg, #rating-chart svg'),"
            " function (s) { var r = s.getBoundingClientRect(); return [r.left, r.right]; });"):
        assert svg[0] >= 0 and svg[1] <= client, f"{page}: a board or chart is cut off at {width} px"


def test_the_player_page_links_opponents_and_openings(browser, served, width: int) -> None:
    from selenium.webdriver.common.by import By

    browser.get(served + "players/Carla%20Nunes")
    assert browser.find_element(By.ID, "player-name").text == "Carla Nunes"
    opponent = browser.find_element(By.CSS_SELECTOR, "#opponents a.player")
    name = opponent.text
    opening = browser.find_element(By.CSS_SELECTOR, "#openings a").get_attribute("href")
    opponent.click()
    assert browser.find_element(By.ID, "player-name").text == name
    browser.get(opening)
    assert browser.find_elements(By.ID, "explore-board")  # the explorer at the opening, over the player's games


def test_the_variation_tree_is_clicked_into_and_out_of(browser, served, width: int) -> None:
    from selenium.webdriver.common.by import By

    game = _variations_game(browser, served)
    browser.get(served + f"games/{game}#move=12")
    here = browser.find_elements(By.CSS_SELECTOR, "#variations li.here a")  # another move 13 than the line's
    assert [a.get_attribute("href").split("?")[-1] for a in here] == ["line=12.1#move=13"]
    links = browser.find_elements(By.CSS_SELECTOR, "#variations a")
    assert len(links) == 3
    links[0].click()  # at move 13 (the main line has an illegal move 16, before the others)
    assert "line=12.1" in browser.current_url
    assert browser.execute_script("return document.getElementById('counter').textContent;") == "13 / 14"
    assert browser.find_elements(By.CSS_SELECTOR, "#variations li.current")
    browser.find_element(By.ID, "out-of-variation").click()
    assert "line=" not in browser.current_url
    assert browser.execute_script("return document.getElementById('counter').textContent;").startswith("12 /")


def test_every_continuation_on_the_board_is_linked_to_its_row(browser, served, width: int) -> None:
    for path, row in (("explore?game=go&size=9", "continuation-"),
                      ("patterns?pattern=X./..&anchor=corner&game=cation&size=6&either-colour=true",
                       "pattern-continuation-")):
        browser.get(served + path)
        marks = browser.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('a.continuation-mark'), function (a) {"
            " return [a.getAttribute('data-letter'), a.href.baseVal]; });")
        assert marks, (path, browser.current_url, browser.find_element("tag name", "main").text[:300])
        for letter, href in marks:
            found = browser.execute_script("return document.getElementById(arguments[0]);", row + letter)
            assert found is not None, (path, letter)
            if row == "pattern-continuation-":
                assert href == "#" + row + letter
            else:
                link = browser.execute_script("return arguments[0].querySelector('a.continuation');", found)
                assert link.get_attribute("href").endswith(href), (path, letter)


def test_the_anchor_is_shown_on_the_board(browser, served, width: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(served + "patterns?pattern=X..&anchor=corner&game=go&size=9")

    def sides() -> list[str]:
        return browser.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#anchor-marks .anchor-edge'),"
            " function (l) { return l.getAttribute('data-side'); });")

    assert sides() == ["top", "left"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#anchor-marks .anchor-corner")) == 1
    assert "top and left sides" in browser.find_element(By.ID, "anchor-note").text
    Select(browser.find_element(By.ID, "pattern-anchor")).select_by_visible_text("bottom-right")
    assert sides() == ["bottom", "right"]
    Select(browser.find_element(By.ID, "pattern-anchor")).select_by_visible_text("anywhere")
    assert sides() == [] and browser.find_element(By.ID, "anchor-note").text == ""


@pytest.mark.parametrize("kind", ["touch", "mouse"])
def test_a_finger_or_a_mouse_drags_the_region(browser, served, width: int, kind: str) -> None:
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By

    browser.get(served + "patterns?game=go&size=9")
    start = browser.find_element(By.CSS_SELECTOR, '.pattern-point[aria-label^="C7"]')
    end = browser.find_element(By.CSS_SELECTOR, '.pattern-point[aria-label^="E5"]')
    pointer = PointerInput(interaction.POINTER_TOUCH if kind == "touch" else interaction.POINTER_MOUSE, kind)
    actions = ActionBuilder(browser, mouse=pointer)
    actions.pointer_action.move_to(start).pointer_down().move_to(end).pointer_up()
    actions.perform()
    assert browser.find_element(By.ID, "pattern-region").get_attribute("value") == "C7:E5"
    assert browser.find_element(By.ID, "pattern-text").get_attribute("value") == "***/***/***"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pattern-point.in-region")) == 9
