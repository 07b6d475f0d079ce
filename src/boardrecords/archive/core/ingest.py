"""Turning a Record and its Verdict into archive rows (plain dicts, so that worker processes can send them back).

Names are stored as written and, beside them, normalised for search. Text that cannot be stored as it is (lone
surrogates from undecodable bytes, NUL characters PostgreSQL refuses) is stored with U+FFFD in its place; the
record's original bytes stay untouched in `raw`.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from ...records.games import MoveKind
from ...records.model import Colour, Move, Record, Setup
from ...records.setup_stones import collect_setup
from .line_keys import keyed_line
from .models import OPENING_CHARS
from .names import clean, normalise_name

if TYPE_CHECKING:
    from ...verifier.judging.verdict import Verdict

# Where a comment may stand: a property identifier whose capitals spell C (`C`, `Comment`), then `[`. A record without
# one holds no comment, and its nodes need not be looked at (finding a false one only costs the walk).
_MAY_COMMENT = re.compile(rb"(?<![A-Za-z])[a-z]*C[a-z]*\s*\[")
# Properties whose text `--text` searches besides the comments (C): the names of the game, players, event, place.
_NAME_PROPS = ("GN", "PB", "PW", "EV", "PC", "GC")


def record_hash(record: Record) -> str:
    """sha256 of the record's raw bytes: the archive's identity of a record."""
    return hashlib.sha256(record.raw).hexdigest()


_PLACE = MoveKind.PLACE
_SWAP = MoveKind.SWAP


_BLACK = Colour.BLACK


# The moves are written this many at a time: a record of 240,000 moves would otherwise hold a string per move
# (about 15 MB) at once beside its tree.
_MOVES_AT_ONCE = 4096


def moves_text(record: Record, moves: list[Move] | None = None) -> str:
    """The main line in canonical values, `B[pd];W[dp];B[]` (what `--opening` searches)."""
    line = record.moves() if moves is None else moves
    return ";".join(_moves_text(line[i:i + _MOVES_AT_ONCE]) for i in range(0, len(line), _MOVES_AT_ONCE))


def _moves_text(moves: list[Move]) -> str:
    parts: list[str] = []
    append = parts.append
    for m in moves:
        raw = m.raw
        # A placed stone's canonical value is the point as read (parse_point and format_point are inverse): this
        # skips Move.sgf_value's slower dispatch for the moves that make up nearly every record.
        if m.kind is _PLACE and len(raw) == 2:
            append(("B[" if m.colour is _BLACK else "W[") + raw + "]")
        else:
            append(str(m))
    return ";".join(parts)


def search_text(record: Record) -> str:
    """Comments of every node and the names in the root, casefolded, one per line (what `--text` searches)."""
    parts: list[str] = []
    root = record.root
    for ident in _NAME_PROPS:
        parts.extend(root.get_all(ident))
    stack = [root] if _MAY_COMMENT.search(record.raw) else []
    while stack:  # iterative: a record may nest variations very deep
        node = stack.pop()
        if not getattr(node, "bare_move", False):  # a node read with nothing but its move holds no comment
            parts.extend(node.get_all("C"))
        stack.extend(reversed(node.children))
    return "\n".join(clean(p) or "" for p in parts if p).casefold()


def _swapper_colour(moves: list[Move]) -> str | None:
    """The colour the swapping player holds after the pie swap: the other colour than the swap move's label
    (rules README, "The pie swap": `W[swap-sides]` means White's player takes Black)."""
    for move in moves:
        if move.kind is _SWAP:
            return move.colour.other.value
    return None


def game_values(record: Record, verdict: Verdict, *, source_file: str | None = None,
                source_index: int | None = None) -> dict[str, Any]:
    """The column values of the record's `game` row (without `id`)."""
    return game_values_and_line(record, verdict, source_file=source_file, source_index=source_index)[0]


def game_values_and_line(record: Record, verdict: Verdict, *, source_file: str | None = None,
                         source_index: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """`game_values`, and the main line in its canonical symmetry that its keys were taken from
    (archive/core/line_keys.py; empty for a line of no move)."""
    main_line = record.moves()
    # A move value with an undecodable byte (`W[d\xffp]`) must not cost the batch: derived text is made storable.
    moves = clean(moves_text(record, main_line)) or ""
    result = record.result
    declared = result.declared
    date = record.date
    size = verdict.size if verdict.size is not None else record.size
    line_hash, head_hash, line = keyed_line(moves, record.game.value, size, starting_setup(record))
    winner_player = clean(verdict.winner_player)
    black_final = clean(verdict.black_player)  # who held each colour at the end (GEN-6, GEN-7)
    white_final = clean(verdict.white_player)
    values = {
        "sha256": record_hash(record),
        "raw": record.raw,
        "encoding": record.encoding,
        "game": record.game.value,
        "size": size,
        "black": clean(record.black),
        "white": clean(record.white),
        "black_final": black_final,
        "white_final": white_final,
        "black_norm": normalise_name(record.black),
        "white_norm": normalise_name(record.white),
        "black_final_norm": normalise_name(black_final),
        "white_final_norm": normalise_name(white_final),
        "black_rank": clean(record.black_rank),
        "white_rank": clean(record.white_rank),
        "event": clean(record.event),
        "event_norm": normalise_name(record.event),
        "round": clean(record.round),
        "date_raw": clean(date.raw) if date is not None else None,
        "date_first": date.first if date is not None else None,
        "date_last": date.last if date is not None else None,
        "date_days": (date.last - date.first).days if date is not None and date.first and date.last else None,
        "place": clean(record.place),
        "name": clean(record.name),
        "komi": record.komi,
        "handicap": record.handicap,
        "rules": clean(record.rules),
        "result": clean(result.raw) if result.raw or declared else None,
        "result_canonical": clean(result.canonical()) if declared else None,
        "result_method": result.method.value,
        "result_winner": result.winner.value if result.winner is not None else None,
        "computed_result": verdict.computed,
        "agrees": verdict.agrees,
        "result_status": verdict.status.value,
        "result_checked": verdict.result_checked,
        "score_black": verdict.score.black if verdict.score is not None else None,
        "score_white": verdict.score.white if verdict.score is not None else None,
        "result_note": clean(verdict.result_note),
        "winner_colour": verdict.winner_colour.value if verdict.winner_colour is not None else None,
        "winner_player": winner_player,
        "winner_norm": normalise_name(winner_player),
        "swapped": verdict.swapped,
        "swapper_colour": _swapper_colour(main_line) if verdict.swapped else None,
        "move_count": len(main_line),
        "moves_replayed": verdict.moves_replayed,
        "replayed": verdict.replayed,
        "valid": verdict.valid,
        "passes": verdict.passes,
        "verdict": verdict.verdict.value,
        "end": clean(verdict.end),
        "problem_count": len(verdict.problems),
        "source_file": clean(source_file if source_file is not None else record.source),
        "source_index": record.index if source_index is None else source_index,
        "source_line": record.start[0],
        "source_column": record.start[1],
        "moves": moves,
        "opening": moves[:OPENING_CHARS],
        "line_hash": line_hash,  # the keys that find the same game stored twice (archive/core/line_keys.py)
        "head_hash": head_hash,
        "search_text": clean(search_text(record)),
    }
    return values, line


def starting_setup(record: Record) -> Setup:
    """The record's setup stones and first player (ING-8), as the replay starts from them."""
    return record.setup if record.setup is not None else collect_setup(record)[0]


def problem_values(verdict: Verdict) -> list[dict[str, Any]]:
    """The column values of the record's `problem` rows (without `id` and `game_id`): each problem's JSON form."""
    rows = [p.to_json() for p in verdict.problems]
    for row in rows:
        row.pop("repair", None)  # a repair's values are in its message; the table keeps the problem's columns
        row["point"] = clean(row["point"])
        row["message"] = clean(row["message"]) or ""
    return rows
