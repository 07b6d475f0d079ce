"""The replay driver: plays a line of a record through its game's engine and yields every step.

The driver owns what all five games share: numbering the moves, resignation (not a turn, and the last move), moves
that the reader could not type, setup nodes after the first move (ING-8), the TB/TW marks a node carries, and which
player made each move after any swap. Everything else is the engine's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ...records.games import Game, MoveKind
from ...records.model import Colour, Move, Node, Record, Setup
from ...records.notation import Notation
from ...records.setup_stones import SETUP_IDENTS, collect_setup, point_list
from ..rules.engine import Change, Engine, EngineWarning, IllegalMove, Marks, Outcome
from ..rules.registry import engine_for

_PLAYS = frozenset({MoveKind.PLACE, MoveKind.PASS, MoveKind.SWAP, MoveKind.RELOCATE, MoveKind.REMOVE,
                    MoveKind.SWEEP})
_RULE_IN_REASON = re.compile(r"\(([A-Z]+-\d+)\)")


@dataclass(slots=True)
class Step:
    """One move of the replay: its number, the move, the node it came from, who played it, and what it changed.

    `board` is the position after the move (rows of Colour | None, row 0 at the top), and `to_move` /
    `player_to_move` who moves next, when the replay was asked for snapshots (the views' replay); `illegal` is set
    on the last step when the move was refused (the position is then the one before it, and the replay stops
    there).
    """

    number: int  # 1-based move number (passes, swaps and a resignation count)
    move: Move
    node: Node
    colour: Colour
    player: str | None  # the player who made the move (after any swap); with snapshots only (the views)
    change: Change
    board: list[list[Colour | None]] | None = None
    to_move: Colour | None = None  # colour to move after this step
    player_to_move: str | None = None
    illegal: IllegalMove | None = None


def ends_positions(step: Step) -> bool:
    """Whether the game's positions end before this step: a move the verifier refused, or a resignation. The
    position index and the pattern change lists hold nothing from here on."""
    return step.illegal is not None or step.move.kind is MoveKind.RESIGN


@dataclass(frozen=True, slots=True)
class RunLog:
    """What an engine's compiled run of plain plays did (Engine.play_logged), for the watchers that follow the
    replay without a Step for each of those moves: the number of the last move before the run, whether Black made
    the run's first play (the plays alternate), the point index of every play and what each took off (int32 in
    native order; verifier/rules/_go.c describes them)."""

    before: int
    black_first: bool
    placed: bytes
    taken: bytes

    @property
    def played(self) -> int:
        return len(self.placed) // 4


@dataclass(frozen=True, slots=True)
class Taken:
    """How many stones Black and White have captured (Go's prisoners)."""

    black: int = 0
    white: int = 0


# Something that follows a replay: called with the Replay before its first step (it may then ask for snapshots,
# `run.snapshots = True`), it returns the function that sees every step.
Watch = Callable[["Replay"], Callable[[Step], None]]


@dataclass(slots=True)
class Trace:
    """What one replay went through, kept for the views: the start, every step with its snapshot, and after each
    step how the game stood ended (the engine's outcome, ING-5's provisional stop included) or None.

    A Watch: `verify(record, watch=trace)` fills it from the verifier's own replay. `taken` counts, after each
    step, the stones each colour has captured so far (Go, ING-3): a string removed by suicide counts for the
    opponent, as a capture of the mover's stones.
    """

    start: list[list[Colour | None]] = field(default_factory=list)
    start_to_move: Colour | None = None
    steps: list[Step] = field(default_factory=list)
    ends: list[Outcome | None] = field(default_factory=list)
    taken: list[Taken] = field(default_factory=list)

    def __call__(self, run: Replay) -> Callable[[Step], None]:
        run.snapshots = True
        engine = run.engine
        self.start, self.start_to_move = engine.rows(), engine.to_move
        steps, ends, taken = self.steps, self.ends, self.taken

        def step(s: Step) -> None:
            before = taken[-1] if taken else Taken()
            if s.change.captured and s.illegal is None:
                # The colour of a captured stone is read from the position before the move.
                rows = steps[-1].board if steps and steps[-1].board is not None else self.start
                lost_black = sum(1 for c, r in s.change.captured if rows[r][c] is Colour.BLACK)
                before = Taken(before.black + len(s.change.captured) - lost_black, before.white + lost_black)
            steps.append(s)
            ends.append(None if s.illegal is not None else engine.end)
            taken.append(before)

        return step


class Replay:
    """A replay in progress: iterate it for the Steps; afterwards it tells how the line ended."""

    def __init__(self, record: Record, *, line: list[Node] | None = None, snapshots: bool = False,
                 notation: Notation = Notation.CUSTOMARY, quiet: bool = False) -> None:
        self.record = record
        self.nodes = record.main_line() if line is None else line
        self.snapshots = snapshots
        # Only the steps that say something beyond the move: a warning of the engine, or a refusal (the verdict's
        # own replay, which needs nothing else; a Step for each of a game's hundreds of moves is most of its cost).
        self.quiet = quiet
        self.engine = new_engine(record, notation=notation)
        self.resigned: Colour | None = None  # the colour that resigned, when the line ends by resignation
        self.resign_step: int | None = None
        self.illegal: IllegalMove | None = None
        self.steps_played = 0
        self.last_node: Node | None = None  # the node of the last move played
        # Set by the watchers that can follow a compiled run from its log (the import's: archive/store/record_rows.py):
        # the replay then hands them the runs of plain plays the engine can log instead of a Step for each move.
        self.on_run: Callable[[RunLog], None] | None = None

    # Players: player 0 started with Black (PB), player 1 with White (PW).
    def player_name(self, player: int) -> str | None:
        return self.record.black if player == 0 else self.record.white

    def holder(self, colour: Colour) -> str | None:
        """The player who holds `colour` now (after any swap)."""
        engine = self.engine
        player = 0 if engine.colour_of_player(0) is colour else 1
        return self.player_name(player)

    def __iter__(self) -> Iterator[Step]:
        engine = self.engine
        game = self.record.game
        size = self.record.size
        names = (self.record.black, self.record.white)
        # Boards and who moves next are for the views; verification alone needs neither.
        snapshots = self.snapshots
        quiet = self.quiet and not snapshots
        warnings = engine.warnings
        warned = 0  # the engine's warnings the steps yielded have seen (those of its setup come with the first)
        play = engine.play
        number = 0
        seen_move = False
        nodes = self.nodes
        # The quiet replay hands runs of plain plays to an engine that plays them compiled (each engine has a
        # compiled path: go_ing.py, conversion_go.py, cation.py, quentin.py, squer.py).
        runs = engine.play_run if quiet and engine.compiled_runs else None
        logged = self.on_run if not snapshots and engine.logs_runs else None
        at, count = 0, len(nodes)
        while at < count:
            # (a warning waiting for the next step, a PL that ING-8 ignores, goes out with that step: in Python)
            if (runs is not None or logged is not None) and self.resigned is None and len(warnings) == warned:
                if logged is not None:
                    black_first = engine.to_move is Colour.BLACK
                    at, played, last, placed, taken = engine.play_logged(nodes, at)
                    if played:
                        logged(RunLog(number, black_first, placed, taken))
                elif runs is not None:
                    at, played, last = runs(nodes, at)
                if played:
                    number += played
                    seen_move = True
                    self.steps_played = number
                    self.last_node = nodes[last]
                if at >= count:
                    break
            node = nodes[at]
            at += 1
            move = node.move
            bare = node.bare_move
            if not bare:
                misplaced = _misplaced_setup(node, game, seen_move, engine)
                if misplaced is not None:
                    colour = move.colour if move is not None else (engine.to_move or Colour.BLACK)
                    bad = Move(colour, MoveKind.INVALID, raw="setup", problem=misplaced[1], rule=misplaced[0],
                               pos=node.pos)
                    illegal = IllegalMove("setup-after-move", misplaced[0], misplaced[1])
                    yield self._refuse(number + 1, bad, node, illegal)
                    return
            if move is None:
                continue
            seen_move = True
            number += 1
            kind = move.kind
            mover = None  # who made the move: the views' business
            if snapshots:
                mover = self.holder(move.colour) if kind is MoveKind.RESIGN else names[engine.player_to_move]
            try:
                if kind in _PLAYS and self.resigned is None:
                    # The common case goes straight to the engine; _apply handles resignation and bad values.
                    change = play(move, None if bare else node_marks(node, size))
                else:
                    change = self._apply(move, node)
            except IllegalMove as illegal:
                # Its traceback would hold the replay's frames, and through them the tree, in a cycle that only
                # the collector frees (Record.let_go frees trees by reference counting): the refusal is data.
                illegal.__traceback__ = None
                yield self._refuse(number, move, node, illegal)
                return
            self.steps_played = number
            self.last_node = node
            if snapshots:
                over = self.resigned is not None
                yield Step(number, move, node, move.colour, mover, change, engine.rows(),
                           None if over else engine.to_move,
                           None if over or engine.end else names[engine.player_to_move])
            elif not quiet or len(warnings) != warned:
                warned = len(warnings)
                yield Step(number, move, node, move.colour, None, change)

    def _mover(self, move: Move) -> str | None:
        if move.kind is MoveKind.RESIGN:
            return self.holder(move.colour)
        return self.player_name(self.engine.player_to_move)

    def _apply(self, move: Move, node: Node) -> Change:
        engine = self.engine
        if self.resigned is not None:
            raise IllegalMove("after-end", "GEN-9", "move after the end of the game", move.point)
        if move.kind is MoveKind.INVALID:
            raise IllegalMove("bad-move-value", move.rule or "FMT-12", move.problem or "not a move",
                              move.point)
        if move.kind is MoveKind.RESIGN:
            if engine.end is not None and not engine.stopped:
                match = _RULE_IN_REASON.search(engine.end.reason)
                raise IllegalMove("after-end", match.group(1) if match else "GEN-9",
                                  "move after the end of the game")
            # GEN-9: a resignation is not a turn; either colour may resign.
            self.resigned = move.colour
            return Change()
        return engine.play(move, None if node.bare_move else node_marks(node, self.record.size))

    def _refuse(self, number: int, move: Move, node: Node, illegal: IllegalMove) -> Step:
        self.illegal = illegal
        return Step(
            number=number,
            move=move,
            node=node,
            colour=move.colour,
            player=self._mover(move) if move.kind is not MoveKind.INVALID else None,
            change=Change(),
            board=self.engine.rows() if self.snapshots else None,
            to_move=self.engine.to_move,
            player_to_move=self.player_name(self.engine.player_to_move),
            illegal=illegal,
        )


def usual_start(record: Record) -> bool:
    """Whether the record's engine starts at its game's usual position (no setup stones; only Go has setup, and
    a setup not collected yet counts as one), which the watchers may then read once per game and size."""
    return record.game is not Game.GO or (record.setup is not None and record.setup.empty)


def replay(record: Record, *, line: list[Node] | None = None, snapshots: bool = False,
           notation: Notation = Notation.CUSTOMARY) -> Iterator[Step]:
    """Yield every step of the main line (or `line`), stopping after the first illegal move.

    `notation` is how the engine's messages name points (GEN-10): the game's customary notation by default.
    """
    return iter(Replay(record, line=line, snapshots=snapshots, notation=notation))


def new_engine(record: Record, *, notation: Notation = Notation.CUSTOMARY) -> Engine:
    """An engine for the record's game, size, komi and setup, before the first move; its messages name points in
    `notation` (GEN-10)."""
    cls = engine_for(record.game)
    setup: Setup | None = None
    if record.game is Game.GO:
        setup = record.setup if record.setup is not None else collect_setup(record)[0]
    return cls(record.size, komi=record.komi or 0.0, setup=setup, notation=notation)


def _misplaced_setup(node: Node, game: Game, seen_move: bool, engine: Engine) -> tuple[str, str] | None:
    """(rule, reason) when the node holds setup where it may not stand (ING-8; setup only for Go).

    A `PL` that ING-8 ignores (no colour, or the colour that moves next anyway) is not setup: it goes to the
    engine's warnings, which the verdict reports at the next move."""
    props = node.properties
    idents = [i for i in SETUP_IDENTS if i in props]
    if not idents:
        return None
    if game is not Game.GO:
        return "FMT-10", f"setup ({'/'.join(idents)}) is only for Go records"
    if node.move is None and not seen_move:
        return None  # setup before the first move: the starting position (ING-8)
    if "PL" in idents:
        ignored = _ignored_pl(props["PL"].value, node, engine)
        if ignored is not None:
            engine.warnings.append(EngineWarning("pl-ignored", "ING-8", ignored))
            idents.remove("PL")
            if not idents:
                return None
    names = "/".join(idents)
    if node.move is not None:
        return "ING-8", f"setup ({names}) in the same node as a move"
    return "ING-8", f"setup ({names}) after the first move"


def _ignored_pl(value: str, node: Node, engine: Engine) -> str | None:
    """ING-8: why a PL after the first move (or beside a move) counts as no setup at all, or None if it does."""
    named = value.strip().upper()
    if named not in ("B", "W"):
        return f"PL[{value}] names no colour (B or W); ignored (ING-8)"
    # In a move node the colour that moves next is the opponent of the mover; elsewhere the colour whose turn it is.
    next_colour = node.move.colour.other if node.move is not None else engine.to_move
    if next_colour is not None and Colour(named) is next_colour:
        return f"PL[{value}] names the colour that moves next anyway; ignored (ING-8)"
    return None


def node_marks(node: Node, size: int) -> Marks | None:
    """The TB/TW marks of a node, or None when it has none (points off the board are ignored)."""
    props = node.properties
    if "TB" not in props and "TW" not in props:
        return None
    return Marks(frozenset(point_list(node.get_all("TB"), size)), frozenset(point_list(node.get_all("TW"), size)))

