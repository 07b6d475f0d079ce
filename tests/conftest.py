"""Shared fixtures: the archive database (SQLite and PostgreSQL) and copies of the shared test data."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from .shared import CONFORMANCE, CORPUS

PG_ENV = "RECORDS_TEST_PG_URL"


@cache
def _pg_unavailable() -> str | None:
    """Why the PostgreSQL tests cannot run, or None when they can."""
    url = os.environ.get(PG_ENV)
    if not url:
        return f"{PG_ENV} is not set (e.g. postgresql+psycopg://records:records@127.0.0.1:5432/records_test)"
    from sqlalchemy import create_engine, text

    try:
        engine = create_engine(url, connect_args={"connect_timeout": 5})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
    except Exception as exc:
        return f"PostgreSQL at {PG_ENV} is unreachable: {str(exc).splitlines()[0]}"
    return None


def _clean_pg(url: str) -> None:
    """Drop the archive's tables so that the test starts from an empty database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS pattern_line, position_stage, position_count, position_game, position, "
                          "problem, game_version, game, alias, archive_state, player_name, account_key, account, "
                          "archive_setting, audit, login_failure, tournament_pairing, tournament_player, tournament, "
                          "player_number, recording_move, recording CASCADE"))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty archive location as `--db` takes it: a SQLite file path, or the PostgreSQL URL of the tests."""
    if request.param == "sqlite":
        yield str(tmp_path / "archive.db")
        return
    reason = _pg_unavailable()
    if reason:
        pytest.skip(reason)
    url = os.environ[PG_ENV]
    _clean_pg(url)
    yield url
    _clean_pg(url)


@pytest.fixture
def engine(db_url: str) -> Iterator[Any]:
    """An engine on the archive at `db_url` (its tables made by the test's first import)."""
    from boardrecords.archive.core.db import make_engine

    e = make_engine(db_url)
    yield e
    e.dispose()


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return str(tmp_path / "archive.db")


@pytest.fixture
def conformance_copy(tmp_path: Path) -> Path:
    """A writable copy of the conformance records (.rec only), one folder per game."""
    if not CONFORMANCE.is_dir():
        pytest.skip(f"conformance records absent ({CONFORMANCE})")
    dest = tmp_path / "conformance"
    for src in sorted(CONFORMANCE.glob("*/*.rec")):
        (dest / src.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest / src.parent.name / src.name)
    return dest


@cache
def _corpus_files() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Corpus files (relative paths) without a listed problem, and those with one (PROBLEMS.tsv)."""
    manifest = (CORPUS / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    problems = {line.split("\t", 1)[0] for line in
                (CORPUS / "PROBLEMS.tsv").read_text(encoding="utf-8").splitlines()[1:]}
    names = [line.split("\t", 1)[0] for line in manifest if line]
    return tuple(n for n in names if n not in problems), tuple(n for n in names if n in problems)


@pytest.fixture
def corpus_sample(tmp_path: Path):
    """A function copying `n` plain corpus files (and `odd` problem files) into a fresh folder of tmp_path."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"Go corpus absent ({CORPUS})")
    plain, odd = _corpus_files()
    made = 0

    def copy(n: int, *, odd_files: int = 0, start: int = 0, name: str | None = None) -> Path:
        nonlocal made
        made += 1
        dest = tmp_path / (name or f"corpus{made}")
        chosen = list(plain[start:start + n]) + list(odd[:odd_files])
        for rel in chosen:
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CORPUS / rel, target)
        return dest

    return copy


@pytest.fixture(params=[(2, 0), (2, 4), (64, 4)], ids=["counted-at-2-added", "counted-at-2-resummed", "counted-at-64"])
def counting(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """The position index's counting threshold (positions counted from 2 rows, or from the archive's own 64), and
    how a merge keeps the counts: adding the staged rows to the counted positions (a ratio of 0: never summed
    afresh), or summing the whole index afresh when it was small beside the stage (the archive's own ratio)."""
    from boardrecords.archive.positions import counts as positions
    from boardrecords.archive.positions import stage as position_stage

    at, ratio = request.param
    assert positions.COUNTED_AT == 64 and position_stage.REBUILD_RATIO == 4  # the values the ids name
    monkeypatch.setattr(positions, "COUNTED_AT", at)
    monkeypatch.setattr(position_stage, "REBUILD_RATIO", ratio)
    return int(at)


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium_driver(profile: Path) -> Any:
    """A headless Chromium driven by selenium, with its own profile folder (its own cookies and storage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Headless Chromium driven by selenium, one for the whole test run (the pages of `records html` and of
    `records serve`); the tests that use it skip when Chromium or its driver is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (Debian: apt-get install -y chromium chromium-driver)")
    if not Path(CHROMEDRIVER).exists():
        pytest.skip("chromedriver is missing (Debian: apt-get install -y chromium-driver)")
    driver = chromium_driver(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()
