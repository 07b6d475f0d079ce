"""The page of `records html`, run in headless Chromium: stepping shows the right stones and marks, nothing is
fetched, and script-like record text runs nothing (escaping, and the Content-Security-Policy behind it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

pytestmark = pytest.mark.chromium


GO = (b"(;GM[1]SZ[9]PB[Alice]PW[Bob]EV[Club night];B[ca]C[first move];W[aa];B[ab];W[ba]"
      b";B[bb]C[two captured])")
CATION = b"(;GM[Cation]SZ[6]PB[Alice]PW[Bob];B[bb];W[cb];B[cc];W[ee];B[aa];W[bc];B[bb-dd])"
XSS = ("(;GM[Cation]SZ[5]PB[<script>window.pwned=1;document.title='pwned'</script>]"
       "PW[<img src=x onerror=\"window.pwned=2;document.title='pwned'\">]"
       "EV[</script><script>window.pwned=3</script>]"
       ";B[bb]C[<img src=x onerror=window.pwned=4> </script><script>window.pwned=5</script> \u2028]"
       ";W[dd]C[<svg onload=window.pwned=6>])").encode("utf-8")


def _page(tmp_path: Path, record: bytes) -> str:
    src = tmp_path / "game.rec"
    src.write_bytes(record)
    out = tmp_path / "game.html"
    result = CliRunner().invoke(app, ["html", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.resolve().as_uri()


def _points(driver, selector: str) -> set[str]:
    return set(driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.getAttribute('data-point'));",
        selector))


def _click(driver, button: str, times: int = 1) -> None:
    from selenium.webdriver.common.by import By

    for _ in range(times):
        driver.find_element(By.ID, button).click()


def _text(driver, element_id: str) -> str:
    return driver.execute_script("return document.getElementById(arguments[0]).textContent;", element_id)


def test_buttons_and_keys_step_through_the_positions(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    d = browser
    d.get(_page(tmp_path, GO))
    assert _text(d, "counter") == "0 / 5"
    assert _points(d, "#board .stone") == set()
    _click(d, "next")
    assert _text(d, "counter") == "1 / 5"
    assert _points(d, "#board .stone.black") == {"ca"}
    assert _points(d, "#board .mark.last") == {"ca"}
    assert _text(d, "comment") == "first move"
    _click(d, "next", 3)
    assert _points(d, "#board .stone.white") == {"aa", "ba"}
    _click(d, "next")
    assert _text(d, "counter") == "5 / 5"
    assert _points(d, "#board .stone.black") == {"ca", "ab", "bb"}
    assert _points(d, "#board .stone.white") == set()  # ING-3: captured by B[bb]
    assert _points(d, "#board .mark.captured") == {"aa", "ba"}
    assert "captured 2: A9 B9" in _text(d, "changes")  # Go coordinates (GEN-10); data-point keeps aa, ba
    assert _text(d, "notation").startswith("Points: Go coordinates")
    assert _text(d, "comment") == "two captured"
    assert d.find_element(By.ID, "next").get_attribute("disabled") is not None
    _click(d, "prev")
    assert _points(d, "#board .stone.white") == {"aa", "ba"}
    assert _points(d, "#board .mark.captured") == set()
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert _text(d, "counter") == "0 / 5"
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert _text(d, "counter") == "2 / 5"
    body.send_keys(Keys.ARROW_LEFT)
    assert _text(d, "counter") == "1 / 5"
    body.send_keys(Keys.END)
    assert _text(d, "counter") == "5 / 5"
    page_text = d.find_element(By.TAG_NAME, "body").text
    assert "Alice" in page_text and "Bob" in page_text and "Club night" in page_text
    assert "Verdict: pass (" in page_text
    # Nothing was fetched: no resource besides the page itself.
    assert d.execute_script("return performance.getEntriesByType('resource').length;") == 0


def test_cation_crosscut_and_relocation_are_highlighted(browser, tmp_path: Path) -> None:
    d = browser
    d.get(_page(tmp_path, CATION))
    _click(d, "next", 6)
    cuts = d.execute_script("return Array.from(document.querySelectorAll('#board .mark.crosscut'))"
                            ".map(e => e.getAttribute('data-points'));")
    assert cuts == ["bb cb bc cc"]  # CAT-2
    _click(d, "next")
    assert _points(d, "#board .mark.from") == {"bb"}  # CAT-6: lifted from bb ...
    assert _points(d, "#board .mark.last") == {"dd"}  # ... and put on dd
    assert "bb" not in _points(d, "#board .stone")
    assert d.execute_script("return document.querySelectorAll('#board .edge-black').length;") == 2


def test_record_text_runs_no_script(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(_page(tmp_path, XSS))
    _click(d, "next")
    assert "<img src=x onerror=window.pwned=4>" in _text(d, "comment")
    assert "</script><script>window.pwned=5</script>" in _text(d, "comment")
    _click(d, "next")
    assert _text(d, "comment") == "<svg onload=window.pwned=6>"
    assert d.execute_script("return typeof window.pwned;") == "undefined"
    assert d.title != "pwned" and "<script>window.pwned=1" in d.title
    assert d.execute_script("return document.querySelectorAll('img').length;") == 0
    assert d.execute_script("return document.scripts.length;") == 2
    assert d.execute_script("return document.querySelectorAll('svg').length;") == 1
    header = d.find_element(By.TAG_NAME, "aside").text
    assert "<script>window.pwned=1;document.title='pwned'</script>" in header
    assert "</script><script>window.pwned=3</script>" in header


STEPS = b"(;GM[1]SZ[9]PB[Alice]PW[Bob]KM[5.5];B[ca];W[aa];B[ab];W[ee];B[cc];W[gg];B[ba]C[captures A9];W[hh])"


def test_the_page_opens_at_move_n_and_the_address_follows_the_keys(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    url = _page(tmp_path, STEPS)
    browser.get(url + "#move=5")
    assert browser.find_element(By.ID, "board").get_attribute("data-move") == "5"
    assert _text(browser, "move-label").startswith("Move 5 of 8: Black C7")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.find_element(By.ID, "board").get_attribute("data-move") == "6"
    assert browser.execute_script("return window.location.hash;") == "#move=6"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script("return window.location.hash;") == "#move=7"
    assert _text(browser, "taken") == "Stones taken: Black 1, White 0"  # B9 takes A9 (ING-3)
    assert _points(browser, "#board circle.star") == {"cc", "cg", "ee", "gc", "gg"}  # 9x9: 3-3 points, centre
    assert "Bob, komi 5.5" in _text(browser, "header")
    browser.find_element(By.ID, "first").click()
    assert browser.execute_script("return window.location.hash;") == "#move=0"
