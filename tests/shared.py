"""Paths every test uses (the repository, its examples, and the read-only shared material beside it: rules,
conformance records, Go corpus), and helpers that several test packages share."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]  # the repository
EXAMPLES = ROOT / "examples"
DIALECTS = Path(__file__).resolve().parent / "records" / "dialects"
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"
CORPUS = SHARED / "corpus" / "go"


def run(*args: object):
    """`records ARGS...` in this process (typer's CliRunner), every argument as text."""
    from typer.testing import CliRunner

    from boardrecords.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])


def interruptible() -> None:
    """For a child process's `preexec_fn`: SIGINT delivered as a terminal's Ctrl-C would. A test run started in the
    background by a shell without job control ignores SIGINT, and its children would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_folder(tmp_path: Path, name: str, games: dict[str, str]) -> Path:
    """A new folder `name` in tmp_path holding the given records (file name -> text)."""
    folder = tmp_path / name
    folder.mkdir()
    for file, body in games.items():
        (folder / file).write_text(body)
    return folder


def import_games(tmp_path: Path, db: str, games: dict[str, str]) -> Path:
    """A folder of the given records (file name -> text), imported into the archive `db`."""
    folder = write_folder(tmp_path, "games", games)
    assert run("import", folder, "--db", db, "-q").exit_code == 0
    return folder


def exact_counts(engine: Any) -> list[tuple[object, ...]]:
    """The position index's counts table, checked against the position rows summed afresh: every position it holds
    has all its continuations summed exactly, and every position reached by COUNTED_AT rows or more is there."""
    from sqlalchemy import text

    from boardrecords.archive.positions import counts as positions
    from boardrecords.archive.positions.counts import COUNT_SELECT

    with engine.connect() as conn:
        stored = sorted(tuple(r) for r in conn.execute(text("SELECT * FROM position_count")))
        fresh = sorted(tuple(r) for r in conn.exec_driver_sql(COUNT_SELECT.format(rows="position", where="true")))
        reached = {k: n for k, n in conn.execute(text("SELECT key, count(*) FROM position GROUP BY key"))}
    counted = {row[0] for row in stored}
    assert stored == [row for row in fresh if row[0] in counted]
    assert {k for k, n in reached.items() if n >= positions.COUNTED_AT} <= counted
    return stored


def imported_modules(path: Path, module: str) -> set[str]:
    """Every module the source of `module` (at `path`) names in an import statement, at any depth (imports inside
    functions too), relative imports resolved to absolute names; `from X import a` also counts `X.a`, which may be
    a module."""
    import ast

    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            out.add(source)
            out.update(f"{source}.{alias.name}" for alias in node.names)
    return out


def package_modules(folder: Path, package: str) -> dict[str, Path]:
    """Every module of the package in `folder` by its dotted name (`package.sub.mod`)."""
    return {".".join([package, *p.relative_to(folder).with_suffix("").parts]).removesuffix(".__init__"): p
            for p in sorted(folder.rglob("*.py"))}
