"""Budgeted pattern searches answered in helper processes (archive/apart.py): the same answers as in the asking
process, the library's errors as they were raised there, the end of a budget and the asker's stop passed on, a
helper that dies or hangs replaced, and no helper at all when `heavy_apart` is off or no budget is given."""

from __future__ import annotations

import os
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from boardrecords.archive import apart
from boardrecords.archive.core.budget import Budget, Cancelled, OverBudget, running
from boardrecords.archive.front import Archive
from boardrecords.common.errors import ArchiveError, InputError, NotFound
from boardrecords.common.settings import Settings

from ..shared import EXAMPLES, import_games, run

GAMES = {
    "g1.rec": "(;GM[1]SZ[5]PB[Ann]PW[Bo]RE[B+R];B[aa];W[ba];B[ca];W[ee];B[bb])",
    "g2.rec": "(;GM[1]SZ[5]PB[Cy]PW[Di]RE[W+R];B[ea];W[da];B[ca];W[ae];B[db])",
    "g3.rec": "(;GM[1]SZ[5]PB[Ann]PW[Di]RE[B+R];B[cc];W[aa];B[ee])",
}


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def gone_soon(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def search(archive: Archive, budget: Budget | None) -> dict[str, object]:
    return dict(archive.pattern_search("X./..", anchor="corner", size=5, limit=None, budget=budget).to_json())


def test_a_helper_gives_the_same_answer_and_ends_with_the_archive(tmp_path: Path, db_url: str) -> None:
    import_games(tmp_path, db_url, GAMES)
    with Archive(db_url) as here:
        expected = search(here, None)
        assert here._helpers is None  # without a budget the question is answered in this process
    assert expected["games"]  # the pattern is there: the comparison says something
    with Archive(db_url) as archive:
        assert search(archive, archive.budget()) == expected
        pids = archive.helpers.pids()
        assert len(pids) == archive.gate.workers and os.getpid() not in pids
        assert search(archive, archive.budget()) == expected  # the same helper again
        assert search(archive, archive.budget()) == expected  # (its kept change lists from here on)
        assert archive.helpers.pids() == pids
    assert all(gone_soon(pid) for pid in pids)


def test_off_the_budgeted_search_stays_in_this_process(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, GAMES)
    with Archive(db) as here:
        expected = search(here, None)
    with Archive(db, settings=Settings(heavy_apart=False)) as archive:
        assert search(archive, archive.budget()) == expected
        assert archive._helpers is None


def test_the_library_errors_come_back_as_they_were_raised(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, GAMES)
    asked = [dict(pattern=None), dict(pattern="X?/..", size=5), dict(pattern=None, pattern_from=999, region="A1:B2")]
    with Archive(db) as here, Archive(db) as archive:
        for kw in asked:
            with pytest.raises((InputError, NotFound)) as local:
                here.pattern_search(**kw)  # type: ignore[arg-type]
            with pytest.raises((InputError, NotFound)) as remote:
                archive.pattern_search(**kw, budget=archive.budget())  # type: ignore[arg-type]
            assert type(remote.value) is type(local.value) and str(remote.value) == str(local.value)
        assert archive.helpers.pids()  # they were answered there


class Slow:
    """A stand-in for the helper's archive whose questions take as long as asked: `wait` checks its budget as a
    search does between rows, `hang` never does."""

    def wait(self, seconds: float, *, budget: Budget) -> int:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            budget.check()
            time.sleep(0.01)
        return os.getpid()

    def hang(self, seconds: float, *, budget: Budget) -> int:
        time.sleep(seconds)
        return os.getpid()

    def close(self) -> None:
        pass


@pytest.fixture
def helpers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # The helper imports this module: its folder must stay on the import path, which the start leaves the current
    # folder off (common/workers.py safe_import_path).
    monkeypatch.chdir(tmp_path)
    made = apart.Helpers(partial(Slow), 1)
    yield made
    made.close()


def ask(helpers: apart.Helpers, name: str, seconds: float, budget: Budget) -> object:
    with running(budget, "the question"):
        return helpers.ask(name, (seconds,), {}, budget)


def test_an_answer_and_the_budget_passed_on(helpers: apart.Helpers) -> None:
    pid = ask(helpers, "wait", 0.05, Budget(30))
    assert pid != os.getpid() and helpers.pids() == [pid]
    began = time.monotonic()
    with pytest.raises(OverBudget, match=r"budget of 0\.3 s"):
        ask(helpers, "wait", 30, Budget(0.3))
    assert time.monotonic() - began < 3
    assert ask(helpers, "wait", 0.01, Budget(30)) == pid  # the same helper goes on


def test_a_helper_outlives_the_thread_that_asked_first(helpers: apart.Helpers) -> None:
    # The system ends a process when the thread that started it ends (PR_SET_PDEATHSIG), and a server's request
    # threads come and go: the helper must not have been started by the asking thread.
    first: list[object] = []
    asking = threading.Thread(target=lambda: first.append(ask(helpers, "wait", 0.01, Budget(30))))
    asking.start()
    asking.join()
    time.sleep(1.0)  # the guard would have ended it by now
    assert isinstance(first[0], int) and alive(first[0])
    assert ask(helpers, "wait", 0.01, Budget(30)) == first[0]


def test_the_askers_stop_reaches_the_helper(helpers: apart.Helpers) -> None:
    pid = ask(helpers, "wait", 0.01, Budget(None))
    budget = Budget(None)
    threading.Timer(0.3, budget.stop).start()
    began = time.monotonic()
    with pytest.raises(Cancelled):
        ask(helpers, "wait", 30, budget)
    assert time.monotonic() - began < 3
    assert ask(helpers, "wait", 0.01, Budget(None)) == pid


@pytest.mark.parametrize("ended_by", ["its budget", "the asker's stop"])
def test_a_helper_that_hangs_is_ended_and_replaced(helpers: apart.Helpers, monkeypatch: pytest.MonkeyPatch,
                                                   ended_by: str) -> None:
    monkeypatch.setattr(apart, "GRACE_SECONDS", 0.5)
    pid = ask(helpers, "wait", 0.01, Budget(30))
    budget, error = (Budget(0.2), OverBudget) if ended_by == "its budget" else (Budget(None), Cancelled)
    if budget.seconds is None:
        threading.Timer(0.2, budget.stop).start()
    began = time.monotonic()
    with pytest.raises(error):
        ask(helpers, "hang", 60, budget)
    assert time.monotonic() - began < 5
    assert gone_soon(pid)
    again = ask(helpers, "wait", 0.01, Budget(30))
    assert again != pid and isinstance(again, int)


def test_without_a_time_budget_a_question_takes_as_long_as_it_takes(helpers: apart.Helpers,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pid = ask(helpers, "wait", 0.01, Budget(None))
    monkeypatch.setattr(apart, "START_SECONDS", 0.3)  # no other bound on the wait may apply
    assert ask(helpers, "wait", 1.0, Budget(None)) == pid


def test_an_asker_that_goes_away_while_the_helper_starts_leaves_it_starting(helpers: apart.Helpers) -> None:
    budget = Budget(None)
    threading.Timer(0.1, budget.stop).start()  # a new interpreter takes longer than that to start
    began = time.monotonic()
    with pytest.raises(Cancelled):
        ask(helpers, "wait", 0.01, budget)
    assert time.monotonic() - began < 0.4  # not held until the helper is ready
    (pid,) = helpers.pids()  # still starting, or ready
    assert ask(helpers, "wait", 0.01, Budget(30)) == pid


def test_a_helper_that_dies_is_replaced(helpers: apart.Helpers) -> None:
    pid = ask(helpers, "wait", 0.01, Budget(30))
    assert isinstance(pid, int)
    threading.Timer(0.3, os.kill, (pid, 9)).start()
    with pytest.raises(ArchiveError, match="ended"):
        ask(helpers, "wait", 30, Budget(30))
    again = ask(helpers, "wait", 0.01, Budget(30))
    assert again != pid and isinstance(again, int)


def test_an_archive_that_cannot_be_opened_there_says_why(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, GAMES)
    with Archive(db) as archive:
        os.remove(db)  # gone before the first heavy question starts the helper
        with pytest.raises(ArchiveError) as there:
            archive.pattern_search("X./..", anchor="corner", size=5, budget=archive.budget())
        assert "a.db" in str(there.value)


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("apart") / "examples.db")
    assert run("import", EXAMPLES, "--db", db, "-q").exit_code == 0
    return db


def test_the_listings_ratings_and_player_pages_from_a_helper(examples: str) -> None:
    with Archive(examples) as here:
        players = here.players().to_json()
        name = str(players[0]["player"])
        asked = {"players": ((), players), "events": ((), here.events().to_json()),
                 "ratings": ((None, None, 5), here.ratings(None, None, 5).to_json()),
                 "player_card": ((name,), here.player_card(name).to_json())}
    assert players and asked["events"][1] and asked["ratings"][1]  # something to compare
    with Archive(examples) as archive:
        for method, (args, expected) in asked.items():
            got = getattr(archive, method)(*args, budget=archive.budget())
            assert got.to_json() == expected, method
        assert archive.helpers.pids()
        with pytest.raises(NotFound) as there:
            archive.player_card("nobody at all", budget=archive.budget())
        assert "nobody at all" in str(there.value)
