"""`records record` (cli/record_cmd.py) fed by standard input: the header asked for, each move checked and stored
before the next prompt, a refusal with its rule, undo and comment, a recording left and resumed, and the finished
game stored in the archive and written to a file."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from boardrecords.archive.front import Archive
from boardrecords.cli.main import app


def _archive(db: Path) -> Path:
    """An empty archive (as `records import` makes one): the recorder records into an archive that exists."""
    Archive(str(db), create=True).close()
    return db


def _record(*args: str, typed: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["record", "--ascii", *args], input=typed)
    return done.exit_code, done.output


def test_a_game_typed_move_by_move_is_stored_and_written(tmp_path: Path) -> None:
    db, out = _archive(tmp_path / "a.db"), tmp_path / "game.rec"
    code, shown = _record("--db", str(db), "-o", str(out),
                          typed="go\n9\nAnn\nBob\nClub\n3\nE5\nE5\nC3\ncomment a good move\nundo\nG7\npass\npass\n"
                                "finish\n")
    assert code == 0, shown
    assert "refused: move 2: E5 is occupied (ING-3)" in shown
    assert "move 2: White (Bob) to play" in shown
    assert "stored as record #1: pass" in shown
    text = out.read_text(encoding="utf-8")
    assert "PB[Ann]PW[Bob]EV[Club]RO[3]" in text and "C[a good move]" in text  # the undone move: a variation
    with Archive(str(db)) as archive:
        row = archive.record(1).row
        assert row.verdict == "pass" and row.event == "Club" and row.move_count == 4


def test_a_recording_left_goes_on_with_resume(tmp_path: Path) -> None:
    db = _archive(tmp_path / "a.db")
    code, shown = _record("--db", str(db), "-g", "squer", "--size", "4", "--black", "A", "--white", "B",
                          "--event", "", "--round", "", typed="a1\nb2\n")  # standard input ends: the game stays
    assert code == 0 and "records record --resume 1" in shown
    code, shown = _record("--db", str(db), "--resume", "1", typed="c3\nbogus-move\nresign\nfinish\n")
    assert code == 0, shown
    assert "last: 3. Black c3" in shown and "error: move:" in shown
    assert "stored as record #1: pass, B+R, won by A" in shown
    code, shown = _record("--db", str(db), "--resume", "1", typed="d4\n")
    assert code == 2 and "finished" in shown


def test_the_colour_is_named_where_either_may_move(tmp_path: Path) -> None:
    db = _archive(tmp_path / "a.db")
    code, shown = _record("--db", str(db), "-g", "conversion-go", "--size", "6", "--black", "", "--white", "",
                          "--event", "", "--round", "", typed="C3\nW C3\nB D4\ndiscard\n")
    assert code == 0, shown
    assert "either colour may play" in shown and "CON-5" in shown
    assert "last: 2. Black D4" in shown and "recording 1 discarded" in shown


def test_the_stones_agreed_dead_are_typed_after_the_passes(tmp_path: Path) -> None:
    db = _archive(tmp_path / "a.db")
    code, shown = _record("--db", str(db), "-g", "go", "--size", "5", "--black", "A", "--white", "B", "--event", "",
                          "--round", "", typed="C3\nB2\npass\npass\ndead A1\ndead B2\nfinish\n")
    assert code == 0, shown
    assert "error: dead: no stone on A1" in shown
    assert "stored as record #1: pass, B+25, won by A" in shown
