"""A game and one of its positions in words, the lines every view shows (the terminal replay, the SVG captions,
the HTML replay page): the header, the move and what it changed, who moves next, the stones taken, the swap, the
comment and the verdict. The lines are record text, not escaped: each output makes them safe (safe_text.py). A
player's name in a line about a move or the end is shortened past NAME_SHOWN characters (the header has it whole):
a record with names of many kilobytes does not repeat them on every move.

Points are named in one notation per screen (GEN-10): `Analysis.points` names them for every line.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..records.games import SPECS, Game, MoveKind
from ..records.model import Colour, Move, Record
from ..records.notation import PointNames
from ..records.points import Point, parse_point
from ..verifier.judging.analysis import Analysis
from ..verifier.judging.replay import Step
from .ending import ending
from .shorten import brief


def _points_text(points: Iterable[Point], names: PointNames) -> str:
    return " ".join(names(p) for p in sorted(points, key=lambda p: (p[1], p[0])))


def describe_move(move: Move, names: PointNames) -> str:
    """A move in words: `Black Q16`, `White passes`, `Black d3→f1`, `White sweeps column c`, ... (in `names`)."""
    who = move.colour.word
    k = move.kind
    if k is MoveKind.PLACE and move.point is not None:
        return f"{who} {names(move.point)}"
    if k is MoveKind.PASS:
        return f"{who} passes"
    if k is MoveKind.SWAP:
        return f"{who} swaps sides"
    if k is MoveKind.RELOCATE and move.point is not None and move.target is not None:
        return f"{who} {names(move.point)}→{names(move.target)}"
    if k is MoveKind.REMOVE and move.point is not None:
        return f"{who} removes {names(move.point)}"
    if k is MoveKind.SWEEP and move.line is not None:
        # SQU-11: Black sweeps a row, White a column, named as in a point.
        return f"{who} sweeps {names.line('row' if move.colour is Colour.BLACK else 'column', move.line)}"
    if k is MoveKind.RESIGN:
        return f"{who} resigns"
    return f"{who} [{move.raw}]"


def change_lines(step: Step | None, names: PointNames) -> list[str]:
    """What a step changed, one line per kind, e.g. `captured 2: C4 C3`; the refusal for an illegal step."""
    if step is None:
        return []
    if step.illegal is not None:
        ill = step.illegal
        return [f"illegal: {ill.message} ({ill.rule})"]
    ch = step.change
    out: list[str] = []
    if ch.swapped:
        out.append("the players swapped sides")
    for word, points in (("captured", ch.captured), ("removed", ch.removed), ("converted", ch.converted),
                         ("flipped", ch.flipped), ("filled", ch.filled)):
        if points:
            out.append(f"{word} {len(points)}: {_points_text(points, names)}")
    for a, b in ch.relocated:
        out.append(f"moved {names(a)}→{names(b)}")
    if ch.swept is not None:
        out.append(f"swept {names.line(*ch.swept)}")
    if ch.crosscuts:
        cuts = ", ".join(_points_text(cut, names) for cut in ch.crosscuts)
        out.append(f"crosscuts {len(ch.crosscuts)}: {cuts}")
    return out


def _name(name: str | None) -> str:
    return name if name else "?"


def header_lines(record: Record) -> list[str]:
    """The game, the players as they started, event, round, date and place (record text, not escaped)."""
    out = [f"{SPECS[record.game].title}, {record.size}x{record.size}"]
    black = _name(record.black) + (f" {record.black_rank}" if record.black_rank else "")
    white = _name(record.white) + (f" {record.white_rank}" if record.white_rank else "")
    # Go's terms go with the player they favour: the handicap stones are Black's, the komi White's (HA, KM).
    if record.handicap:
        black += f", handicap {record.handicap}"
    if record.komi is not None:
        white += f", komi {record.komi:g}"
    out.append(f"Black: {black}")
    out.append(f"White: {white}")
    if record.rules:
        out.append(f"Rules: {record.rules}")
    event = ", ".join(x for x in (record.event, f"round {record.round}" if record.round else None) if x)
    if event:
        out.append(f"Event: {event}")
    if record.date is not None and record.date.raw:
        out.append(f"Date: {record.date.raw}")
    if record.place:
        out.append(f"Place: {record.place}")
    return out


def taken_line(data: Analysis, index: int) -> str | None:
    """`Stones taken: Black 3, White 5` after move `index`: the stones each has captured (Go only)."""
    if data.record.game is not Game.GO:
        return None
    taken = data.taken_at(index)
    return f"Stones taken: Black {taken.black}, White {taken.white}"


def who(colour: Colour | None, player: str | None) -> str:
    """`Black (Ann)`; a long name shortened (render/shorten.py: brief), as on every line about a move."""
    named = f" ({brief(player)})" if player else ""
    return ("either colour" if colour is None else colour.word) + named


def move_line(data: Analysis, index: int) -> str:
    """`Move 5 of 40: Black D3 (Alice)`; `Start` for position 0."""
    step = data.step_at(index)
    if step is None:
        return f"Start (moves: {data.moves})"
    prefix = "Illegal move" if step.illegal is not None else "Move"
    return f"{prefix} {step.number} of {data.moves}: {describe_move(step.move, data.points)}" + (
        f" ({brief(step.player)})" if step.player else "")


def to_move_line(data: Analysis, index: int) -> str:
    step = data.step_at(index)
    if step is None:
        colour = data.start_to_move
        # Before any move nobody has swapped: the player holding a colour is the one the record names for it;
        # while either colour may move (Conversion Go's opening, CON-5) it is the first player (PB).
        player = data.record.player(colour) if colour is not None else data.record.black
        return f"To move: {who(colour, player)}"
    if step.illegal is not None:
        return f"To move: {who(step.colour, step.player)}; the recorded move is refused"
    if step.move.kind is MoveKind.RESIGN:
        return f"Game over: {who(step.colour, step.player)} resigned"
    end = data.end_at(index)
    if end is not None:
        winner = f"{who(end.winner, _holder(data, index, end.winner))} wins, " if end.winner is not None else ""
        if index < data.last:
            # ING-5: a stop that the record goes on from is not the end; the next move resumes play.
            return f"Play stopped: {winner}{end.reason or end.text()}; the record goes on"
        return f"Game over: {winner}{end.reason or end.text()}"
    return f"To move: {who(step.to_move, step.player_to_move)}"


def _holder(data: Analysis, index: int, colour: Colour) -> str | None:
    """The player holding `colour` after move `index` (player 0 started with Black; a swap exchanges them)."""
    swap = data.swap_step
    swapped = swap is not None and swap.number <= index
    return data.record.player(colour.other if swapped else colour)


def swap_line(data: Analysis, index: int) -> str | None:
    """The swap, once it has happened: who swapped and the colour they play from then on."""
    step = data.swap_step
    if step is None or step.number > index:
        return None
    # The swapper wrote the swap with the colour they held; from then on they play the other colour (README: pie).
    return f"Swap at move {step.number}: {brief(_name(step.player))} now plays {step.colour.other.word}"


def clock_text(seconds: str) -> str | None:
    """A BL / WL value (seconds left, FF[4]) as a clock shows it: `1:02:05`, `9:58`, `0:07.5`; None for a value
    that is no number of seconds."""
    try:
        left = float(seconds)
    except ValueError:
        return None
    if not 0 <= left < 10**9:
        return None
    whole = int(left)
    minutes, secs = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    fraction = f"{left - whole:.1f}"[1:] if left != whole else ""
    return (f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}") + fraction


def clock_lines(data: Analysis) -> list[str] | None:
    """For each position (0: the start), `Time left: Black 9:58 (3 periods), White 12:03`: the last BL / WL (and
    OB / OW, the periods or stones left) the record gave for each colour up to that move; None when the record
    gives no time at all."""
    nodes = [data.record.root, *(s.node if (s := data.step_at(i)) is not None else None
                                 for i in range(1, data.last + 1))]
    left: dict[str, str] = {}
    out: list[str] = []
    seen = False
    for node in nodes:
        if node is not None:
            for colour in ("B", "W"):
                shown = clock_text(node.get(f"{colour}L") or "")
                if shown is not None:
                    periods = (node.get(f"O{colour}") or "").strip()
                    left[colour] = shown + (f" ({periods} left in the period)" if periods.isdigit() else "")
                    seen = True
        out.append("Time left: " + ", ".join(f"{Colour(c).word} {left[c]}" for c in ("B", "W") if c in left)
                   if left else "")
    return out if seen else None


def comment_of(data: Analysis, index: int) -> str | None:
    step = data.step_at(index)
    node = data.record.root if step is None else step.node
    return node.comment


def verdict_lines(data: Analysis) -> list[str]:
    """The verdict in a few lines: status, first error, results, winner (record text, not escaped)."""
    v = data.verdict
    out = [f"Verdict: {v.verdict.value} ({v.verdict.meaning})"]
    first = v.first_error
    if first is not None:
        point = point_of(first.point)
        named = data.points(point) if point is not None else first.point
        where = " ".join(x for x in (f"move {first.move}" if first.move else None, named) if x)
        rule = f" ({first.rule})" if first.rule else ""
        out.append(f"First error: {where + ': ' if where else ''}{first.message}{rule}")
    declared = v.declared.raw if v.declared is not None and v.declared.declared else "none"
    out.append(f"Result: declared {declared}, computed {v.computed}: {v.status.value}")
    out.append(f"End: {ending(v)}")
    if v.result_note:
        out.append(v.result_note)
    return out


def point_of(value: Point | str | None) -> Point | None:
    """A point given as a tuple or as SGF letters (`Problem.point`)."""
    if value is None or isinstance(value, tuple):
        return value
    return parse_point(value)
