"""Hostile input: board sizes out of range, codecs that are no charsets, huge files, FIFOs and devices,
unreadable folders, and integers beyond 64 bits. Each ends with a clear message, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app
from boardrecords.common import settings as limits
from boardrecords.common.settings import Settings
from boardrecords.records.charset import codec_for

runner = CliRunner()
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def run(*args: object, **kw):
    return runner.invoke(app, [str(a) for a in args], **kw)


def records_cli(*args: object, timeout: float = 60, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardrecords.cli.main", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, **kw)


# -- board sizes (ING-1, CAT-1, ...) ----------------------------------------------------------------------

@pytest.mark.parametrize("size", [53, 99999, 999999999])
@pytest.mark.parametrize("command", ["replay", "diagram", "html"])
def test_sizes_out_of_range_stop_drawing_commands_at_once(tmp_path: Path, size: int, command: str) -> None:
    src = tmp_path / "big.sgf"
    src.write_bytes(b"(;GM[1]SZ[%d]PB[a]PW[b];B[aa];W[bb])" % size)
    started = time.monotonic()
    result = run(command, src, *(["--all"] if command == "replay" else []))
    assert time.monotonic() - started < 5
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    line = result.output.strip()
    assert "\n" not in line
    assert "ING-1" in line and f"{size}x{size}" in line and "big.sgf:1:" in line


def test_show_of_a_stored_out_of_range_record_has_no_board(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "big.rec").write_bytes(b"(;GM[Cation]SZ[60];B[aa])")
    db = tmp_path / "a.db"
    run("import", folder, "--db", db)
    started = time.monotonic()
    result = run("show", "1", "--db", db)
    assert time.monotonic() - started < 5
    assert result.exit_code == 0
    assert "CAT-1" in result.output and "Verdict  invalid" in result.output


# -- charsets ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["unicode_escape", "raw_unicode_escape", "idna", "punycode", "rot13", "base64"])
def test_codecs_that_are_no_charsets_are_unknown(name: str) -> None:
    assert codec_for(name) is None


@pytest.mark.parametrize("name,codec", [("UTF-8", "utf-8"), ("ISO-8859-1", "iso-8859-1"), ("cp1252", "cp1252"),
                                        ("Shift_JIS", "cp932"), ("KOI8-R", "koi8-r")])
def test_real_charsets_are_still_honoured(name: str, codec: str) -> None:
    assert codec_for(name) == codec


def test_a_folder_with_escape_codecs_reports_every_record(tmp_path: Path) -> None:
    for name in ("unicode_escape", "raw_unicode_escape", "idna"):
        (tmp_path / f"{name}.sgf").write_bytes(b"(;GM[1]SZ[9]CA[%s]PB[a\\\\u12 \\\\x \xff\\\\N{];B[aa])"
                                               % name.encode())
    (tmp_path / "plain.sgf").write_bytes(b"(;GM[1]SZ[9]PB[Ann];B[aa])")
    result = run("verify", "--json", tmp_path)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 4
    import json

    for obj in map(json.loads, lines):
        if obj["file"].endswith("plain.sgf"):
            continue
        assert any(p["code"] == "charset-unknown" for p in obj["problems"])
    table = run("verify", tmp_path)
    assert "4 records" in table.output


# -- what is read ---------------------------------------------------------------------------------------------

def test_a_file_over_the_cap_is_refused_with_a_clear_message(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "long.sgf"
    src.write_bytes(b"(;GM[1]SZ[19]" + b";B[];W[]" * 2000 + b")")
    monkeypatch.setenv(limits.ENV_MAX_FILE_SIZE, "8K")
    result = run("verify", src)
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "larger than the 8 KiB" in flat and limits.ENV_MAX_FILE_SIZE in flat
    for command in ("replay", "diagram"):
        out = run(command, src)
        assert out.exit_code == 2 and "larger than the 8 KiB" in " ".join(out.output.split())
    monkeypatch.setenv(limits.ENV_MAX_FILE_SIZE, "1M")
    assert run("verify", src).exit_code in (0, 1)


def test_the_default_cap_and_its_setting() -> None:
    assert Settings.from_environment({}).max_file_size == limits.DEFAULT_MAX_FILE_SIZE
    for raw, expected in (("100", 100), ("64K", 65536), ("16M", 16 * 1024**2), ("1g", 1024**3), ("0", None)):
        assert Settings.from_environment({limits.ENV_MAX_FILE_SIZE: raw}).max_file_size == expected


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)
    for args in (["verify", fifo], ["replay", fifo], ["import", fifo, "--db", tmp_path / "a.db"]):
        done = records_cli(*args, timeout=20)  # a FIFO that is opened would block for ever
        assert done.returncode in (1, 2), done
        assert "FIFO" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr
    # ... also inside a folder: only regular files are taken there.
    assert records_cli("verify", tmp_path, timeout=20).returncode == 1


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_at_once() -> None:
    done = records_cli("verify", "/dev/zero", timeout=20)
    assert done.returncode == 2
    assert "a device, not a regular file" in " ".join(done.stdout.split())


def test_standard_input_is_read(tmp_path: Path) -> None:
    done = records_cli("verify", "--json", "-", input="(;GM[1]SZ[9]PB[Ann];B[cc])")
    assert done.returncode == 0, done
    assert '"black": "Ann"' in done.stdout


def test_unreadable_folder_is_reported(tmp_path: Path, monkeypatch) -> None:
    """Simulated (it works as root too): the walk cannot list a subfolder."""
    good = tmp_path / "a.sgf"
    good.write_bytes(b"(;GM[1]SZ[9];B[cc])")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.sgf").write_bytes(b"(;GM[1]SZ[9];B[cc])")
    real_scandir = os.scandir

    def scandir(path=None):  # type: ignore[no-untyped-def]
        if path is not None and os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", lambda p: scandir(p) and [])
    result = run("verify", tmp_path)
    assert result.exit_code == 2
    assert "locked: cannot be opened: Permission denied" in "".join(result.output.split("\n"))


@pytest.mark.skipif(IS_ROOT, reason="root reads folders whatever their mode")
def test_unreadable_folder_is_reported_for_real(tmp_path: Path) -> None:
    (tmp_path / "a.sgf").write_bytes(b"(;GM[1]SZ[9];B[cc])")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        done = records_cli("verify", tmp_path)
        assert done.returncode == 2
        assert "cannot be opened: Permission denied" in " ".join(done.stdout.split())
        imported = records_cli("import", tmp_path, "--db", tmp_path / "a.db")
        assert imported.returncode == 1 and "Permission denied" in imported.stderr
    finally:
        locked.chmod(0o755)


# -- integers ------------------------------------------------------------------------------------------------

BIG = "9223372036854775808"


@pytest.mark.parametrize("args", [
    ["show", BIG], ["show", "1" + "0" * 40], ["search", "--limit", BIG], ["search", "--size", BIG],
    ["search", "--moves-min", BIG], ["search", "--moves-max", BIG], ["stats", "--players", BIG], ["export", BIG],
    ["export", "--all", "--limit", BIG], ["import", ".", "--batch", BIG], ["import", ".", "--workers", BIG],
    ["replay", "x.sgf", "--index", BIG],
])
def test_integers_beyond_64_bits_are_usage_errors(tmp_path: Path, args: list[str]) -> None:
    result = run(*args, "--db", tmp_path / "a.db")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # a usage error, not an OverflowError
    assert "Invalid value" in result.output


def test_an_archive_id_beyond_64_bits_is_not_found(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.sgf").write_bytes(b"(;GM[1]SZ[9];B[cc])")
    db = tmp_path / "a.db"
    run("import", folder, "--db", db)
    result = run("replay", BIG, "--db", db)
    assert result.exit_code == 1
    assert "no record " in result.output
    assert run("show", "9223372036854775807", "--db", db).exit_code == 1


def test_a_summary_of_many_records_is_printed_whole_in_chunks(tmp_path: Path) -> None:
    src = tmp_path / "many.sgf"
    src.write_bytes(b"(;GM[1]SZ[9];B[cc])\n" * 1100 + b"(;GM[1]SZ[9];B[cc];W[cc])\n")
    result = run("verify", src)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum(1 for line in lines if line.strip().startswith("many.sgf")) == 1101 + 1  # the rows, the note
    assert "#1101" in result.output and "1101 records: 1100 pass, 1 invalid" in result.output
    assert "many.sgf #1101: move 2:" in " ".join(result.output.split())


def test_a_file_with_too_many_records_is_refused(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "tiny.sgf"
    src.write_bytes(b"(;B[cc])" * 50)
    monkeypatch.setenv(limits.ENV_MAX_RECORDS, "40")
    result = run("verify", src)
    assert result.exit_code == 1
    flat = " ".join(result.output.split())
    assert "more than 40 game records in one file" in flat and limits.ENV_MAX_RECORDS in flat
    monkeypatch.setenv(limits.ENV_MAX_RECORDS, "50")
    allowed = run("verify", src)
    assert "50 records:" in allowed.output and "more than" not in allowed.output
    assert Settings.from_environment({}).max_records == limits.DEFAULT_MAX_RECORDS


@pytest.mark.parametrize(("name", "raw"), [("RECORDS_MAX_FILE_SIZE", "1.5M"), ("RECORDS_MAX_FILE_SIZE", "1e9"),
                                           ("RECORDS_MAX_FILE_SIZE", "abc"), ("RECORDS_MAX_FILE_SIZE", "-5"),
                                           ("RECORDS_MAX_RECORDS", "ten"), ("RECORDS_MAX_RECORDS", "-1")])
def test_a_limit_that_is_no_setting_is_refused_never_read_as_the_default(name, raw) -> None:
    with pytest.raises(limits.SettingError, match=name):
        Settings.from_environment({name: raw})


@pytest.mark.parametrize("command", [["verify", "."], ["import", "."], ["replay", "x.rec"], ["search"]])
def test_a_limit_that_is_no_setting_is_a_usage_error_in_every_command(monkeypatch, command) -> None:
    monkeypatch.setenv(limits.ENV_MAX_FILE_SIZE, "1.5M")
    out = run(*command)
    assert out.exit_code == 2 and "RECORDS_MAX_FILE_SIZE=1.5M is not a size" in " ".join(out.output.split())
