"""Players, aliases, events, crosstables, ratings and deleting, end to end on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest
from sqlmodel import Session, func, select
from typer.testing import CliRunner

from boardrecords.archive.core.db import make_engine
from boardrecords.archive.core.models import GameRow, ProblemRow
from boardrecords.archive.core.names import identity_key, normalise_name
from boardrecords.archive.store.access import create_schema
from boardrecords.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def _row(n: int, black: str, white: str, winner: str | None, *, game: str = "go-ing", event: str | None = None,
         ro: str | None = None, day: int = 1, swapped: bool = False, problems: int = 0) -> GameRow:
    black_final, white_final = (white, black) if swapped else (black, white)
    winner_player = {"B": black_final, "W": white_final}.get(winner or "")
    date = dt.date(2024, 5, day)
    row = GameRow(
        sha256=hashlib.sha256(f"row {n}".encode()).hexdigest(), raw=f"(;GM[1]C[row {n}])".encode(), game=game,
        size=19, black=black, white=white, black_final=black_final, white_final=white_final,
        black_norm=normalise_name(black), white_norm=normalise_name(white),
        black_final_norm=normalise_name(black_final), white_final_norm=normalise_name(white_final),
        winner_colour=winner, winner_player=winner_player, winner_norm=normalise_name(winner_player),
        result=f"{winner}+R" if winner else None, result_canonical=f"{winner}+R" if winner else None,
        result_method="resign" if winner else "unknown", result_winner=winner, result_status="agrees",
        swapped=swapped, event=event, event_norm=normalise_name(event), round=ro, date_raw=date.isoformat(),
        date_first=date, date_last=date, date_days=0, valid=True, passes=True, verdict="pass",
        moves="B[pd];W[dp]", opening="B[pd];W[dp]", move_count=2, search_text=f"row {n} {black} {white}".casefold(),
        problem_count=problems, source_file=f"r{n}.rec",
    )
    row.problems = [ProblemRow(game_id=0, code="x", message="m") for _ in range(problems)]
    return row


@pytest.fixture
def archive(db_url: str):
    engine = make_engine(db_url)
    create_schema(engine)
    rows = [
        _row(1, "Lee Sedol", "Gu Li", "B", event="Spring Open", ro="Round 1", day=1, problems=2),
        _row(2, "Ke Jie", "Park Junghwan", "W", event="spring  open", ro="R1", day=1),
        _row(3, "Lee Se-dol", "Ke Jie", "W", event="Spring Open!", ro="2", day=2),
        _row(4, "Gu Li", "Park Junghwan", "B", event="Spring Open", ro="2", day=2),
        _row(5, "LEE SEDOL", "Park Junghwan", "B", event="Spring Open", ro="3", day=3),
        _row(6, "Gu Li", "Ke Jie", None, event="Spring Open", ro="3", day=3),
        _row(7, "이세돌", "Gu Li", "W", day=9),
    ]
    with Session(engine) as session:
        session.add_all(rows)
        session.commit()
    engine.dispose()
    yield db_url
    cleanup = make_engine(db_url)
    from sqlalchemy import text
    if cleanup.dialect.name == "postgresql":
        with cleanup.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alias"))
    cleanup.dispose()


def _json(*args: str):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_identity_key_drops_case_spacing_and_punctuation():
    assert identity_key("Lee Se-dol") == identity_key("LEE  Sedol") == identity_key("lee sedol.") == "leesedol"
    assert identity_key("???") == "???"
    assert identity_key("  ") is None


def test_search_matches_punctuation_and_follows_aliases(archive):
    ids = [r["id"] for r in _json("search", "--db", archive, "--player", "Lee Se Dol", "--json")]
    assert ids == [1, 3, 5]
    assert [r["id"] for r in _json("search", "--db", archive, "--winner", "lee-sedol", "--json")] == [1, 5]
    assert run("alias", "--db", archive, "Lee Sedol", "이세돌").exit_code == 0
    assert [r["id"] for r in _json("search", "--db", archive, "--player", "lee sedol", "--json")] == [1, 3, 5, 7]
    assert [r["id"] for r in _json("search", "--db", archive, "--black", "이세돌", "--json")] == [1, 3, 5, 7]
    listed = _json("alias", "--db", archive, "--list", "--json")
    assert listed == [{"spelling": "이세돌", "key": identity_key("이세돌"), "player": "Lee Sedol",
                       "player_key": "leesedol"}]
    assert run("alias", "--db", archive, "--remove", "이세돌").exit_code == 0
    assert [r["id"] for r in _json("search", "--db", archive, "--player", "lee sedol", "--json")] == [1, 3, 5]
    assert run("alias", "--db", archive, "--list").exit_code == 1


def test_players_and_stats_count_one_player_per_identity(archive):
    run("alias", "--db", archive, "Lee Sedol", "이세돌")
    players = {p["player"]: p for p in _json("players", "--db", archive, "--json")}
    lee = players["Lee Sedol"]
    assert (lee["games"], lee["wins"], lee["losses"]) == (4, 2, 2)
    assert set(lee["spellings"]) == {"Lee Sedol", "Lee Se-dol", "LEE SEDOL", "이세돌"}
    assert (lee["first"], lee["last"]) == ("2024-05-01", "2024-05-09")
    stats = _json("stats", "--db", archive, "--players", "0", "--json")["players"]
    assert {"name": "Lee Sedol", "games": 4, "wins": 2} in stats


def test_events_and_crosstable(archive):
    events = _json("events", "--db", archive, "--json")
    assert events == [{"event": "Spring Open", "games": ["go-ing"], "first": "2024-05-01", "last": "2024-05-03",
                       "rounds": 3, "players": 4, "records": 6, "pass": 6}]
    table = _json("crosstable", "--db", archive, "SPRING-OPEN", "--json")
    assert table["rounds_from"] == "RO" and table["tie_breaks"] == ["SOS", "SOSOS", "SODOS"]
    # R1 Lee beats Gu, Park beats Ke; R2 Ke beats Lee, Gu beats Park; R3 Lee beats Park, Gu-Ke has no result.
    # Lee 2, Ke 1, Gu 1, Park 1. SOS: Lee 1+1+1 = 3; Park 1+1+2 = 4; Ke 1+2 = 3 and Gu 2+1 = 3 (the game without
    # result left out). SOSOS: Ke 4+3 = 7, Gu 3+4 = 7. SODOS: Ke beat Lee (2), Gu beat Park (1): Ke before Gu.
    assert [(s["player"], s["points"], list(s["tie_breaks"].values())) for s in table["standings"]] == [
        ("Lee Sedol", 2.0, [3.0, 10.0, 2.0]), ("Park Junghwan", 1.0, [4.0, 9.0, 1.0]),
        ("Ke Jie", 1.0, [3.0, 7.0, 2.0]), ("Gu Li", 1.0, [3.0, 7.0, 1.0])]
    assert [g["cell"] for g in table["standings"][2]["games"]] == ["2B-", "1W+", "4W?"]
    csv_out = run("crosstable", "--db", archive, "spring open", "--csv")
    assert csv_out.exit_code == 0
    assert csv_out.stdout.splitlines()[0] == "rank,player,R1,R2,R3,points,SOS,SOSOS,SODOS"
    page = run("crosstable", "--db", archive, "spring open", "--html").stdout
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "Lee Sedol" in page
    shown = run("crosstable", "--db", archive, "spring open")
    assert shown.exit_code == 0 and "Park Junghwan" in shown.stdout
    assert run("crosstable", "--db", archive, "autumn").exit_code == 1


def test_crosstable_html_escapes_names(db_url):
    engine = make_engine(db_url)
    create_schema(engine)
    with Session(engine) as session:
        session.add_all([_row(1, "<script>alert(1)</script>", "Bob & Co", "B", event="<b>Cup</b>", ro="1")])
        session.commit()
    engine.dispose()
    page = run("crosstable", "--db", db_url, "<b>Cup</b>", "--html").stdout
    assert "<script>" not in page and "&lt;script&gt;" in page and "Bob &amp; Co" in page
    shown = run("crosstable", "--db", db_url, "<b>Cup</b>")
    assert "<script>alert(1)</script>" in shown.stdout  # shown literally, never read as markup


def test_ratings(archive, tmp_path):
    data = _json("ratings", "--db", archive, "--json")
    names = [r["player"] for r in data["ratings"]]
    assert data["records_rated"] == 6 and data["records_left_out"] == {"no result": 1}
    assert len(names) == 5  # 이세돌 is another player until made an alias
    run("alias", "--db", archive, "Lee Sedol", "이세돌")
    data = _json("ratings", "--db", archive, "--json")
    lee = next(r for r in data["ratings"] if r["player"] == "Lee Sedol")
    assert lee["games"] == 4 and lee["interval95"][0] < lee["rating"] < lee["interval95"][1]
    svg = tmp_path / "lee.svg"
    history = _json("ratings", "--db", archive, "--player", "lee se-dol", "--svg", str(svg), "--json")
    assert [h["date"] for h in history[0]["history"]] == ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-09"]
    assert svg.read_text().startswith("<svg") and "<script" not in svg.read_text()
    assert run("ratings", "--db", archive, "--player", "nobody").exit_code == 1


def test_delete_by_id_and_by_filters(archive):
    engine = make_engine(archive)

    def counts() -> tuple[int, int]:
        with Session(engine) as session:
            return (session.exec(select(func.count()).select_from(GameRow)).one(),
                    session.exec(select(func.count()).select_from(ProblemRow)).one())

    assert counts() == (7, 2)
    assert run("delete", "--db", archive, "1", "--yes").exit_code == 0
    assert counts() == (6, 0)
    assert run("delete", "--db", archive, "--player", "gu li").exit_code == 2  # not a terminal: asks for --yes
    assert counts() == (6, 0)
    deleted = _json("delete", "--db", archive, "--player", "gu li", "--yes", "--json")
    assert deleted == {"deleted": [4, 6, 7]}
    assert counts() == (3, 0)
    assert run("search", "--db", archive, "--text", "gu li").exit_code == 1
    assert run("delete", "--db", archive, "99", "--yes").exit_code == 1
    assert _json("events", "--db", archive, "--json")[0]["records"] == 3
    engine.dispose()
