"""Recording a game as it is played (archive/store/recordings.py, through `Archive`), on SQLite and PostgreSQL.

The conformance records are the material: every legal one entered move by move gives, once finished, the verdict
its truth file gives; every illegal one is entered until its first illegal move, which is refused with the rule
the truth names.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from boardrecords.archive.front import Archive
from boardrecords.archive.store.recordings import MoveRefused, StalePosition
from boardrecords.common.errors import InputError, NotFound
from boardrecords.records.reader import read_bytes

from ..shared import CONFORMANCE

GAMES = ["go-ing", "conversion-go", "cation", "quentin", "squer"]


@pytest.fixture
def archive(db_url: str) -> Any:
    with Archive(db_url, create=True) as opened:
        yield opened


def _cases(game: str, *, valid: bool) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for truth_file in sorted((CONFORMANCE / game).glob("*.truth.json")):
        truth = json.loads(truth_file.read_text(encoding="utf-8"))
        if truth["valid"] is valid:
            out.append((truth_file.with_name(truth_file.name.replace(".truth.json", ".rec")), truth))
    return out


def _start(archive: Archive, path: Path) -> tuple[int, Any]:
    """A recording with the header of the record at `path`; (its id, the record)."""
    record = read_bytes(path.read_bytes(), path.name)[0]
    root = record.root
    header: dict[str, Any] = {"black": record.black, "white": record.white, "komi": root.get("KM"),
                              "handicap": root.get("HA"), "ruleset": root.get("RU"), "event": root.get("EV"),
                              "round": root.get("RO"), "date": root.get("DT")}
    if root.get_all("AB"):
        header["setup_black"] = root.get_all("AB")
    if root.get_all("AW"):
        header["setup_white"] = root.get_all("AW")
    if root.get("PL"):
        header["first"] = root.get("PL")
    started = archive.start_recording(record.game.value, record.size, **header)
    return started.id, record


def _enter(archive: Archive, recording: int, node: Any) -> Any:
    move = node.move
    return archive.play_move(recording, move.raw, colour=move.colour.value, comment=node.comment,
                             marks_black=node.get_all("TB"), marks_white=node.get_all("TW"))


needs_conformance = pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=f"conformance records absent ({CONFORMANCE})")


@needs_conformance
@pytest.mark.parametrize("game", GAMES)
def test_legal_records_entered_move_by_move_give_their_verdict(archive: Archive, game: str) -> None:
    cases = _cases(game, valid=True)
    assert cases, f"no legal conformance record of {game}"
    entered = 0
    for path, truth in cases:
        recording, record = _start(archive, path)
        for node in record.main_line():
            if node.move is not None:
                position = _enter(archive, recording, node)
                entered += 1
        assert position.count if hasattr(position, "count") else True
        finished = archive.finish_recording(recording, record.result.raw or None)
        stored = archive.record(finished.record).row
        assert stored.valid, path.name
        assert stored.winner_colour == truth["winner_colour"], path.name
        assert stored.winner_player == truth["winner_player"], path.name
        if truth["declared_result"] is not None:
            assert stored.result_status == truth["result_status"], path.name
        else:  # the result the recorder writes is the one the end shows
            assert stored.result_status in ("agrees", "undeclared", "unconfirmed"), path.name
        assert stored.move_count == truth["moves_replayed"], path.name
        assert finished.verdict == stored.verdict
    assert entered > 100
    assert archive.recordings() == []


@pytest.mark.parametrize("game", GAMES)
@needs_conformance
def test_each_illegal_move_is_refused_with_its_rule(archive: Archive, game: str) -> None:
    refused = 0
    for path, truth in _cases(game, valid=False):
        if truth["first_error_ply"] is None:
            continue  # an error of the header or the marks' agreement, not of a move
        recording, record = _start(archive, path)
        number = 0
        for node in record.main_line():
            if node.move is None:
                continue
            number += 1
            if number < truth["first_error_ply"]:
                _enter(archive, recording, node)
                continue
            if any(node.has(ident) for ident in ("AB", "AW", "AE", "PL")):
                break  # set-up beside a move (ING-8): nothing the recorder can be sent
            with pytest.raises(InputError) as caught:
                _enter(archive, recording, node)
            if isinstance(caught.value, MoveRefused):
                assert caught.value.rule == truth["error_rule"], (path.name, str(caught.value))
            else:  # a point off the board names no move: a bad value, with the size rule
                assert "off the" in str(caught.value), (path.name, str(caught.value))
            refused += 1
            after = archive.recording(recording)
            assert after.to_json()["count"] == number - 1  # nothing of the refused move was stored
            break
    assert refused >= 5


def test_go_suicide_and_superko_are_refused(archive: Archive) -> None:
    rec = archive.start_recording("go", 9).id
    for move in ("ba", "ee", "ab"):
        archive.play_move(rec, move)
    with pytest.raises(MoveRefused) as caught:
        archive.play_move(rec, "aa")  # a one-stone suicide recreates the position before it
    assert caught.value.rule == "ING-4"
    ko = archive.start_recording("go", 9).id
    for move in ("ba", "ca", "ab", "db", "bc", "cc", "ii", "bb", "cb"):
        archive.play_move(ko, move)
    with pytest.raises(MoveRefused) as caught:
        archive.play_move(ko, "bb")  # the immediate retake of the ko
    assert caught.value.rule == "ING-4"
    assert archive.play_move(ko, "hh").to_move == "B"


def test_swap_sweep_and_relocation_are_offered_and_played(archive: Archive) -> None:
    cation = archive.start_recording("cation", 6, black="Ann", white="Bob").id
    first = archive.play_move(cation, "c4")
    assert first.offered["swap"]
    swapped = archive.play_move(cation, "swap", colour="W")
    assert swapped.player_to_move == "Ann" and swapped.to_move == "W"
    assert not swapped.offered["swap"]
    with pytest.raises(MoveRefused) as caught:
        archive.play_move(cation, "swap")
    assert caught.value.rule == "GEN-7" or caught.value.rule.startswith("CAT-")
    squer = archive.start_recording("squer", 4).id
    position = archive.play_move(squer, "a1")
    assert all(sweep["colour"] == position.to_move for sweep in position.offered["sweeps"])


def test_undo_keeps_the_replaced_move_as_a_variation(archive: Archive) -> None:
    rec = archive.start_recording("go", 9, black="Ann", white="Bob").id
    archive.play_move(rec, "E5")
    archive.play_move(rec, "C3")
    undone = archive.undo_move(rec)
    assert undone.to_json()["count"] == 1 and undone.to_move == "W"
    replaced = archive.play_move(rec, "G7", after=1, comment="the move played", white_time=290.5)
    assert replaced.variations == 1
    assert replaced.moves[-1].comment == "the move played" and replaced.moves[-1].white_time == 290.5
    commented = archive.comment_move(rec, "opening", number=1)
    assert commented.moves[0].comment == "opening"
    finished = archive.finish_recording(rec, "W+R")
    raw = archive.record(finished.record).row.raw
    assert b"(;W[gc]C[the move played]WL[290.5])" in raw and b"(;W[cg])" in raw
    assert finished.verdict == "pass" and finished.winner_player == "Bob"
    with pytest.raises(MoveRefused):
        archive.play_move(rec, "A1")
    again = archive.finish_recording(rec)
    assert again.record == finished.record and not again.new


def test_a_stale_position_is_refused(archive: Archive) -> None:
    rec = archive.start_recording("quentin", 6).id
    archive.play_move(rec, "c3", after=0)
    with pytest.raises(StalePosition) as caught:
        archive.play_move(rec, "d4", after=0)
    assert caught.value.now == 1 and "1 moves are played" in str(caught.value)
    with pytest.raises(StalePosition):
        archive.undo_move(rec, after=3)
    assert archive.recording(rec).to_json()["count"] == 1


def test_two_writers_of_one_game_cannot_fork_it(archive: Archive, db_url: str) -> None:
    rec = archive.start_recording("go", 9).id
    won: list[int] = []
    lost: list[int] = []
    barrier = threading.Barrier(4)

    def enter(move: str) -> None:
        with Archive(db_url, write=True) as mine:
            for number in range(3):
                barrier.wait()
                try:
                    mine.play_move(rec, f"{move}{number + 1}", after=number)
                    won.append(number)
                except StalePosition:
                    lost.append(number)
                finally:
                    barrier.wait()  # every writer has tried this number before the next

    threads = [threading.Thread(target=enter, args=(column,)) for column in "ACEG"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won) == [0, 1, 2] and len(lost) == 9
    assert archive.recording(rec).to_json()["count"] == 3


def test_finish_needs_a_result_until_the_game_ends_and_discard(archive: Archive) -> None:
    rec = archive.start_recording("cation", 4, event="Club", round="1").id
    archive.play_move(rec, "b2")
    with pytest.raises(InputError, match="give the result"):
        archive.finish_recording(rec)
    assert [r.id for r in archive.recordings()] == [rec]
    archive.discard_recording(rec)
    assert archive.recordings() == [] and [r.id for r in archive.recordings("discarded")] == [rec]
    with pytest.raises(MoveRefused, match="discarded"):
        archive.play_move(rec, "c3")
    resigned = archive.start_recording("squer", 4).id
    archive.play_move(resigned, "a1")
    done = archive.play_move(resigned, "resign", colour="B")
    assert done.ended and done.result == "W+R"
    assert archive.finish_recording(resigned).verdict == "pass"


def test_bad_input_is_one_clear_error(archive: Archive) -> None:
    with pytest.raises(InputError, match="no game"):
        archive.start_recording("chess", 8)
    with pytest.raises(InputError, match="no default board size"):
        archive.start_recording("cation")
    with pytest.raises(InputError, match="FMT-10"):
        archive.start_recording("cation", 6, setup_black=["c3"])
    with pytest.raises(InputError, match="no header field"):
        archive.start_recording("go", 9, colour="B")
    rec = archive.start_recording("conversion-go", 6).id
    with pytest.raises(InputError, match="CON-5"):
        archive.play_move(rec, "c3")  # either colour may move: the colour must be named
    assert archive.play_move(rec, "c3", colour="W").to_json()["count"] == 1
    with pytest.raises(InputError, match="move"):
        archive.play_move(rec, "Z99", colour="B")
    with pytest.raises(NotFound):
        archive.recording(rec + 100)


def test_a_move_undone_and_played_again_is_the_same_node(archive: Archive) -> None:
    rec = archive.start_recording("cation", 4).id
    archive.play_move(rec, "b2")
    archive.play_move(rec, "c3")
    archive.undo_move(rec)
    again = archive.play_move(rec, "c3", comment="again")
    assert again.variations == 0 and again.moves[-1].comment == "again"
    raw = archive.record(archive.finish_recording(rec, "W+T").record).row.raw
    assert raw.endswith(b";B[bc];W[cb]C[again])")


def test_the_stones_agreed_dead_are_marked_on_the_final_pass(archive: Archive) -> None:
    rec = archive.start_recording("go", 5, komi=0.5).id
    for move in ("C3", "B2", "pass", "pass"):
        stopped = archive.play_move(rec, move)
    assert stopped.stopped and stopped.offered["marks"] and stopped.result == "W+0.5"
    split = archive.start_recording("go", 5).id
    for move in ("C3", "B2", "C4", "pass", "pass"):
        archive.play_move(split, move)
    with pytest.raises(MoveRefused) as caught:
        archive.mark_recording(split, white=["C3"])  # half of a black string (ING-7)
    assert caught.value.rule == "ING-7"
    archive.undo_move(split)
    archive.play_move(split, "D4")
    with pytest.raises(MoveRefused, match="not a pass"):
        archive.mark_recording(split, white=["C3", "C4"])
    scored = archive.mark_recording(rec, black=["B2"])  # White's stone agreed dead (ING-7)
    assert scored.ended and scored.result == "B+24.5"
    finished = archive.finish_recording(rec)
    assert finished.verdict == "pass" and finished.result == "B+24.5"
    assert b"TB[bd]" in archive.record(finished.record).row.raw
