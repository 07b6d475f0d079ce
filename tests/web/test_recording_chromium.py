"""The recording pages in headless Chromium (web/record_pages.py, static/record.js): a short game of each of the
five games recorded by clicking the board and the buttons the rules offer (a swap in Quentin and in Conversion
Go, a Cation relocation, a Squer sweep, Go's two passes and a stone marked dead), each finished into the archive,
and a second browser that watches a game and sees its moves arrive."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from boardrecords.archive.front import Archive
from boardrecords.records.games import Game
from boardrecords.records.notation import PointNames
from boardrecords.records.points import parse_point

from ..conftest import chromium_driver
from .conftest import serving

pytestmark = pytest.mark.chromium
os.environ.setdefault("SE_AVOID_STATS", "true")

# The beginning of two conformance games (cation-7401-8, squer-7401-2), up to a Cation relocation and a Squer sweep.
CATION = ["cd", "bd", "ab", "cb", "bb", "bc", "ad", "aa", "cc"]
SQUER = ["cb", "db", "ac", "cd", "dd", "ba", "ab", "ca", "dc", "bd", "bb", "cc", "da"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("recording") / "games.db"
    Archive(str(db), create=True).close()
    with serving(db) as url:
        yield url


@pytest.fixture(scope="module")
def watcher(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second browser, with a profile of its own."""
    driver = chromium_driver(tmp_path_factory.mktemp("chromium-watcher"))
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: Any, check: Any, timeout: float = 20) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(lambda d: check(d))


def _count(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#record-moves li').length;"))


def _start(driver: Any, url: str, game: str, size: int) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "record")
    Select(driver.find_element(By.ID, "record-game")).select_by_value(game)
    field = driver.find_element(By.ID, "record-size")
    field.clear()
    field.send_keys(str(size))
    driver.find_element(By.NAME, "black").send_keys("Ann")
    driver.find_element(By.NAME, "white").send_keys("Bob")
    driver.find_element(By.CSS_SELECTOR, "#record-start button[type=submit]").click()
    _wait(driver, lambda d: "/record/" in d.current_url and d.find_elements(By.ID, "record-moves"))
    return int(driver.current_url.rstrip("/").rsplit("/", 1)[1])


def _played(driver: Any, before: int) -> None:
    """Wait for the move to be shown, and the board drawn again with it."""
    _wait(driver, lambda d: _count(d) == before + 1)
    _wait(driver, lambda d: d.execute_script(
        "var h = document.getElementById('record-board'); return h.getAttribute('data-revision') !== null && "
        "parseInt(h.getAttribute('data-revision'), 10) >= 0;"))


def _click(driver: Any, name: str) -> None:
    from selenium.webdriver.common.by import By

    before = _count(driver)
    driver.find_element(By.CSS_SELECTOR, f'#record-board [data-point="{name}"] rect').click()
    _played(driver, before)


def _press(driver: Any, selector: str) -> None:
    from selenium.webdriver.common.by import By

    before = _count(driver)
    driver.find_element(By.CSS_SELECTOR, selector).click()
    _played(driver, before)


def _finish(driver: Any, result: str = "") -> str:
    from selenium.webdriver.common.by import By

    if result:
        driver.find_element(By.ID, "record-result").send_keys(result)
    driver.find_element(By.ID, "record-finish").click()
    _wait(driver, lambda d: d.find_elements(By.ID, "record-stored-link"))
    return str(driver.find_element(By.ID, "record-stored-link").text)


def _names(game: Game, size: int, points: list[str]) -> list[str]:
    names = PointNames(game, size)
    return [names(p) for p in (parse_point(v) for v in points) if p is not None]


def test_go_by_clicks_and_two_passes(browser: Any, site: str) -> None:
    _start(browser, site, "go-ing", 9)
    for point in ("E5", "C3", "G7"):
        _click(browser, point)
    _press(browser, "#record-pass")
    _press(browser, "#record-pass")
    assert "stopped" in browser.find_element("id", "record-status").text
    # The players agree that White's stone on C3 is dead (ING-7): marked by a click, then scored.
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "record-mark-mode").click()
    browser.find_element(By.CSS_SELECTOR, '#record-board [data-point="C3"] rect').click()
    assert browser.find_elements(By.CSS_SELECTOR, '#record-board .point.dead[data-point="C3"]')
    browser.find_element(By.ID, "record-marks-send").click()
    _wait(browser, lambda d: "B+81" in d.find_element("id", "record-status").text)
    assert _count(browser) == 5
    assert "(pass)" in _finish(browser)


def test_cation_with_a_relocation_watched_from_a_second_browser(browser: Any, watcher: Any, site: str) -> None:
    recording = _start(browser, site, "cation", 4)
    watcher.get(site + f"record/{recording}")
    _wait(watcher, lambda d: d.find_elements("id", "record-moves"))
    for name in _names(Game.CATION, 4, CATION):
        _click(browser, name)
    _press(browser, '#record-specials button[data-move="cb-ca"]')
    assert _count(browser) == 10
    _wait(watcher, lambda d: _count(d) == 10)  # the moves arrived by themselves
    assert "c3-c4" in watcher.find_element("id", "record-moves").text
    # A refused move is shown on the spot with its rule.
    from selenium.webdriver.common.by import By

    occupied = _names(Game.CATION, 4, ["ca"])[0]
    browser.find_element(By.CSS_SELECTOR, f'#record-board [data-point="{occupied}"] rect').click()
    _wait(browser, lambda d: "CAT-" in d.find_element("id", "record-message").text)
    assert _count(browser) == 10
    assert "record #" in _finish(browser, "W+T")


def test_quentin_with_a_swap(browser: Any, site: str) -> None:
    _start(browser, site, "quentin", 6)
    _click(browser, "c3")
    _press(browser, "#record-swap")
    assert "White (Ann)" in browser.find_element("id", "record-status").text
    _click(browser, "d4")
    assert "record #" in _finish(browser, "B+T")


def test_conversion_go_opening_colours_and_swap(browser: Any, site: str) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, site, "conversion-go", 6)
    # Either colour may play the first three turns (CON-5): the page asks which.
    browser.find_element(By.CSS_SELECTOR, '#record-colour input[value="W"]').click()
    _click(browser, "C3")
    _click(browser, "D4")  # Black's two moves are left: no choice any more
    _click(browser, "C4")
    assert [li.get_attribute("class") for li in browser.find_elements(By.CSS_SELECTOR, "#record-moves li")] == \
        ["W", "B", "B"]
    _press(browser, "#record-swap")
    assert "record #" in _finish(browser, "W+T")


def test_squer_with_a_sweep(browser: Any, site: str) -> None:
    _start(browser, site, "squer", 4)
    for name in _names(Game.SQUER, 4, SQUER):
        _click(browser, name)
    _press(browser, '#record-specials button[data-move="sweep-d"]')
    assert "sweep" in browser.find_element("id", "record-moves").text
    assert "record #" in _finish(browser, "B+T")


def test_the_list_of_games_being_played(browser: Any, site: str) -> None:
    recording = _start(browser, site, "cation", 6)
    browser.get(site + "record")
    links = browser.find_elements("css selector", f'#record-playing a[href="/record/{recording}"]')
    assert links

