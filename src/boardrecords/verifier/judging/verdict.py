"""The verdict on one record: valid or not, every problem precisely, the winner, and the result check."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...records.games import SPECS
from ...records.model import Colour, Node, Problem, Record, Result, Severity, SourcePos
from ...records.notation import Notation
from ...records.points import format_point
from ...records.properties import read_result
from ..rules.engine import Score
from .replay import Replay, Step, Watch
from .results import Explanation, Judgement, judge_result
from .status import ResultStatus, VerdictClass, classify, drawn

# Errors of reading that still leave moves to replay: the record fails, but what was read is shown (FMT-3, FMT-4).
_REPLAYABLE = frozenset({"truncated", "two-moves"})
_NODE_PROBLEMS = frozenset({"two-moves"})  # reading errors whose position is their node's `;`
_WARNED = {ResultStatus.UNCONFIRMED: "result-unconfirmed", ResultStatus.UNRECOGNISED: "result-unrecognised"}


@dataclass(slots=True)
class Verdict:
    """Everything `records verify` says about one record."""

    game: str | None  # None when GM names none of the five games (FMT-6)
    size: int | None
    valid: bool  # every move legal and the end-of-game marks consistent
    problems: list[Problem] = field(default_factory=list)
    moves_replayed: int = 0  # legal moves replayed on the main line
    moves_total: int = 0  # moves on the main line
    end: str | None = None  # how the game ended, e.g. "chain (CAT-8)", "unfinished"; None when invalid
    winner_colour: Colour | None = None
    winner_player: str | None = None
    swapped: bool = False
    black_player: str | None = None  # who holds Black at the end (after any swap)
    white_player: str | None = None
    declared: Result | None = None
    computed: str = "?"  # the result the replay shows, in record vocabulary
    score: Score | None = None
    status: ResultStatus = ResultStatus.UNDECLARED  # GEN-8
    result_checked: bool = True  # False when a rule exempts the result (ING-9)
    result_note: str | None = None  # why the result could not be checked, or how it was judged
    # A disagreeing Go score that another ruleset's counting gives on the same final position (ING-9).
    result_explained: Explanation | None = None
    replayed: bool = True  # False when header errors kept the record from being replayed at all
    require_complete: bool = False  # an unconfirmed result fails (tournaments that require complete records)

    @property
    def agrees(self) -> bool | None:
        """True, False, or None when no result is declared or it is unconfirmed."""
        return self.status.agrees

    @property
    def drawn(self) -> bool:
        """GEN-8: the verdict stands on a tie (nobody won)."""
        method = self.declared.method.value if self.declared is not None else "unknown"
        return drawn(self.status, method, self.computed, self.result_checked)

    @property
    def verdict(self) -> VerdictClass:
        return classify(self.valid, self.status, require_complete=self.require_complete)

    @property
    def passes(self) -> bool:
        """GEN-8: every move legal, the marks consistent, and the declared result not contradicted."""
        return self.verdict.passes

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]

    def to_json(self) -> dict[str, Any]:
        """The verdict as plain JSON data (the `records verify --json` object, without file and index)."""
        declared = self.declared
        return {
            "game": self.game,
            "size": self.size,
            "verdict": self.verdict.value,
            "valid": self.valid,
            "passes": self.passes,
            "winner": {
                "colour": self.winner_colour.value if self.winner_colour else None,
                "player": self.winner_player,
            },
            "result": {
                "declared": declared.raw if declared is not None and declared.raw else None,
                "computed": self.computed,
                "status": self.status.value,
                "agrees": self.agrees,
                "checked": self.result_checked,
                "note": self.result_note,
                "explained": None if self.result_explained is None else self.result_explained.to_json(),
            },
            "score": None if self.score is None else {
                "black": self.score.black, "white": self.score.white, "komi": self.score.komi,
                "margin": self.score.margin,
            },
            "end": self.end,
            "replayed": self.replayed,
            "swapped": self.swapped,
            "players": {"black": self.black_player, "white": self.white_player},
            "moves": {"replayed": self.moves_replayed, "total": self.moves_total},
            "problems": [p.to_json() for p in self.problems],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        """The verdict back from its JSON form (`to_json`): the same object, problems included."""
        result, score, moves, players = data["result"], data.get("score"), data["moves"], data["players"]
        winner = data["winner"]
        return cls(
            game=data["game"], size=data["size"], valid=data["valid"],
            problems=[Problem.from_json(p) for p in data["problems"]],
            moves_replayed=moves["replayed"], moves_total=moves["total"], end=data["end"],
            winner_colour=Colour(winner["colour"]) if winner["colour"] else None, winner_player=winner["player"],
            swapped=data["swapped"], black_player=players["black"], white_player=players["white"],
            declared=read_result(result["declared"])[0], computed=result["computed"],
            score=Score(score["black"], score["white"], score["komi"]) if score else None,
            status=ResultStatus(result["status"]), result_checked=result["checked"], result_note=result["note"],
            result_explained=Explanation.from_json(result["explained"]) if result.get("explained") else None,
            replayed=data.get("replayed", True), require_complete=data["verdict"] == VerdictClass.UNCONFIRMED,
        )

    @property
    def first_error(self) -> Problem | None:
        """The first illegal move (the replay stops there), else the first error of any kind."""
        errors = self.errors
        for p in errors:
            if p.move is not None:
                return p
        return errors[0] if errors else None


def verify(record: Record, *, variations: bool = False, notation: Notation = Notation.CUSTOMARY,
           require_complete: bool = False, watch: Watch | None = None) -> Verdict:
    """Replay the record's main line (every line with `variations`) and judge it.

    Messages name points in `notation` (GEN-10: the game's customary notation by default, or SGF letters); the
    problems' `point` field always holds SGF letters. `require_complete`: an unconfirmed result (GEN-8) fails, for
    tournaments that require complete records. `watch(replay)`, when given, returns a function that sees every step
    of this same replay of the main line (the views' trace, the position index): nothing replays a record twice.
    """
    verdict = Verdict(game=None if record.unknown_game is not None else record.game.value, size=record.size,
                      valid=True, declared=record.result, black_player=record.black, white_player=record.white,
                      require_complete=require_complete)
    verdict.problems.extend(record.diagnostics)
    spec = SPECS[record.game]
    # The reader reports a missing or unreadable size; this catches a record built in code with a bad one.
    if not spec.min_size <= record.size <= spec.max_size and not any(
            p.rule == spec.size_rule for p in verdict.problems):
        verdict.problems.append(Problem(
            "bad-size", f"a {record.size}x{record.size} board is outside {spec.min_size}..{spec.max_size} "
            f"({spec.size_rule})", Severity.ERROR, spec.size_rule, pos=_pos(record, "SZ")))
    if any(p.severity is Severity.ERROR and p.code not in _REPLAYABLE for p in verdict.problems):
        # Header errors: the record cannot be replayed as the game it claims to be.
        verdict.valid = False
        verdict.replayed = False
        verdict.moves_total = len(record.moves())
        _apply_judgement(verdict, Judgement.not_replayed(record), None)
        return verdict

    run = Replay(record, notation=notation, quiet=watch is None)
    verdict.moves_total = sum(1 for n in run.nodes if n.move is not None)
    engine = run.engine
    seen_warnings = 0
    warnings = engine.warnings
    on_step = watch(run) if watch is not None else None
    for step in run:
        if on_step is not None:
            on_step(step)
        if len(warnings) != seen_warnings:
            for w in warnings[seen_warnings:]:
                verdict.problems.append(Problem(w.code, w.message, Severity.WARNING, w.rule, step.number,
                                                pos=step.move.pos or step.node.pos))
            seen_warnings = len(warnings)
        if step.illegal is not None:
            ill = step.illegal
            point = ill.point if ill.point is not None else step.move.point
            verdict.problems.append(Problem(
                ill.code, ill.message, Severity.ERROR, ill.rule, step.number,
                format_point(point) if point is not None else None, _move_pos(step)))
    verdict.moves_replayed = run.steps_played
    _number_node_problems(verdict.problems, run.nodes)
    verdict.swapped = engine.swapped
    verdict.black_player = run.holder(Colour.BLACK)
    verdict.white_player = run.holder(Colour.WHITE)

    if variations:
        _check_variations(record, verdict, notation)

    verdict.valid = not verdict.errors
    judgement = judge_result(record, run) if run.illegal is None else Judgement.stopped(record, run)
    _apply_judgement(verdict, judgement, run)
    if judgement.status in _WARNED:
        # GEN-8: an unconfirmed or unrecognised result is a warning that says why (the note).
        verdict.problems.append(Problem(_WARNED[judgement.status], judgement.note or "the result cannot be judged",
                                        Severity.WARNING, "GEN-8", pos=_pos(record, "RE")))
    return verdict


def _number_node_problems(problems: list[Problem], line: list[Node]) -> None:
    """FMT-5: a reading error pinned to a node of the main line (two moves in one node) names that node's move."""
    pinned = {id(p): p for p in problems if p.move is None and p.code in _NODE_PROBLEMS and p.pos is not None}
    if not pinned:
        return
    by_offset = {p.pos.offset: p for p in pinned.values() if p.pos is not None}
    number = 0
    for node in line:
        if node.move is not None:
            number += 1
        pos = node.pos
        if node.move is not None and pos is not None and pos.offset in by_offset:
            found = by_offset.pop(pos.offset)
            problems[problems.index(found)] = replace(found, move=number)


def _apply_judgement(verdict: Verdict, judgement: Judgement, run: Replay | None) -> None:
    verdict.end = judgement.end
    verdict.computed = judgement.computed
    verdict.score = judgement.score
    verdict.winner_colour = judgement.winner
    holder = run.holder if run is not None else (lambda c: verdict.black_player if c is Colour.BLACK
                                                 else verdict.white_player)
    verdict.winner_player = holder(judgement.winner) if judgement.winner is not None else None
    # An invalid record's declared result is never confirmed by the moves before the illegal one.
    status = judgement.status
    if not verdict.valid and status not in (ResultStatus.UNDECLARED, ResultStatus.UNRECOGNISED):
        status = ResultStatus.DISAGREES
    verdict.status = status
    verdict.result_checked = judgement.checked
    verdict.result_note = judgement.note
    verdict.result_explained = judgement.explained


def _check_variations(record: Record, verdict: Verdict, notation: Notation) -> None:
    """Replay every other line of the tree; an illegal move anywhere is an error of the record."""
    main = record.main_line()
    reported: set[int] = set()
    for index, line in enumerate(record.lines()):
        if index == 0 or line == main:
            continue
        run = Replay(record, line=line, notation=notation, quiet=True)
        for step in run:
            if step.illegal is None or id(step.node) in reported:
                continue
            reported.add(id(step.node))
            ill = step.illegal
            point = ill.point if ill.point is not None else step.move.point
            verdict.problems.append(Problem(
                ill.code, f"in variation {index}: {ill.message}", Severity.ERROR, ill.rule, step.number,
                format_point(point) if point is not None else None, step.move.pos or step.node.pos))


def _move_pos(step: Step) -> SourcePos | None:
    """Where the move's property stands (`W[aa]`), else its node's `;`."""
    if step.move.pos is not None:
        return step.move.pos
    prop = step.node.properties.get(step.move.colour.value)
    return prop.pos if prop is not None else step.node.pos


def _pos(record: Record, ident: str) -> SourcePos | None:
    prop = record.root.properties.get(ident)
    return prop.pos if prop is not None else record.root.pos

