"""Where the read-only shared material (rules, conformance records, Go corpus) sits: beside the repository."""

from __future__ import annotations

from pathlib import Path

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
