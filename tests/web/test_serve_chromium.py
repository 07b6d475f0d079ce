"""`records serve` in headless Chromium: the explorer clicked three moves deep and back through the browser's
history, a game page stepped with the keys and opened at `#move=N`, and a hostile record that runs nothing."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.chromium


def _moves(driver) -> str:
    return parse_qs(urlparse(driver.current_url).query).get("moves", [""])[0]


def _stones(driver) -> int:
    return driver.execute_script("return document.querySelectorAll('#explore-board circle.stone').length;")


def _point_link(driver, point: str):
    """The link on a point of the explorer's board: its continuation's letter when one is drawn over it."""
    from selenium.webdriver.common.by import By

    marks = driver.find_elements(By.CSS_SELECTOR, f'a.continuation-mark[data-point="{point}"]')
    return marks[0] if marks else driver.find_element(By.CSS_SELECTOR, f'a.point[data-point="{point}"] rect')


def test_the_explorer_clicks_three_moves_deep_and_back(browser, served):

    browser.get(served + "explore?game=go&size=9")
    assert _stones(browser) == 0
    for n, point in enumerate(("E5", "C3", "G7"), start=1):
        _point_link(browser, point).click()
        assert _moves(browser).split(",")[-1] == point
        assert _stones(browser) == n
    assert _moves(browser) == "E5,C3,G7"
    for n in (2, 1, 0):
        browser.back()
        assert _stones(browser) == n
    browser.forward()
    assert _moves(browser) == "E5"


def test_a_continuation_of_the_table_steps_to_its_position(browser, served):
    from selenium.webdriver.common.by import By

    browser.get(served + "explore?game=go&size=9")
    links = browser.find_elements(By.CSS_SELECTOR, "a.continuation")
    assert links, "the examples hold 9x9 Go games"
    move = links[0].text.split()[-1]
    links[0].click()
    assert _moves(browser) == move and _stones(browser) == 1


def _counter(driver) -> str:
    return driver.execute_script("return document.getElementById('counter').textContent;")


def test_a_game_page_steps_with_the_keys_and_opens_at_a_move(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(served + "api/search?game=go&sort=-moves&limit=1")
    game_id = browser.execute_script("return JSON.parse(document.body.innerText)[0].id;")
    browser.get(served + f"games/{game_id}")
    last = int(_counter(browser).split("/")[1])
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert _counter(browser) == f"2 / {last}"
    body.send_keys(Keys.END)
    assert _counter(browser) == f"{last} / {last}"
    body.send_keys(Keys.HOME)
    assert _counter(browser) == f"0 / {last}"
    browser.get(served + f"games/{game_id}#move=3")
    assert _counter(browser) == f"3 / {last}"
    assert browser.execute_script("return document.querySelectorAll('#layer-stones circle').length;") > 0


def test_a_hostile_record_runs_nothing(browser, served):
    browser.get(served + "api/search?game=cation&size=5")
    game_id = browser.execute_script("return JSON.parse(document.body.innerText)[0].id;")
    for path in (f"games/{game_id}", f"games/{game_id}#move=2", "games", "players", "events"):
        browser.get(served + path)
        assert browser.execute_script("return window.pwned === undefined;"), path
        assert browser.title != "pwned"
    errors = [e for e in browser.get_log("browser") if "Content Security Policy" in e.get("message", "")
              and "script" in e.get("message", "")]
    assert not errors, errors


def test_a_drawn_pattern_finds_its_games(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(served + "patterns?game=cation&size=6")
    points = browser.find_elements(By.CSS_SELECTOR, ".pattern-point")
    assert len(points) == 36
    clicks = {0: 1, 1: 3, 6: 3, 7: 3}  # X at the top left, empty around it: X./..
    for index, times in clicks.items():
        for _ in range(times):
            points[index].click()
    assert browser.find_element(By.ID, "pattern-text").get_attribute("value") == "X./.."
    Select(browser.find_element(By.NAME, "anchor")).select_by_visible_text("corner")
    Select(browser.find_element(By.NAME, "either-colour")).select_by_value("true")
    browser.find_element(By.CSS_SELECTOR, "#pattern-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.ID, "pattern-count"))
    assert "pattern=X.%2F.." in browser.current_url
    rows = browser.find_elements(By.CSS_SELECTOR, "#pattern-games tbody tr")
    assert rows, browser.find_element(By.TAG_NAME, "body").text[:500]
    assert browser.find_element(By.ID, "pattern-text").get_attribute("value") == "X./.."


def test_an_uploaded_file_is_verified(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from ..shared import EXAMPLES

    browser.get(served + "verify")
    src = next((EXAMPLES / "cation").glob("invalid/*.rec"), None) or next((EXAMPLES / "cation").glob("*.rec"))
    browser.find_element(By.ID, "verify-file").send_keys(str(src.resolve()))
    browser.find_element(By.CSS_SELECTOR, "#verify-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".verify-record"))
    sections = browser.find_elements(By.CSS_SELECTOR, ".verify-record")
    assert sections and src.name in browser.find_element(By.TAG_NAME, "h2").text


def test_the_games_form_filters_and_sorts(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(served + "games")
    field = browser.find_element(By.NAME, "player")
    field.send_keys("Alice Martin")
    browser.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: "player=Alice" in d.current_url)
    count = browser.find_element(By.ID, "count").text
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    assert rows and count.startswith(f"{len(rows)} of {len(rows)} record")
    browser.find_element(By.LINK_TEXT, "moves").click()
    WebDriverWait(browser, 30).until(lambda d: "sort=moves" in d.current_url)
    moves = [int(r.find_elements(By.TAG_NAME, "td")[9].text) for r in
             browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")]
    assert moves == sorted(moves)


def _drag(driver, start, end) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).click_and_hold(start).move_to_element(end).release().perform()


def test_a_dragged_region_is_the_pattern_and_finds_its_games(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(served + "patterns?game=cation&size=6")
    points = browser.find_elements(By.CSS_SELECTOR, ".pattern-point")
    for index, times in {0: 1, 1: 3, 6: 3, 7: 3, 21: 1}.items():  # X./.. at the top left, and an X off it
        for _ in range(times):
            points[index].click()
    text = browser.find_element(By.ID, "pattern-text")
    assert text.get_attribute("value") == "X.**/..**/****/***X"  # without a region: the rectangle around them
    _drag(browser, points[0], points[7])  # the region: the top-left 2x2; the X at index 21 is left outside
    assert text.get_attribute("value") == "X./.."
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pattern-point.in-region")) == 4
    assert browser.find_element(By.ID, "pattern-region").get_attribute("value")
    Select(browser.find_element(By.NAME, "anchor")).select_by_visible_text("corner")
    Select(browser.find_element(By.NAME, "either-colour")).select_by_value("true")
    browser.find_element(By.CSS_SELECTOR, "#pattern-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.ID, "pattern-count"))
    assert "pattern=X.%2F.." in browser.current_url and "region=" in browser.current_url
    assert browser.find_elements(By.CSS_SELECTOR, "#pattern-games tbody tr")
    # The address keeps the region: the page opens with it drawn.
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pattern-point.in-region")) == 4
    assert browser.find_element(By.ID, "pattern-text").get_attribute("value") == "X./.."


def test_the_keyboard_draws_a_pattern_and_its_region(browser, served):
    """Without a mouse: the arrow keys move on the board, Space cycles a point, Shift + arrows set the region; the
    board is one Tab stop (the point last reached)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(served + "patterns?game=cation&size=6")
    points = browser.find_elements(By.CSS_SELECTOR, ".pattern-point")
    points[21].send_keys(Keys.SPACE)  # an X off the pattern, left outside the region below
    points[0].send_keys(Keys.SPACE)   # X at the top left
    keys = ActionChains(browser)
    for arrow in (Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_LEFT):  # empty at the three points around it
        keys.send_keys(arrow, Keys.SPACE, Keys.SPACE, Keys.SPACE)
    keys.perform()
    text = browser.find_element(By.ID, "pattern-text")
    assert text.get_attribute("value") == "X.**/..**/****/***X"
    ActionChains(browser).send_keys(Keys.ARROW_UP).key_down(Keys.SHIFT).send_keys(
        Keys.ARROW_RIGHT, Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
    assert text.get_attribute("value") == "X./.."
    assert len(browser.find_elements(By.CSS_SELECTOR, ".pattern-point.in-region")) == 4
    assert browser.find_element(By.ID, "pattern-region").get_attribute("value")
    assert browser.switch_to.active_element == points[7]
    stops = browser.find_elements(By.CSS_SELECTOR, '.pattern-point[tabindex="0"]')
    assert [p.get_attribute("data-index") for p in stops] == ["7"]
    browser.find_element(By.CSS_SELECTOR, "#pattern-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.ID, "pattern-count"))
    assert "pattern=X.%2F.." in browser.current_url and "region=" in browser.current_url
    assert browser.find_elements(By.CSS_SELECTOR, "#pattern-games tbody tr")


def test_a_game_page_opens_its_position_for_a_pattern(browser, served):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(served + "api/search?limit=500")
    game_id = browser.execute_script(
        "return JSON.parse(document.body.innerText).filter(function (g) {"
        " return (g.source_file || '').endsWith('capture-and-resignation.rec'); })[0].id;")
    browser.get(served + f"games/{game_id}#move=8")
    assert _counter(browser).startswith("8 /")
    browser.find_element(By.ID, "pattern-from-link").click()
    WebDriverWait(browser, 30).until(lambda d: "pattern-from=" in d.current_url)
    query = parse_qs(urlparse(browser.current_url).query)
    assert query["pattern-from"] == [str(game_id)] and query["move"] == ["8"]
    points = browser.find_elements(By.CSS_SELECTOR, ".pattern-point")
    assert len(points) == 81
    assert browser.execute_script("return document.querySelectorAll('.pattern-point[data-state=X]').length;") >= 4
    _drag(browser, points[0], points[30])  # A9 to D6
    assert browser.find_element(By.ID, "pattern-text").get_attribute("value") == "X.../.X../X.O./...."
    browser.find_element(By.CSS_SELECTOR, "#pattern-form button[type=submit]").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.ID, "pattern-count"))
    query = parse_qs(urlparse(browser.current_url).query)
    assert query["pattern-from"] == [str(game_id)] and query["region"] == ["A9:D6"] and "pattern" not in query
    ids = [r.find_element(By.TAG_NAME, "td").text for r in
           browser.find_elements(By.CSS_SELECTOR, "#pattern-games tbody tr")]
    assert str(game_id) in ids


@pytest.fixture(scope="module")
def served_long(tmp_path_factory):
    """A server over an archive of one record of about 350 KB: four header values of 85,000 characters each."""
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    from .conftest import serving
    from .test_page_text import big_record

    folder = tmp_path_factory.mktemp("long")
    (folder / "big.sgf").write_text(big_record(85_000), encoding="utf-8")
    db = folder / "big.db"
    assert CliRunner().invoke(app, ["import", "-q", "--db", str(db), str(folder / "big.sgf")]).exit_code == 0
    with serving(db) as url:
        yield url


def test_a_record_with_very_long_header_values_lays_out_quickly(browser, served_long):
    """Its page is laid out in seconds, not minutes: each long value is shown shortened, the whole one click away
    (a closed <details>, which opens)."""
    import time

    from selenium.webdriver.common.by import By

    start = time.monotonic()
    browser.get(served_long + "games/1")
    height = browser.execute_script("return document.body.getBoundingClientRect().height;")
    took = time.monotonic() - start
    assert took < 10, took
    assert height < 5000  # the values are not laid out whole
    summaries = browser.find_elements(By.CSS_SELECTOR, "#header details.long summary")
    assert len(summaries) == 4
    summaries[0].click()
    whole = browser.find_element(By.CSS_SELECTOR, "#header details.long[open] .whole")
    assert len(whole.text) == 85_000
