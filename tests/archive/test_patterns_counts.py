"""How a pattern search counts, where Kombilo counts otherwise: its definition of tenuki (a setting and an option,
on both faces), and two cases where Kombilo is wrong and `records` right (ING-8): the start position of a handicap
game whose stones stand in the root node, and setup stones in the second node (part of the start, not a move)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boardrecords.archive.front import Archive
from boardrecords.common.settings import DEFAULTS, SettingError, Settings, tenuki_rule
from boardrecords.web.app import create_app

from ..shared import import_games, run

CORNER = ("search", "--pattern", "X./..", "--anchor", "corner", "--size", "5", "--json")
GAPS = {
    # B aa (1) makes the pattern; its region's next move: B ba (3), one move (W ee) between.
    "one.rec": "(;GM[1]SZ[5]PB[A]PW[B]RE[B+R];B[aa];W[ee];B[ba])",
    # B aa (1); W ab (4) after two moves elsewhere (W ee, B cc): tenuki under both counts.
    "two.rec": "(;GM[1]SZ[5]PB[C]PW[D]RE[W+R];B[aa];W[ee];B[cc];W[ab])",
    # B aa (1), W ba (2) at once: no tenuki under either count.
    "none.rec": "(;GM[1]SZ[5]PB[E]PW[F]RE[W+R];B[aa];W[ba])",
}


def _tenuki(data: dict) -> dict[str, tuple[int, int]]:
    return {c["move"]: (c["hits"], c["tenuki"]) for c in data["continuations"]}


def test_the_two_tenuki_counts(tmp_path: Path, db_url: str, route: str) -> None:
    import_games(tmp_path, db_url, GAPS)
    between = json.loads(run(*CORNER, "--db", db_url).stdout)
    assert between["tenuki"] == "between"
    # W ab (A4) is W ba (B5) mirrored on the diagonal: named once, B5 (the pattern is symmetric).
    assert _tenuki(between) == {"B B5": (1, 1), "W B5": (2, 1)}
    kombilo = json.loads(run(*CORNER, "--db", db_url, "--tenuki", "kombilo").stdout)
    assert kombilo["tenuki"] == "kombilo"
    assert _tenuki(kombilo) == {"B B5": (1, 0), "W B5": (2, 1)}
    # Everything else is the same answer.
    assert {k: v for k, v in kombilo.items() if k not in ("tenuki", "continuations")} == \
        {k: v for k, v in between.items() if k not in ("tenuki", "continuations")}
    # The setting: RECORDS_TENUKI, for a command and for the library's default.
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    done = CliRunner().invoke(app, [*CORNER, "--db", db_url], env={"RECORDS_TENUKI": "kombilo"})
    assert _tenuki(json.loads(done.stdout)) == _tenuki(kombilo)
    with Archive(db_url, settings=Settings(tenuki="kombilo")) as archive:
        answer = archive.pattern_search("X./..", anchor="corner", size=5)
        assert answer.result.tenuki == "kombilo" and _tenuki(answer.to_json()) == _tenuki(kombilo)
        assert _tenuki(archive.pattern_search("X./..", anchor="corner", size=5, tenuki="between").to_json()) == \
            _tenuki(between)


def test_a_tenuki_count_that_is_none_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, GAPS)
    done = run(*CORNER, "--db", db, "--tenuki", "often")
    assert done.exit_code == 2 and "not a tenuki count" in done.output and "between or kombilo" in done.output
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    done = CliRunner().invoke(app, [*CORNER, "--db", db], env={"RECORDS_TENUKI": "sometimes"})
    assert done.exit_code == 2 and "not a tenuki count" in done.output
    with pytest.raises(SettingError):
        Settings.from_environment({"RECORDS_TENUKI": "x"})
    assert Settings.from_environment({"RECORDS_TENUKI": " Kombilo "}).tenuki == "kombilo"
    assert tenuki_rule(None) == tenuki_rule("") == DEFAULTS.tenuki == "between"


def test_the_api_takes_the_tenuki_count(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, GAPS)
    query = {"pattern": "X./..", "anchor": "corner", "size": "5"}
    with TestClient(create_app(db), raise_server_exceptions=False, base_url="http://localhost") as client:
        assert _tenuki(client.get("/api/search", params=query).json())["B B5"] == (1, 1)
        got = client.get("/api/search", params={**query, "tenuki": "kombilo"})
        assert got.status_code == 200 and _tenuki(got.json())["B B5"] == (1, 0)
        got = client.get("/api/search", params={**query, "tenuki": "often"})
        assert got.status_code == 400 and "not a tenuki count" in got.json()["error"]
    with TestClient(create_app(db, settings=Settings(tenuki="kombilo")), raise_server_exceptions=False,
                    base_url="http://localhost") as client:
        assert _tenuki(client.get("/api/search", params=query).json())["B B5"] == (1, 0)


def test_handicap_stones_in_the_root_and_setup_in_the_second_node(tmp_path: Path, db_url: str, route: str) -> None:
    # Kombilo finds no empty corner at the start of the handicap game (its stones in the root node) and counts the
    # black stone set up in the second node of the other game as a Black move into the top left corner. Here both
    # make the start position (ING-8): the handicap game's two free corners are empty at move 0, and the setup
    # stone is no move, so the corner it stands on is not empty at the start and no continuation is played there.
    import_games(tmp_path, db_url, {
        "handicap.sgf": "(;GM[1]FF[4]SZ[19]PB[H]PW[I]HA[2]AB[aa][ss]RE[W+R];W[jj];B[ab])",
        "second.sgf": "(;GM[1]FF[4]SZ[19]PB[S]PW[T]RE[B+R];AB[aa];W[jj];B[ss])",
    })
    empty = json.loads(run("search", "--pattern", "../..", "--anchor", "corner", "--db", db_url, "--json",
                           "--tenuki", "kombilo").stdout)
    at = {r["black"]: r["at_moves"] for r in empty["records"]}
    assert at == {"H": [0], "S": [0]} and empty["appearances"] == 2 + 3
    # In the second game: B ss (move 2) comes into one free corner, after W jj; the setup stone is no move.
    assert _tenuki(empty) == {"B A19": (1, 0), "ended": (4, 0)}
    stone = json.loads(run("search", "--pattern", "X./..", "--anchor", "corner", "--db", db_url, "--json").stdout)
    at = {r["black"]: r["at_moves"] for r in stone["records"]}
    # The handicap stones and the setup stone stand at the start (move 0), B ss at move 2.
    assert at == {"H": [0], "S": [0, 2]} and stone["appearances"] == 4
