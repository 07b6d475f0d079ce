"""Where the read-only shared material (rules, conformance records, Go corpus) sits: beside the repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[2] / "shared"
CONFORMANCE = SHARED / "conformance"
CORPUS = SHARED / "corpus" / "go"


def run(*args: object):
    """`records ARGS...` in this process (typer's CliRunner), every argument as text."""
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])


def import_games(tmp_path: Path, db: str, games: dict[str, str]) -> Path:
    """A folder of the given records (file name -> text), imported into the archive `db`."""
    folder = tmp_path / "games"
    folder.mkdir()
    for name, body in games.items():
        (folder / name).write_text(body)
    assert run("import", folder, "--db", db, "-q").exit_code == 0
    return folder


def exact_counts(engine: Any) -> list[tuple[object, ...]]:
    """The position index's counts table, checked against the position rows summed afresh."""
    from sqlalchemy import text

    from boardrecords.schema.positions import REBUILD_COUNTS

    with engine.connect() as conn:
        stored = sorted(tuple(r) for r in conn.execute(text("SELECT * FROM position_count")))
        conn.execute(text("CREATE TEMPORARY TABLE fresh AS SELECT * FROM position_count WHERE 0 = 1"))
        conn.exec_driver_sql(REBUILD_COUNTS.replace("INTO position_count", "INTO fresh"))
        fresh = sorted(tuple(r) for r in conn.execute(text("SELECT * FROM fresh")))
        conn.execute(text("DROP TABLE fresh"))
        conn.commit()
    assert stored == fresh
    return stored
