"""`records search` (and `records export` with filters): filters to a SELECT with bound parameters only.

Every value a user gives becomes a bound parameter of the statement; no user text is ever put into SQL text.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from typing import Any, cast
from weakref import WeakKeyDictionary

from sqlalchemy import (
    Column,
    ColumnClause,
    ColumnElement,
    SQLColumnExpression,
    and_,
    func,
    literal_column,
    or_,
    table,
    text,
)
from sqlalchemy.orm import QueryableAttribute, defer
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from ...records.model import ResultMethod, format_margin
from ...verifier.judging.status import ResultStatus, VerdictClass
from .db import NAME_TABLE, NAME_TEXT, TEXT_TABLE
from .filters import (
    DEFAULT_LIMIT,
    SORT_NAMES,
    FilterError,
    Filters,
    canonical_opening,
    date_bound,
    game_value,
    problem_value,
    vocabulary_word,
)
from .models import OPENING_CHARS, GameRow, ProblemRow
from .names import normalise_name, spellings

SORT_KEYS: dict[str, SQLColumnExpression[Any]] = {
    "id": col(GameRow.id),
    "date": col(GameRow.date_first),
    "moves": col(GameRow.move_count),
    "event": col(GameRow.event_norm),
    "round": col(GameRow.round),
    "game": col(GameRow.game),
    "size": col(GameRow.size),
    "black": col(GameRow.black_norm),
    "white": col(GameRow.white_norm),
    "winner": col(GameRow.winner_norm),
    "result": col(GameRow.result_canonical),
    "verdict": col(GameRow.verdict),
    "problems": col(GameRow.problem_count),
}
assert tuple(SORT_KEYS) == SORT_NAMES
__all__ = ["DEFAULT_LIMIT", "FilterError", "Filters", "count", "search", "search_statement"]


# -- parsing the user's values ------------------------------------------------------------------------------

_METHODS = {
    "resign": ResultMethod.RESIGN, "resignation": ResultMethod.RESIGN, "r": ResultMethod.RESIGN,
    "time": ResultMethod.TIME, "t": ResultMethod.TIME,
    "forfeit": ResultMethod.FORFEIT, "f": ResultMethod.FORFEIT,
    "score": ResultMethod.SCORE, "chain": ResultMethod.CHAIN,
    "draw": ResultMethod.DRAW, "void": ResultMethod.VOID, "unknown": ResultMethod.UNKNOWN,
    "other": ResultMethod.OTHER,
}
_RESULT = re.compile(r"^([BW])\+(.*)$", re.IGNORECASE)
_WORDS = {"r": "R", "resign": "R", "t": "T", "time": "T", "f": "F", "forfeit": "F"}


def result_condition(text: str) -> ColumnElement[bool]:
    """A `--result` filter on the declared result.

    `resign`, `time`, `score`, `chain`, `draw`, `void`... select a method; `B+R`/`B+Resign`, `W+T`, `B+3.5`, `0`
    select that exact result (in canonical form). `B+` and `W+` alone select every win of that colour: as a filter
    the most useful reading of the vocabulary's "won by the rules" spelling, whose exact form `chain` selects.
    """
    value = text.strip()
    method = _METHODS.get(value.lower())
    if method is not None:
        return col(GameRow.result_method) == method.value
    if value.lower() in ("0", "draw", "jigo"):
        return col(GameRow.result_method) == ResultMethod.DRAW.value
    m = _RESULT.match(value)
    if not m:
        return col(GameRow.result_canonical) == value  # anything else: the declared text exactly
    colour, rest = m[1].upper(), m[2].strip()
    if not rest:
        return col(GameRow.result_winner) == colour
    word = _WORDS.get(rest.lower())
    if word is not None:
        return col(GameRow.result_canonical) == f"{colour}+{word}"
    try:
        margin = float(rest)
    except ValueError:
        return col(GameRow.result_canonical) == value
    return col(GameRow.result_canonical) == f"{colour}+{format_margin(margin)}"


def _name_condition(columns: Sequence[SQLColumnExpression[Any]], name: str,
                    same: dict[str, list[str]] | None = None, index: str = "") -> ColumnElement[bool]:
    """A normalised name equal to one of `columns`; `*` in the name is a wildcard (`--player 'lee*'`).

    `same` gives, for a player's name, every stored spelling of the same player (names.spellings: case, spacing,
    punctuation and aliases); without it the name is compared as it is normalised. `index` (a dialect, when the
    archive has the player names' index): a wildcard is matched against the list of names through its trigram
    index, and the games are then read through the columns' own indexes.
    """
    norm = normalise_name(name)
    if norm is None:
        raise FilterError("a player or event name must not be empty")
    if "*" in norm:
        pattern = _like_escape(norm).replace("*", "%")
        if index:
            matching = _matching_names(norm, pattern, index)
            return or_(*(c.in_(matching) for c in columns))
        return or_(*(c.like(pattern, escape="\\") for c in columns))
    names = (same or {}).get(name) or [norm]
    if len(names) == 1:
        return or_(*(c == names[0] for c in columns))
    return or_(*(c.in_(names) for c in columns))


def _matching_names(norm: str, pattern: str, dialect: str) -> SelectOfScalar[Any]:
    """The stored names (player_name) that the wildcard `norm` (as the LIKE `pattern`) matches. SQLite: narrowed
    first by the FTS5 trigram table to the names holding each part of three characters or more (a phrase of
    trigrams matches exactly where the part occurs); PostgreSQL's trigram index serves LIKE itself."""
    names = table(NAME_TABLE, literal_column("id"), literal_column("name"))
    name: ColumnClause[str] = literal_column(f"{NAME_TABLE}.name")
    stmt: SelectOfScalar[Any] = select(name).select_from(names).where(name.like(pattern, escape="\\"))
    parts = [p for p in norm.split("*") if len(p) >= 3]
    if dialect == "sqlite" and parts:
        phrases = " AND ".join('"' + p.replace('"', '""') + '"' for p in parts)
        narrowed: SelectOfScalar[int] = select(literal_column("rowid")).select_from(table(NAME_TEXT)).where(
            text(f"{NAME_TEXT} MATCH :names").bindparams(names=phrases))
        stmt = stmt.where(literal_column(f"{NAME_TABLE}.id").in_(narrowed))
    return stmt


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _opening_range(head: str) -> ColumnElement[bool]:
    upper = head[:-1] + chr(ord(head[-1]) + 1)
    return and_(col(GameRow.opening) >= head, col(GameRow.opening) < upper)


def _prefix_condition(prefix: str, *, common: bool = False) -> ColumnElement[bool]:
    """The main line starts with `prefix`: a range on the indexed, byte-ordered `opening` column.

    For a `common` prefix the same test is written so that no index serves it: reading the rows in the sort order
    and keeping those that match finds the first 50 sooner than sorting every match found through the index.
    """
    head = prefix[:OPENING_CHARS]
    cond = func.substr(col(GameRow.opening), 1, len(head)) == head if common else _opening_range(head)
    if len(prefix) > OPENING_CHARS:
        cond = and_(cond, func.substr(col(GameRow.moves), 1, len(prefix)) == prefix)
    return cond


# -- the query ----------------------------------------------------------------------------------------------

def _text_condition(needle: str, dialect: str) -> ColumnElement[bool]:
    like = col(GameRow.search_text).like(f"%{_like_escape(needle)}%", escape="\\")
    if dialect != "sqlite" or len(needle) < 3:
        return like  # PostgreSQL's trigram index serves LIKE itself; FTS5 trigrams need three characters
    # A phrase of trigrams matches exactly where the needle occurs as a substring.
    phrase = '"' + needle.replace('"', '""') + '"'
    matching: SelectOfScalar[int] = select(literal_column("rowid")).select_from(table(TEXT_TABLE)).where(
        text(f"{TEXT_TABLE} MATCH :needle").bindparams(needle=phrase))
    return col(GameRow.id).in_(matching)


def conditions(f: Filters, *, dialect: str = "", max_span: int | None = None, common: frozenset[str] = frozenset(),
               rare: frozenset[str] = frozenset(), same: dict[str, list[str]] | None = None, names: str = ""
               ) -> list[ColumnElement[bool]]:
    """The WHERE conditions of `f`, all with bound parameters. `names`: the dialect, when the archive has the
    player names' index (`query_plan`): a player-name wildcard is answered through it.

    `dialect` picks the text index to use; `max_span` (the longest date range stored, in days) lets a date search
    run on the `date_first` index alone. `common` and `rare` name the range filters ("opening", "date", "moves")
    found to match many or few records (SQLite, see `query_plan`): a common one is written so that no index serves it.
    """
    g = GameRow

    def ix(column: Any, family: str) -> Any:
        return _unindexed(column) if family in common else col(column)

    out: list[ColumnElement[bool]] = []
    if f.ids:
        out.append(col(g.id).in_(list(f.ids)))
    if f.player:
        # Either colour, at the start or at the finish: the same two names, whichever holds which colour.
        out.append(_name_condition([col(g.black_norm), col(g.white_norm)], f.player, same, names))
    if f.black:
        # The player who held Black at the start (PB) or, after a swap, at the finish.
        out.append(_name_condition([col(g.black_norm), col(g.black_final_norm)], f.black, same, names))
    if f.white:
        out.append(_name_condition([col(g.white_norm), col(g.white_final_norm)], f.white, same, names))
    if f.winner:
        colour = {"b": "B", "black": "B", "w": "W", "white": "W"}.get(f.winner.strip().lower())
        if colour is not None:
            out.append(col(g.winner_colour) == colour)
        else:
            out.append(_name_condition([col(g.winner_norm)], f.winner, same, names))
    if f.game:
        out.append(col(g.game) == game_value(f.game))
    if f.size is not None:
        out.append(col(g.size) == f.size)
    if f.event:
        out.append(_name_condition([col(g.event_norm)], f.event))
    if f.round:
        out.append(col(g.round) == f.round.strip())
    # A record's dates are a range of days; it matches when that range meets the asked one.
    if f.date_from:
        first = date_bound(f.date_from, end=False)
        # When the dates are rare, the date_first index alone must serve: date_last is then kept off its index.
        last = _unindexed(g.date_last) if "date" in common or "date" in rare else col(g.date_last)
        if max_span != 0:  # with no range stored (every date one day), date_first alone decides
            out.append(last >= first)
        if max_span is not None:
            # Implied by the line above (date_first >= date_last - max_span), but it bounds the index range.
            out.append(ix(g.date_first, "date") >= first - dt.timedelta(days=max_span))
    if f.date_to:
        out.append(ix(g.date_first, "date") <= date_bound(f.date_to, end=True))
    if f.result:
        out.append(result_condition(f.result))
    if f.verdict is not None:
        word = vocabulary_word(f.verdict, VerdictClass, "--verdict")
        if word == VerdictClass.UNCONFIRMED:
            # Stored verdicts are the lenient ones: a record that passes with a result that strict reading fails.
            out.append(and_(col(g.verdict) == VerdictClass.PASS.value,
                            col(g.result_status).in_([ResultStatus.UNCONFIRMED.value,
                                                      ResultStatus.UNRECOGNISED.value])))
        else:
            out.append(col(g.verdict) == word)
    if f.status is not None:
        out.append(col(g.result_status) == vocabulary_word(f.status, ResultStatus, "--status"))
    if f.swapped is not None:
        out.append(col(g.swapped).is_(True) if f.swapped else col(g.swapped).is_(False))
    if f.moves_min is not None:
        out.append(ix(g.move_count, "moves") >= f.moves_min)
    if f.moves_max is not None:
        out.append(ix(g.move_count, "moves") <= f.moves_max)
    if f.text:
        needle = f.text.casefold().strip()
        if needle:
            out.append(_text_condition(needle, dialect))
    if f.problem:
        kind, value = problem_value(f.problem)
        column = col(ProblemRow.rule) if kind == "rule" else col(ProblemRow.code)  # each indexed
        out.append(col(g.id).in_(select(col(ProblemRow.game_id)).where(column == value)))
    if f.opening:
        out.append(_prefix_condition(canonical_opening(f.opening, f.game, f.size), common="opening" in common))
    return out


def _unindexed(column: Any) -> ColumnClause[Any]:
    """SQLite's `+column`: the same value, but no index serves a condition or an ORDER BY written on it."""
    # `col` is typed as giving a Mapped; it gives the model's attribute, which hands on its Column's table, name
    # and type.
    c = cast("Column[Any]", col(column))
    return literal_column(f"+{c.table.name}.{c.name}", type_=c.type)


def order_by(sort: str, *, unindexed: bool = False) -> list[ColumnElement[Any]]:
    """`date`, `-moves`, `event,-date`...: columns to sort on (`-` for descending); the id breaks ties."""
    keys: list[ColumnElement[Any]] = []
    names: list[str] = []
    last_desc = False
    for part in [p.strip() for p in sort.split(",") if p.strip()]:
        last_desc = part.startswith("-")
        name = part.lstrip("-+").lower()
        column = SORT_KEYS.get(name)
        if column is None:
            raise FilterError(f"cannot sort by {name!r} (one of: {', '.join(SORT_KEYS)})")
        column = _unindexed(column) if unindexed else column
        keys.append(column.desc() if last_desc else column.asc())
        names.append(name)
    if "id" not in names:
        ident = _unindexed(GameRow.id) if unindexed else col(GameRow.id)
        keys.append(ident.desc() if last_desc else ident.asc())
    return keys


# What a listing never shows: the original bytes, the moves and the text are loaded only when asked for.
# (`col` is typed as giving a Mapped; it gives the model's attributes, which `defer` takes.)
_HEAVY = cast("tuple[QueryableAttribute[Any], ...]", (col(GameRow.raw), col(GameRow.moves), col(GameRow.search_text)))


def search_statement(f: Filters, *, sort: str = "id", limit: int | None = DEFAULT_LIMIT, light: bool = False,
                     offset: int = 0, **plan: Any) -> SelectOfScalar[GameRow]:
    # With a rare range filter the sort is kept off the indexes, so that the planner reads the few matches through
    # the range's index and sorts them, instead of walking the whole table in sort order.
    if plan.get("rare"):
        # The ids first, from the range's index (and the row only where a condition needs it), then the rows.
        ids = select(col(GameRow.id)).where(*conditions(f, **plan)).order_by(*order_by(sort, unindexed=True))
        if limit is not None and limit > 0:
            ids = ids.limit(limit)
        if offset:
            ids = ids.offset(offset)
        offset = 0
        stmt = select(GameRow).where(col(GameRow.id).in_(ids.scalar_subquery())).order_by(*order_by(sort))
        limit = None
    else:
        stmt = select(GameRow).where(*conditions(f, **plan)).order_by(*order_by(sort))
    if light:
        stmt = stmt.options(*(defer(c) for c in _HEAVY))
    if limit is not None and limit > 0:
        stmt = stmt.limit(limit)
    if offset:
        stmt = stmt.offset(offset)
    return stmt


def search(session: Session, f: Filters, *, sort: str = "id", limit: int | None = DEFAULT_LIMIT,
           light: bool = False, offset: int = 0) -> list[GameRow]:
    """The matching records, sorted, at most `limit` (None or 0: all), leaving out the first `offset`.

    `light` leaves out the original bytes, the moves and the text (for listings; they load on access while the
    session is open).
    """
    stmt = search_statement(f, sort=sort, limit=limit, light=light, offset=offset, **query_plan(session, f, sort))
    return list(session.exec(stmt).all())


def count(session: Session, f: Filters) -> int:
    stmt = select(func.count()).select_from(GameRow).where(*conditions(f, **query_plan(session, f)))
    return session.exec(stmt).one()


def name_plan(session: Session, f: Filters) -> dict[str, Any]:
    """The stored spellings of the players the filters name (names.spellings), and for a wildcard whether the
    player names' index is there, as `conditions` takes them."""
    winner = f.winner if f.winner and f.winner.strip().lower() not in ("b", "w", "black", "white") else None
    asked = [n for n in (f.player, f.black, f.white, winner) if n]
    names = [n for n in asked if "*" not in n]
    plan: dict[str, Any] = {"same": spellings(session, names)} if names else {}
    if len(names) < len(asked) and has_name_index(session.get_bind()):
        plan["names"] = session.get_bind().dialect.name
    return plan


_NAME_INDEX: WeakKeyDictionary[Any, bool] = WeakKeyDictionary()


def has_name_index(bind: Any) -> bool:
    """Whether the archive has the player names' index (an archive made before it has none until a command that
    writes opens it), asked once per engine."""
    engine = getattr(bind, "engine", bind)
    known = _NAME_INDEX.get(engine)
    if known is None:
        from sqlalchemy import inspect

        found = inspect(engine).has_table(NAME_TABLE)
        if found and engine.dialect.name == "sqlite":
            found = inspect(engine).has_table(NAME_TEXT)
        known = _NAME_INDEX[engine] = found
    return known


# SQLite's planner knows nothing of how many records a range matches (an opening, dates, move counts), and for
# `ORDER BY id LIMIT 50` it walks the table in id order even for a range that holds ten records out of a million
# (seconds). So each range is first counted through its index, up to a bound: a range below the bound is "rare" and
# read through its index (the matches are then sorted); above it, "common", the table is read in order and the first
# 50 matches are taken, within about 50 * N / matches rows. The two costs meet near sqrt(50 * N) matches.
COMMON_BOUND: int | None = None  # a fixed bound instead (tests)


def query_plan(session: Session, f: Filters, sort: str = "id") -> dict[str, Any]:
    """What the conditions need to know about the database: its dialect, the longest date range stored, and
    (SQLite) which range filters match many records and which few."""
    dialect = session.get_bind().dialect.name
    plan: dict[str, Any] = {"dialect": dialect, **name_plan(session, f)}
    if f.date_from:
        span = session.exec(select(func.max(col(GameRow.date_days)))).one()  # read from the index's end
        plan["max_span"] = span or 0
    ranges: dict[str, ColumnElement[bool]] = {}
    if f.opening:
        ranges["opening"] = _opening_range(canonical_opening(f.opening, f.game, f.size)[:OPENING_CHARS])
    if f.date_from or f.date_to:
        first = date_bound(f.date_from, end=False) - dt.timedelta(days=plan["max_span"]) if f.date_from else None
        last = date_bound(f.date_to, end=True) if f.date_to else None
        ranges["date"] = and_(*([col(GameRow.date_first) >= first] if first else []),
                              *([col(GameRow.date_first) <= last] if last else []))
    if f.moves_min is not None or f.moves_max is not None:
        ranges["moves"] = and_(*([col(GameRow.move_count) >= f.moves_min] if f.moves_min is not None else []),
                               *([col(GameRow.move_count) <= f.moves_max] if f.moves_max is not None else []))
    if dialect != "sqlite" or not ranges:
        return plan
    bound = COMMON_BOUND
    if bound is None:
        rows = session.exec(select(func.max(col(GameRow.id)))).one() or 0
        bound = max(500, math.isqrt(50 * rows))
    counts = {}
    for family, cond in ranges.items():
        column = {"opening": GameRow.opening, "date": GameRow.date_first, "moves": GameRow.move_count}[family]
        probe = select(col(column)).where(cond).limit(bound).subquery()  # read from the index alone
        counts[family] = session.exec(select(func.count()).select_from(probe)).one()
    rare = {k for k, n in counts.items() if n < bound}
    if rare:  # one index serves: the rarest range's; the others are checked on the rows it finds
        best = min(rare, key=counts.__getitem__)
        plan["rare"] = frozenset({best})
        plan["common"] = frozenset(counts) - {best}
    else:
        # A common range on the column the results are sorted by stays on its index: read in order, it yields its
        # first 50 matches at once.
        first_key = sort.split(",")[0].strip().lstrip("-+").lower()
        plan["common"] = frozenset(counts) - {{"date": "date", "moves": "moves"}.get(first_key, "")}
    return plan
