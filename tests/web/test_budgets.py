"""The budgets of heavy questions on a served archive (docs/serve.md): a pattern that matches nearly everything
answers within its budget while a quick request stays quick, concurrent heavy searches stay under a memory
ceiling, a full queue is a 503 with Retry-After, and a stopped question frees its connection."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from boardrecords import Archive
from boardrecords.archive.core.budget import Budget, Busy, Cancelled, Gate, OverBudget, running
from boardrecords.cli.main import app

from .conftest import serve

CORPUS = Path("/work/shared/corpus/go/yenw-computer-go-dataset/li-long")  # 348 games of 19x19 Go
DOT = "/api/search?" + urlencode({"pattern": ".", "game": "go", "size": 19, "limit": 1})
QUICK = "/api/show/1"
SHAPE = "/api/search?" + urlencode({"pattern": "..../.XO./..X./....", "game": "go", "size": 19, "limit": 3})
# The server's resident memory may not pass this while eight heavy searches run (idle it is about 100 MB).
MEMORY_CEILING_MB = 600


@pytest.fixture(scope="module")
def corpus_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the corpus is not here ({CORPUS})")
    db = tmp_path_factory.mktemp("budgets") / "corpus.db"
    done = CliRunner().invoke(app, ["import", "-q", "--db", str(db), str(CORPUS)])
    assert db.exists(), done.output
    return db


@pytest.fixture
def served_with(corpus_archive: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Start `records serve` over the corpus archive with the environment given (one server per call)."""
    procs = []

    def start(**env: str) -> tuple[str, int, int]:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        proc, url, _ = serve(corpus_archive)
        procs.append(proc)
        where = urlsplit(url)
        assert where.hostname and where.port
        return where.hostname, where.port, proc.pid

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=20)


def get(host: str, port: int, path: str) -> tuple[float, int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(host, port, timeout=120)
    began = time.perf_counter()
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        return time.perf_counter() - began, response.status, dict(response.headers), body
    finally:
        conn.close()


def children(pid: int) -> list[int]:
    """The processes `pid` started (the server's helpers, archive/apart.py), and theirs."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):  # the thread ended meanwhile
            found += [int(c) for c in (task / "children").read_text().split()]
    return found + [g for c in found for g in children(c)]


def rss_mb(pid: int) -> float:
    """The resident memory of the server and every helper process it started."""
    total = 0.0
    for each in [pid, *children(pid)]:
        try:
            with open(f"/proc/{each}/status") as status:
                total += next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmRSS:"))
        except (OSError, StopIteration):  # it ended meanwhile
            pass
    return total


def test_a_pattern_matching_everything_answers_within_its_budget(served_with) -> None:
    budget = 0.02
    host, port, _ = served_with(RECORDS_HEAVY_SECONDS=str(budget), RECORDS_HEAVY_APPEARANCES="0")
    get(host, port, QUICK)
    answers: list[tuple[float, int, bytes]] = []

    def heavy() -> None:
        seconds, status, _, body = get(host, port, DOT)
        answers.append((seconds, status, body))

    t = threading.Thread(target=heavy)
    t.start()
    time.sleep(0.05)
    quick = [get(host, port, QUICK) for _ in range(5)]
    t.join()
    seconds, status, body = answers[0]
    assert seconds < budget + 2.0
    assert status == 503, body  # `.` on 348 games takes longer than 0.02 s of work
    assert "budget of 0.02 s" in json.loads(body)["error"]
    assert all(s == 200 and q < 1.0 for q, s, _, _ in quick), [(q, s) for q, s, _, _ in quick]


def test_the_cap_on_appearances_asks_for_a_larger_pattern(served_with) -> None:
    host, port, _ = served_with(RECORDS_HEAVY_APPEARANCES="1000")
    seconds, status, _, body = get(host, port, DOT)
    assert status == 503 and seconds < 10
    assert "give a larger pattern" in json.loads(body)["error"]
    # a shape of a few appearances is answered
    _, status, _, body = get(host, port, "/api/search?" + urlencode({"pattern": "XOX/OXO/XOX", "game": "go",
                                                                      "size": 19, "limit": 1}))
    assert status == 200, body
    # and the patterns page the same
    _, status, _, body = get(host, port, "/patterns?" + urlencode({"pattern": ".", "game": "go", "size": 19}))
    assert status == 503 and b"larger pattern" in body


def test_eight_heavy_searches_stay_under_the_memory_ceiling(served_with) -> None:
    host, port, pid = served_with()
    statuses: list[int] = []
    peak = [rss_mb(pid)]
    done = threading.Event()

    def heavy() -> None:
        statuses.append(get(host, port, DOT)[1])

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    clients = [threading.Thread(target=heavy) for _ in range(8)]
    for c in clients:
        c.start()
    quick = get(host, port, QUICK)
    for c in clients:
        c.join()
    done.set()
    sampler.join()
    assert quick[1] == 200
    assert len(statuses) == 8 and set(statuses) <= {200, 503}
    assert peak[0] < MEMORY_CEILING_MB, peak[0]


def test_pattern_searches_are_answered_by_a_helper_unless_off(served_with) -> None:
    host, port, pid = served_with(RECORDS_HEAVY_WORKERS="1")
    assert not children(pid)  # started when a heavy question first needs it
    _, status, _, body = get(host, port, SHAPE)
    assert status == 200, body
    helpers = [c for c in children(pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
    assert helpers, children(pid)
    _, status, _, again = get(host, port, SHAPE)
    assert status == 200 and again == body
    host, port, pid = served_with(RECORDS_HEAVY_APART="off")
    _, status, _, off = get(host, port, SHAPE)
    assert status == 200 and json.loads(off) == json.loads(body)
    assert not children(pid)


def test_a_full_queue_is_503_with_retry_after(served_with) -> None:
    host, port, _ = served_with(RECORDS_HEAVY_WORKERS="1", RECORDS_HEAVY_QUEUE="0", RECORDS_HEAVY_APPEARANCES="0")
    answers: list[tuple[int, dict[str, str], bytes]] = []
    lock = threading.Lock()

    def heavy() -> None:
        _, status, headers, body = get(host, port, DOT)
        with lock:
            answers.append((status, headers, body))

    clients = [threading.Thread(target=heavy) for _ in range(6)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    refused = [(h, b) for s, h, b in answers if s == 503]
    assert any(s == 200 for s, _, _ in answers)
    assert refused, [s for s, _, _ in answers]
    for headers, body in refused:
        assert int(headers["retry-after"]) >= 1
        assert "busy" in json.loads(body)["error"]


def test_the_gate_queues_then_refuses() -> None:
    gate = Gate(1, 1, wait=5)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.slot(Budget()):
            holding.set()
            release.wait(10)

    first = threading.Thread(target=hold)
    first.start()
    holding.wait(5)
    waited: list[float] = []

    def wait_turn() -> None:
        began = time.monotonic()
        with gate.slot(Budget()):
            waited.append(time.monotonic() - began)

    second = threading.Thread(target=wait_turn)
    second.start()
    time.sleep(0.3)  # the second waits in the queue: a third finds it full
    with pytest.raises(Busy) as refused, gate.slot(Budget()):
        pass
    assert refused.value.retry_after >= 1
    release.set()
    first.join()
    second.join()
    assert waited and waited[0] >= 0.2
    short = Gate(1, 1, wait=0.2)
    with short.slot(Budget()), pytest.raises(Busy, match=r"wait of 0\.2 s ran out"), short.slot(Budget()):
        pass


ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"


def _long_statement(archive: Archive) -> str:
    return ENDLESS if archive.engine.dialect.name == "sqlite" else "SELECT pg_sleep(30)"


@pytest.fixture
def stored(db_url: str, tmp_path: Path) -> Iterator[Archive]:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.sgf").write_text("(;GM[1]FF[4]SZ[19]PB[Lee Sedol]PW[Go Seigen];B[pd];W[dp])", encoding="utf-8")
    with Archive(db_url, create=True) as made:
        made.import_paths([folder], workers=1)
    with Archive(db_url) as archive:
        yield archive


def test_stopping_a_question_cancels_its_statement_and_frees_the_connection(stored: Archive) -> None:
    budget = Budget(seconds=60)
    engine = stored.heavy_engine
    threading.Timer(0.3, budget.stop).start()
    began = time.monotonic()
    with pytest.raises(Cancelled), stored._heavy(budget, "the test"), engine.connect() as conn:
        conn.execute(text(_long_statement(stored)))
    assert time.monotonic() - began < 10
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    with running(Budget(seconds=5), "the next"), engine.connect() as conn:  # the connection serves again
        assert conn.execute(text("SELECT 1")).scalar() == 1


def test_a_question_over_its_time_is_stopped_in_the_database(stored: Archive) -> None:
    engine = stored.heavy_engine
    began = time.monotonic()
    with pytest.raises(OverBudget, match=r"budget of 0\.3 s"), stored._heavy(Budget(seconds=0.3), "the test"), \
            engine.connect() as conn:
        conn.execute(text(_long_statement(stored)))
    assert time.monotonic() - began < 10
    assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    # the quick questions' engine is untouched, and a question with no budget runs as before
    assert stored.search(player="lee*").total == 1
    assert stored.search(player="lee*", budget=stored.budget()).total == 1


def test_the_heavy_questions_have_a_pool_of_their_own(stored: Archive) -> None:
    if stored.engine.dialect.name == "sqlite" and stored.engine.url.database in (None, "", ":memory:"):
        pytest.skip("in-memory SQLite has no pool to size")
    heavy = stored.heavy_engine
    assert heavy is not stored.engine
    assert heavy.pool.size() == stored.gate.workers  # type: ignore[attr-defined]
    assert stored.engine.pool.size() + stored.engine.pool._max_overflow == 40  # type: ignore[attr-defined]


def test_the_budgets_are_settings() -> None:
    from boardrecords.common.settings import DEFAULTS, SettingError, Settings

    got = Settings.from_environment({"RECORDS_HEAVY_SECONDS": "2.5", "RECORDS_HEAVY_APPEARANCES": "0",
                                     "RECORDS_HEAVY_WORKERS": "3", "RECORDS_HEAVY_QUEUE": "0"})
    assert (got.heavy_seconds, got.heavy_appearances, got.heavy_workers, got.heavy_queue) == (2.5, None, 3, 0)
    assert Settings.from_environment({}).heavy_seconds == DEFAULTS.heavy_seconds == 10
    for name, bad in (("RECORDS_HEAVY_SECONDS", "soon"), ("RECORDS_HEAVY_SECONDS", "-1"),
                      ("RECORDS_HEAVY_WORKERS", "two"), ("RECORDS_HEAVY_QUEUE", "1.5")):
        with pytest.raises(SettingError, match=name):
            Settings.from_environment({name: bad})
    assert DEFAULTS.heavy_apart and Settings.from_environment({}).heavy_apart
    for off in ("off", "0", "no", " OFF "):
        assert not Settings.from_environment({"RECORDS_HEAVY_APART": off}).heavy_apart
    assert Settings.from_environment({"RECORDS_HEAVY_APART": "on"}).heavy_apart
