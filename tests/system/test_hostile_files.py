"""Files and processes: outputs that do not overwrite or follow symlinks, a read-only archive, and import
workers that end with their parent."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli import output_files
from boardrecords.cli.main import app

runner = CliRunner()
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
RECORD = b"(;GM[1]SZ[9]PB[Ann]PW[Ben];B[cc];W[gg])"


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.sgf").write_bytes(RECORD)
    (folder / "b.sgf").write_bytes(RECORD.replace(b"Ann", b"Cy"))
    db = tmp_path / "a.db"
    assert run("import", folder, "--db", db).exit_code == 0
    return db


# -- output files ---------------------------------------------------------------------------------------------

def test_export_does_not_overwrite_or_follow_symlinks(tmp_path: Path, archive: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "1.sgf").write_bytes(b"keep")
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"outside")
    (out / "2.sgf").symlink_to(outside)
    result = run("export", "1", "2", "-o", f"{out}/", "--db", archive)
    assert result.exit_code == 2
    assert "exists" in result.output and "--force" in result.output
    assert (out / "1.sgf").read_bytes() == b"keep"
    assert outside.read_bytes() == b"outside"
    forced = run("export", "1", "2", "-o", f"{out}/", "--db", archive, "--force")
    assert forced.exit_code == 2 and "symbolic link" in forced.output
    assert outside.read_bytes() == b"outside"
    assert (out / "1.sgf").read_bytes() == b"keep"  # every target is checked before anything is written
    (out / "2.sgf").unlink()
    assert run("export", "1", "2", "-o", f"{out}/", "--db", archive, "--force").exit_code == 0
    assert {(out / "1.sgf").read_bytes(), (out / "2.sgf").read_bytes()} == {RECORD, RECORD.replace(b"Ann", b"Cy")}
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no temporary file left


@pytest.mark.parametrize("command", ["diagram", "html"])
def test_diagram_and_html_do_not_overwrite_or_follow_symlinks(tmp_path: Path, command: str) -> None:
    src = tmp_path / "r.sgf"
    src.write_bytes(RECORD)
    target = tmp_path / "out.file"
    assert run(command, src, "-o", target).exit_code == 0
    first = target.read_bytes()
    assert first
    target.write_bytes(b"mine")
    again = run(command, src, "-o", target)
    assert again.exit_code == 2 and "exists" in again.output
    assert target.read_bytes() == b"mine"
    assert run(command, src, "-o", target, "--force").exit_code == 0
    assert target.read_bytes() == first
    outside = tmp_path / "outside"
    outside.write_bytes(b"outside")
    link = tmp_path / "link.out"
    link.symlink_to(outside)
    refused = run(command, src, "-o", link, "--force")
    assert refused.exit_code == 2 and "symbolic link" in refused.output
    assert outside.read_bytes() == b"outside" and link.is_symlink()


def test_a_failed_write_leaves_no_file(tmp_path: Path, monkeypatch) -> None:
    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output_files.os, "fsync", broken)
    target = tmp_path / "d.svg"
    src = tmp_path / "r.sgf"
    src.write_bytes(RECORD)
    result = run("diagram", src, "-o", target)
    assert result.exit_code == 2 and "No space left on device" in result.output
    assert list(tmp_path.iterdir()) == [src]  # neither the file nor a temporary one


# -- read-only archive ----------------------------------------------------------------------------------------

def test_reading_commands_leave_the_journal_mode_alone(tmp_path: Path, archive: Path) -> None:
    """A read-only connection never switches the file to WAL (that is a write)."""
    with sqlite3.connect(archive) as conn:
        assert conn.execute("PRAGMA journal_mode = DELETE").fetchone() == ("delete",)
    for args in (["search"], ["show", "1"], ["stats"], ["export", "1"], ["replay", "1", "--move", "1"]):
        result = run(*args, "--db", archive)
        assert result.exit_code == 0, (args, result.output)
    with sqlite3.connect(archive) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)


@pytest.mark.skipif(IS_ROOT, reason="root writes whatever the modes are")
def test_a_read_only_archive_can_be_searched_and_shown(tmp_path: Path, archive: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "a.db"
    db.write_bytes(archive.read_bytes())
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        for args in (["search"], ["show", "1"], ["stats"], ["export", "1"], ["replay", "1", "--move", "1"]):
            result = run(*args, "--db", db)
            assert result.exit_code == 0, (args, result.output)
        assert "Ann" in run("search", "--db", db).output
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)


# -- import workers -----------------------------------------------------------------------------------------

def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_import_workers_end_when_the_import_is_killed(tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    long_game = b"(;GM[1]SZ[19]PB[a]PW[b]" + b"".join(
        b";B[%s];W[%s]" % (bytes([97 + i % 19, 97 + i // 19 % 19]), bytes([97 + (i * 7) % 19, 97 + (i * 3) % 19]))
        for i in range(150)) + b")"
    for i in range(400):
        (folder / f"g{i:03d}.sgf").write_bytes(long_game.replace(b"PB[a]", b"PB[p%d]" % i))
    proc = subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", "import", str(folder), "--db",
                             str(tmp_path / "a.db"), "-q", "-j", "2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    helpers: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(helpers) < 3 and proc.poll() is None:
        helpers = _descendants(proc.pid)  # the fork server, its workers, the resource tracker
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip("the import ended before its workers were seen")
    assert len(helpers) >= 3
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and any(_alive(p) for p in helpers):
        time.sleep(0.1)
    left = [p for p in helpers if _alive(p)]
    names = [Path(f"/proc/{p}/cmdline").read_bytes()[:120] for p in left if _alive(p)]
    for p in left:  # do not leave them behind when the test fails
        os.kill(p, signal.SIGKILL)
    assert not left, f"helpers still alive 8 s after the import was killed: {left} {names}"
