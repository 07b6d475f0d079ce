"""`records import`: read, verify and store records from files and folders.

Worker processes parse and verify chunks of files and send back plain rows; the main process alone writes, in
batches of `batch_size` records per transaction, or fewer when their rows reach PENDING_BYTES. A batch is all or
nothing (a record and its problems go in the same transaction), so an import stopped at any moment leaves a
consistent archive, and running the same import again stores what is missing: a record already stored (same sha256
of its bytes) is skipped as a duplicate by the database itself (INSERT ... ON CONFLICT DO NOTHING), which also keeps
two imports running at once from storing a record twice."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, Table, func, insert, select, text
from sqlalchemy.exc import DBAPIError

from ...common.memory import give_back, release_file
from ...common.settings import DEFAULTS, Settings
from ...common.workers import default_workers, file_size, in_order
from ...records.files import FileFailure, read_records
from ...records.formats import FORMAT_NAMES
from ...records.model import Record
from ...verifier.judging.status import STATUS_ORDER, VERDICT_ORDER, VerdictClass
from ..core.db import retrying, writer
from ..core.models import GameRow, ProblemRow
from ..core.state import mark_changed
from ..patterns.lines import PATTERNS
from ..patterns.same_game import BEGINNING, LONGER, SAME_GAME, Line, first_match, stored_lines
from ..positions.stage import merge_pending
from ..positions.values import POSITIONS
from .collect import WORKER_MODULE
from .record_rows import archive_rows, game_columns, write_index

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite

BATCH_SIZE = 500
# The rows waiting for a commit are bounded in bytes too (their stored bytes, position rows and change lists as
# `row_bytes` estimates them): 500 records of 3 MiB each would otherwise wait together. The database driver copies
# a batch's values again while it writes them, so the main process holds about three times this bound: at 64 MiB
# it peaked at 270 MB on files of 3 MiB, at 8 MiB (two such records a batch) at 150 MB, as fast.
PENDING_BYTES = 8 * 1024 * 1024

Row = tuple[dict[str, Any], list[dict[str, Any]]]  # a game row and its problem rows


@dataclass(slots=True)
class FileResult:
    """What a worker made of one file: its rows, or why it could not be read (file:line:col: reason)."""

    path: str
    rows: list[Row] = field(default_factory=list)
    error: str | None = None  # the file could not be read at all
    unopened: bool = False  # ... nor even opened (a FIFO, a file over the cap, no permission): as verify says it
    failures: list[str] = field(default_factory=list)  # records the verifier could not judge
    refused: list[str] = field(default_factory=list)  # records read, judged invalid, and not stored (FMT-6)
    format: str | None = None  # the file's format when it was read (FMT-13: `sgf`, `gib`, `ngf`, `ugf`)


DUPLICATE_KINDS = ("exact", SAME_GAME, BEGINNING, LONGER)  # why a record is a duplicate, in the summary's order
NEAR_KINDS = DUPLICATE_KINDS[1:]  # the near-duplicates: one game with a stored record, in other bytes


@dataclass(frozen=True, slots=True)
class NearDuplicate:
    """A record that is one game with a stored record or one earlier in the import (archive/patterns/same_game.py):
    `file#index`, how (SAME_GAME, BEGINNING: its line is the other's beginning, LONGER: the other's is its own),
    the other (`#ID`, or `file#index` in this import), both lines' moves, and whether it was stored."""

    source: str
    kind: str
    like: str
    moves: int
    like_moves: int
    stored: bool

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "kind": self.kind, "like": self.like, "moves": self.moves,
                "like_moves": self.like_moves, "stored": self.stored}


@dataclass(slots=True)
class ImportSummary:
    """What an import did. Every record read is counted once: `new` (stored), a duplicate (not stored: the same
    bytes as a stored or earlier record, or with `skip_near` one game with one: `duplicate_kinds`), not stored
    for being of no game the archive knows (FMT-6), or failed (the verifier could not judge it); a file that cannot
    be read is counted as unreadable. So `records == new + duplicates + not_stored`, `failed` beside them."""

    files: int = 0
    records: int = 0
    new: int = 0
    duplicates: int = 0
    duplicate_kinds: Counter[str] = field(default_factory=Counter)  # duplicates per DUPLICATE_KINDS
    verdicts: Counter[str] = field(default_factory=Counter)  # records per verdict (verifier/judging/status.py)
    statuses: Counter[str] = field(default_factory=Counter)  # records per result status (GEN-8)
    unreadable: int = 0  # files
    unopened: int = 0  # of those, files that could not even be opened
    not_stored: int = 0  # records of no game the archive knows (FMT-6)
    failed: int = 0
    errors: list[str] = field(default_factory=list)  # one line per unreadable file, refused or failed record
    duplicate_sources: list[str] = field(default_factory=list)  # `file#index` of each exact duplicate
    # Near-duplicates (docs/patterns.md): one game with a stored record or one earlier in the import, each stored
    # unless `skip_near`.
    near_duplicates: list[NearDuplicate] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # one line per path named that could not be opened
    formats: Counter[str] = field(default_factory=Counter)  # files read per format (FMT-13; records/formats)

    @property
    def ok(self) -> bool:
        return not self.unreadable and not self.failed and not self.not_stored and not self.missing

    @property
    def skipped(self) -> int:
        """The near-duplicates kept out (`--skip-duplicates`): the duplicates that are not exact."""
        return self.duplicates - self.duplicate_kinds["exact"]

    def duplicate(self, kind: str, where: str) -> None:
        """Count one record not stored as a duplicate of `kind`."""
        self.duplicates += 1
        self.duplicate_kinds[kind] += 1
        if kind == "exact":
            self.duplicate_sources.append(where)

    def to_json(self) -> dict[str, Any]:
        near = Counter(d.kind for d in self.near_duplicates)
        return {"files": self.files, "unreadable": self.unreadable, "records": self.records, "new": self.new,
                "duplicates": self.duplicates,
                "duplicate_kinds": {kind: self.duplicate_kinds[kind] for kind in DUPLICATE_KINDS},
                "skipped": self.skipped,
                "near_duplicates": {kind: near[kind] for kind in NEAR_KINDS},
                "verdicts": {v.value: self.verdicts[v.value] for v in VERDICT_ORDER
                             if v is not VerdictClass.UNCONFIRMED},
                "results": {st.value: self.statuses[st.value] for st in STATUS_ORDER},
                "not_stored": self.not_stored, "failed": self.failed, "errors": self.errors,
                "duplicate_sources": self.duplicate_sources,
                "near_duplicate_sources": [d.to_json() for d in self.near_duplicates],
                "formats": {name: self.formats[name] for name in FORMAT_NAMES}}


@dataclass(frozen=True, slots=True)
class ImportProgress:
    """Where an import stands once one more file is taken: that file's result (its rows already pending or
    stored), how many files the import reads in all, and the summary so far (`summary.files` of them done)."""

    file: FileResult
    total: int
    summary: ImportSummary


class ImportInterrupted(KeyboardInterrupt):
    """Ctrl-C during an import: every batch committed before it stays, and `summary.new` counts their records
    (running the same import again stores the rest). A KeyboardInterrupt, outside the error family on purpose:
    code that stops on Ctrl-C stops on it too."""

    def __init__(self, summary: ImportSummary) -> None:
        super().__init__(f"interrupted after {summary.new} new records were committed")
        self.summary = summary


def process_file(path: str, settings: Settings = DEFAULTS) -> FileResult:
    """Parse and verify every record of one file (runs in a worker process), within the limits of `settings`."""
    result = FileResult(path)
    records = read_records(path, settings=settings)  # as `verify` reads it (records/files.py)
    if isinstance(records, FileFailure):
        result.error = records.message
        result.unopened = records.unopened
        return result
    result.format = records[0].file_format  # a file read holds at least one record (records/files.py)
    add_rows(result, records, settings)
    release_file(path)  # after add_rows has returned: no record of the file is referenced any more
    return result


def add_rows(result: FileResult, records: list[Record], settings: Settings = DEFAULTS) -> None:
    """Each record's rows (or why it has none) into `result`; the list of records is emptied as they are judged.
    `settings` says which index rows are made (`position_index`, `patterns`)."""
    path = result.path
    records.reverse()
    while records:
        record = records.pop()  # each record is let go once its rows are made: memory holds one file's rows
        if record.unknown_game is not None:
            result.refused.append(f"{path}#{record.index}: GM[{record.unknown_game}] is not one of the five games; "
                                  "not stored (FMT-6)")
            continue
        try:
            result.rows.append(archive_rows(record, source_file=path, positions=settings.position_index,
                                            patterns=settings.patterns))
        except Exception as exc:  # one record the verifier cannot judge must not lose the others
            result.failures.append(f"{path}#{record.index}: verification failed: {type(exc).__name__}: {exc}")
        record.let_go()  # freed now, by reference counting: its rows hold nothing of its tree


def process_chunk(items: Sequence[tuple[str, Settings]]) -> list[FileResult]:
    """The files of one chunk, each with the run's settings (sent to the worker processes as data)."""
    return [process_file(path, settings) for path, settings in items]


class Importer:
    """Imports files into the archive behind `engine` (whose schema must exist)."""

    def __init__(self, engine: Engine, *, batch_size: int = BATCH_SIZE, workers: int | None = None,
                 on_file: Callable[[FileResult], None] | None = None, skip_near: bool = False,
                 settings: Settings = DEFAULTS) -> None:
        self.engine = engine
        self.settings = settings  # the limits of what is read and which index rows are made
        self.skip_near = skip_near  # near-duplicates are not stored (`--skip-duplicates`)
        self.batch_size = max(1, batch_size)
        self.workers = workers if workers is not None else default_workers()
        self.on_file = on_file
        self.summary = ImportSummary()
        self._pending: list[tuple[Row, str]] = []  # rows waiting for the next commit, with `file#index`
        self._pending_bytes = 0

    # -- driving -------------------------------------------------------------------------------------------
    def run(self, files: Sequence[Path]) -> ImportSummary:
        # Results are taken in file order, so that which copy of a duplicate is stored does not depend on which
        # worker finished first.
        paths = [str(f) for f in files]
        items = [(p, self.settings) for p in paths]
        for result in in_order(process_chunk, items, workers=self.workers, preload=WORKER_MODULE,
                               size_of=_size_of_item):
            self._take(result)
        self._flush()
        # The positions of the games this run stored wait in the stage beside them: into the index, in key order.
        retrying(lambda: merge_pending(self.engine))
        self._analyse()
        return self.summary

    def _take(self, result: FileResult) -> None:
        s = self.summary
        s.files += 1
        if result.error is not None:
            s.unreadable += 1
            s.unopened += result.unopened
            s.verdicts[VerdictClass.UNREADABLE.value] += 1
            s.errors.append(result.error)
        if result.format is not None:
            s.formats[result.format] += 1
        s.failed += len(result.failures)
        s.errors.extend(result.failures)
        s.not_stored += len(result.refused)
        s.records += len(result.refused)
        s.verdicts[VerdictClass.INVALID.value] += len(result.refused)
        s.errors.extend(result.refused)
        rows = result.rows
        rows.reverse()
        while rows:  # each row let go of the file's result once it is pending: the result shrinks as batches go
            game, problems = rows.pop()
            s.records += 1
            s.verdicts[game["verdict"]] += 1
            s.statuses[game["result_status"]] += 1
            self._pending.append(((game, problems), f"{result.path}#{game['source_index']}"))
            self._pending_bytes += row_bytes(game)
            if len(self._pending) >= self.batch_size or self._pending_bytes >= PENDING_BYTES:
                self._flush()
        if self.on_file is not None:
            self.on_file(result)

    # -- writing -------------------------------------------------------------------------------------------
    def _flush(self) -> None:
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        large = self._pending_bytes >= PENDING_BYTES
        self._pending_bytes = 0
        # One row per hash, in hash order: PostgreSQL then takes the unique-index locks of two concurrent imports
        # in the same order, so they cannot deadlock.
        unique: dict[str, tuple[Row, str]] = {}
        for item in batch:
            sha = item[0][0]["sha256"]
            if sha in unique:
                self.summary.duplicate("exact", item[1])
            else:
                unique[sha] = item
        kept = self._near(list(unique.values()))  # in the order read: the first copy is the one stored
        ordered = sorted(kept, key=lambda item: item[0][0]["sha256"])
        now = dt.datetime.now(dt.UTC)
        new_before = self.summary.new
        try:
            stored = retrying(lambda: write_rows(self.engine, [row for row, _ in ordered], now))
            self.summary.new += sum(row[0]["sha256"] in stored for row, _ in ordered)
        except KeyboardInterrupt:
            # A Ctrl-C that reaches Python after the commit, before its answer is counted: the archive says how
            # many rows this batch stored (its timestamp is theirs alone), so the interrupted message is exact.
            self.summary.new = new_before + stored_at(self.engine, now)
            raise
        for (game, _), where in ordered:
            if game["sha256"] not in stored:
                self.summary.duplicate("exact", where)
        if large:  # the driver's copies of large rows are freed now: given back, not kept for the next batch
            del batch, unique, kept, ordered
            give_back()

    def _near(self, items: list[tuple[Row, str]]) -> list[tuple[Row, str]]:
        """Note the near-duplicates among `items` (in the order read): one game with a stored record or with one
        before it in this batch (the earlier batches are stored); without them when they are to be kept out. A
        record whose bytes are stored is left for the write to count as an exact duplicate."""
        lines = [(item, Line.of(item[0][0], item[1])) for item in items]
        heads = [line.head_hash for _, line in lines if line.head_hash is not None]
        if not heads:
            return items
        with self.engine.connect() as conn:
            stored = stored_lines(conn, heads)
        stored_bytes = {line.sha256 for line in stored}
        by_head: dict[int, list[Line]] = {}
        for line in stored:
            by_head.setdefault(line.head_hash or 0, []).append(line)
        kept = []
        for item, line in lines:
            if line.head_hash is None or line.sha256 in stored_bytes:
                kept.append(item)
                continue
            match = first_match(line, by_head.get(line.head_hash, []))
            if match is not None:
                kind, other = match
                self.summary.near_duplicates.append(NearDuplicate(line.where, kind, other.where, len(line.tokens),
                                                                  len(other.tokens), not self.skip_near))
                if self.skip_near:
                    self.summary.duplicate(kind, line.where)
                    continue
            by_head.setdefault(line.head_hash, []).append(line)  # the later records of the batch meet it
            kept.append(item)
        return kept

    def _analyse(self) -> None:
        """Refresh the planner's statistics when the archive has none or grew by a twentieth, so that searches pick
        their indexes well (a full ANALYZE: about 3 s for a million records on SQLite; sampled statistics, with an
        analysis limit, misjudged the indexes badly)."""
        if not self.summary.new:
            return
        try:
            with writer(self.engine).begin() as conn:
                if conn.dialect.name == "sqlite":
                    total = conn.execute(text("SELECT max(id) FROM game")).scalar() or 0
                    has_stats = conn.execute(text(
                        "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")).scalar() and conn.execute(
                        text("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'game'")).scalar()
                    if not has_stats or self.summary.new * 20 >= total:
                        conn.exec_driver_sql("ANALYZE game")
                elif conn.dialect.name == "postgresql":
                    conn.execute(text("ANALYZE game"))
                    conn.execute(text("ANALYZE problem"))
        except Exception:  # statistics are an optimisation; the records are already committed
            pass


def row_bytes(game: dict[str, Any]) -> int:
    """About how many bytes a pending record holds in memory: its stored bytes and text columns, and its index
    rows (a position row, as Python objects, about 100 bytes)."""
    size = sum(len(v) for v in game.values() if isinstance(v, str | bytes)) + 2048
    positions = game.get(POSITIONS)
    if positions is not None:
        size += 100 * len(positions.keys)
    patterns = game.get(PATTERNS)
    if patterns is not None:
        size += sum(len(part) for part in patterns[1:])
    return size


def stored_at(engine: Engine, now: dt.datetime) -> int:
    """How many records the archive holds that were imported at `now` (by one batch: 0 when it was rolled back);
    0 when the archive cannot answer."""
    game_table: Table = GameRow.__table__  # type: ignore[attr-defined]  # as in write_rows
    try:
        with engine.connect() as conn:
            return int(conn.execute(select(func.count()).where(game_table.c.imported_at == now)).scalar() or 0)
    except DBAPIError:
        return 0


def write_rows(engine: Engine, rows: Sequence[Row], now: dt.datetime) -> set[str]:
    """Store `rows` in one transaction, imported at `now`; return the hashes that were new (the others were
    already there)."""
    games = [{**game_columns(game), "imported_at": now} for game, _ in rows]
    # SQLModel sets `__table__` on table models but does not declare it to type checkers.
    game_table: Table = GameRow.__table__  # type: ignore[attr-defined]
    with writer(engine).begin() as conn:
        dialect = conn.dialect.name
        if dialect in ("sqlite", "postgresql"):
            upsert: sqlite.Insert | postgresql.Insert
            if dialect == "sqlite":
                from sqlalchemy.dialects.sqlite import insert as sqlite_insert
                upsert = sqlite_insert(game_table)
            else:
                from sqlalchemy.dialects.postgresql import insert as postgresql_insert
                upsert = postgresql_insert(game_table)
            stmt = (upsert.on_conflict_do_nothing(index_elements=["sha256"])
                    .returning(game_table.c.id, game_table.c.sha256))
            ids = {sha: gid for gid, sha in conn.execute(stmt, games)} if games else {}
        else:  # other databases: look first; the unique index still refuses a concurrent copy
            have = set(conn.scalars(select(game_table.c.sha256).where(
                game_table.c.sha256.in_([g["sha256"] for g in games]))))
            fresh = [g for g in games if g["sha256"] not in have]
            ids = {}
            for g in fresh:
                ids[g["sha256"]] = conn.execute(insert(game_table).returning(game_table.c.id), g).scalar_one()
        problems = [{**p, "game_id": ids[game["sha256"]]} for game, ps in rows if game["sha256"] in ids for p in ps]
        if problems:
            conn.execute(insert(ProblemRow.__table__), problems)  # type: ignore[attr-defined]  # as above
        write_index(conn, [(ids[game["sha256"]], game) for game, _ in rows if game["sha256"] in ids])
        if ids:  # a batch of records stored already changes nothing
            mark_changed(conn)

    return set(ids)


def _size_of_item(item: tuple[str, Settings]) -> int:
    return file_size(item[0])
