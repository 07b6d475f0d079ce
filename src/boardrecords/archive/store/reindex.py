"""`records reindex`: rebuild the position index and the pattern change lists from the stored records, and bring
each record's verdict up to the rules as they stand (a stored verdict that the rules now judge otherwise is
replaced, with its problems), and its keys made from the moves (the Dyer signature, the keys of the same game
stored twice) with it.

Each stored record is read back and replayed once (archive/store/record_rows.py follows the verifier's replay for
both); each batch of games is replaced in one transaction (the positions through the stage, whose rows stand for
the games' indexed rows until the merge at the end makes the index again whole: archive/positions/stage.py), so
both stay exact for the games already done if it is stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import Engine, select
from sqlmodel import Session, col

from ...records.reader import NOTES_AFTER, NOTES_BEFORE
from ..core.db import writer
from ..core.models import GameRow, PatternLineRow, ProblemRow
from ..core.state import mark_changed
from ..core.stored import parse_row
from ..positions.stage import merge_pending, unindex, unstage
from ..positions.values import POSITIONS
from .record_rows import archive_rows, game_columns, write_index

# The stored bytes and where they came from are the user's; reindex never rewrites them.
_KEPT = frozenset({"raw", "sha256", "encoding", "source_file", "source_index", "source_line", "source_column"})
# Columns that are keys made from the moves, not part of the verdict: the Dyer signature and the keys of the same
# game stored twice (archive/core/line_keys.py). Made again when they changed, not counted as verdicts updated.
KEYS = frozenset({"signature", "line_hash", "head_hash"})


class ReindexSummary(NamedTuple):
    """What a reindex did: the records read back, the positions indexed and the change lists written for pattern
    search, and the stored verdicts it brought up to the rules as they stand."""

    records: int
    positions: int
    change_lists: int
    verdicts_updated: int

    def to_json(self) -> dict[str, int]:
        return {"records": self.records, "positions": self.positions, "change_lists": self.change_lists,
                "verdicts_updated": self.verdicts_updated}


def reindex(engine: Engine, *, batch: int = 500, on_batch: Callable[[int], None] | None = None,
            patterns: bool = True) -> ReindexSummary:
    """Rebuild both indexes from every stored record (the change lists only with `patterns`: `Settings.patterns`);
    `on_batch` is told how many records are done after each batch."""
    patterns_table = PatternLineRow.__table__  # type: ignore[attr-defined]
    done = positions = lines = updated = 0
    game_table = GameRow.__table__  # type: ignore[attr-defined]
    problem_table = ProblemRow.__table__  # type: ignore[attr-defined]
    last = 0
    while True:
        with engine.connect() as conn:
            ids = list(conn.scalars(select(col(GameRow.id)).where(col(GameRow.id) > last)
                                    .order_by(col(GameRow.id)).limit(batch)))
        if not ids:
            break
        found: list[tuple[int, dict[str, Any]]] = []
        unread: list[int] = []
        verdicts: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
        with Session(engine) as session:
            stored = _file_notes(session, ids)
            for row in session.scalars(select(GameRow).where(col(GameRow.id).in_(ids))):
                assert row.id is not None
                try:
                    record = parse_row(row)
                    values, problems = archive_rows(record, source_file=row.source_file,
                                                    source_index=row.source_index, patterns=patterns)
                except Exception:  # a record that no longer reads keeps neither positions nor a change list
                    unread.append(row.id)
                    continue
                problems = in_its_file(problems, len(record.diagnostics), row, stored.get(row.id, []))
                values["problem_count"] = len(problems)
                # The keys are rewritten with the verdict's columns when they changed.
                stale = {k: v for k, v in game_columns(values).items() if k not in _KEPT and getattr(row, k) != v}
                if stale:
                    verdicts.append((row.id, stale, problems))
                found.append((row.id, values))
        with writer(engine).begin() as conn:
            # The staged rows of a game stand for its indexed rows until the merge replaces them (every game
            # staged again: the index made again whole); a game that no longer has positions leaves the index now.
            unstage(conn, ids)
            unindex(conn, unread + [gid for gid, values in found if values.get(POSITIONS) is None], lambda gid: None)
            conn.execute(patterns_table.delete().where(patterns_table.c.game_id.in_(ids)))
            staged, written = write_index(conn, found)
            positions += staged
            lines += written
            for game_id, stale, problems in verdicts:
                conn.execute(game_table.update().where(game_table.c.id == game_id).values(**stale))
                conn.execute(problem_table.delete().where(problem_table.c.game_id == game_id))
                if problems:
                    conn.execute(problem_table.insert(), [{**p, "game_id": game_id} for p in problems])
            updated += sum(1 for _, stale, _ in verdicts if set(stale) - KEYS)  # keys only: no verdict changed
            mark_changed(conn)
        done += len(ids)
        last = int(ids[-1] or 0)
        if on_batch is not None:
            on_batch(done)
    merge_pending(engine)
    return ReindexSummary(done, positions, lines, updated)


def _file_notes(session: Session, ids: list[int | None]) -> dict[int, list[dict[str, Any]]]:
    """The stored problems of the games `ids` that the reader gave of their place in their file (reader.py:
    NOTES_BEFORE, NOTES_AFTER), in their order, by game."""
    notes: dict[int, list[dict[str, Any]]] = {}
    query = (select(ProblemRow).where(col(ProblemRow.game_id).in_(ids))
             .where(col(ProblemRow.code).in_(NOTES_BEFORE | NOTES_AFTER)).order_by(col(ProblemRow.id)))
    for p in session.scalars(query):
        notes.setdefault(p.game_id, []).append(
            {k: v for k, v in p.model_dump().items() if k not in ("id", "game_id")})
    return notes


def in_its_file(problems: list[dict[str, Any]], diagnostics: int, row: GameRow,
                file_notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The problems of a record read back from its stored bytes as `verify` gives them for its file: their lines
    and columns moved to where the bytes start in the file (the row's source_line and source_column), and the
    stored notes of what stood before and after the bytes in the file (a byte-order mark, text before the first
    game tree...), which the bytes alone cannot show, put back where the reader puts them: the notes before first,
    the notes after at the end of the reader's own (the first `diagnostics` problems), before the verdict's."""
    line0, column0 = row.source_line or 1, row.source_column or 1
    moved: list[dict[str, Any]] = []
    for p in problems:
        if p["code"] in NOTES_BEFORE or p["code"] in NOTES_AFTER:
            diagnostics -= 1  # read from the bytes alone: the stored note of the file says it
            continue
        line = p.get("line")
        if line is not None:
            p = {**p, "line": line + line0 - 1}
            if line == 1 and p.get("column") is not None:
                p["column"] += column0 - 1
        moved.append(p)
    before = [n for n in file_notes if n["code"] in NOTES_BEFORE]
    after = [n for n in file_notes if n["code"] in NOTES_AFTER]
    return before + moved[:diagnostics] + after + moved[diagnostics:]
