"""The crosstable page of an event with its imported tournament, in headless Chromium at a phone's width: the
official results are there, and only the tables scroll sideways, never the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app

from ..shared import EXAMPLES
from .conftest import serving

pytestmark = pytest.mark.chromium


@pytest.fixture(scope="module")
def served_tournament(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("uvicorn", reason="records serve needs uvicorn (pip install -e '.[test]')")
    db = tmp_path_factory.mktemp("official") / "a.db"
    run = CliRunner().invoke
    assert run(app, ["import", "-q", "--db", str(db), str(EXAMPLES)]).exit_code == 0
    assert run(app, ["tournament", "import", "--db", str(db),
                     str(Path(EXAMPLES) / "tournaments" / "autumn-club.xml")]).exit_code == 0
    with serving(db) as url:
        yield url


@pytest.mark.parametrize("notation", ["records", "opengotha"])
def test_official_results_fit_a_phone(browser, served_tournament: str, notation: str) -> None:
    from selenium.webdriver.common.by import By

    before = browser.get_window_size()
    browser.set_window_size(390, 900)
    try:
        browser.get(served_tournament + f"crosstable?event=Autumn+club+tournament&notation={notation}")
        table = browser.find_element(By.ID, "official-results")
        links = table.find_elements(By.CSS_SELECTOR, "a[href^='/games/']")
        assert len(links) == 4  # two boards, each linked from both players' rows
        client, scroll = browser.execute_script(
            "return [document.documentElement.clientWidth, document.documentElement.scrollWidth];")
        assert scroll <= client
    finally:
        browser.set_window_size(before["width"], before["height"])
