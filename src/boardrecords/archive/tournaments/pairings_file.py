"""Official results of any game from a small table of pairings (CSV, or TSV: a tab in the header line), for the
clubs whose events no pairing program saves (a Cation, Quentin or Squer club's): one line a board,

    round,black,white,result
    1,Ann Archer,Bo Brandt,B
    1,Cy Cole,,bye

with `board` and `handicap` columns allowed too. A result is the winner's colour (`B`, `W`), `=` a draw, `0` both
lose, `B!` / `W!` a win given without playing (a forfeit), `?` or nothing not entered yet, and `bye` on a line
without White: the player of the Black column sat the round out. Players are the names the lines give (as records
give them). The tournament is read into the same `OfficialTournament` as an OpenGotha file, with the game in its
settings and every player's starting score 0, so that the check against the records, the crosstable's official
results and OpenGotha's notation work alike; the h9 stays Go's.

Hostile data as the XML is: a size cap, every value checked, a clear message with the line for a bad one.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from .opengotha import FILE_CAP, MAX_ROUNDS, OfficialPairing, OfficialPlayer, OfficialTournament, TournamentFileError

MAX_LINES = 20_000
NAME_MAX = 200
_RESULTS = {"B": ("B", False), "W": ("W", False), "=": ("=", False), "0": ("0", False), "B!": ("B", True),
            "W!": ("W", True), "?": ("?", False), "": ("?", False)}
COLUMNS = ("round", "black", "white", "result")


def parse_pairings(data: bytes, game: str, name: str, where: str = "the file") -> OfficialTournament:
    """The tournament `name` of `game` that a pairings table holds (TournamentFileError for one that cannot be
    read)."""
    if len(data) > FILE_CAP:
        raise TournamentFileError(f"{where} is larger than {FILE_CAP // (1024 * 1024)} MB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TournamentFileError(f"{where} is not UTF-8 text: not a table of pairings") from None
    if "\x00" in text:
        raise TournamentFileError(f"{where} holds NUL characters: not a table of pairings")
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text), delimiter="\t" if "\t" in first else ",")
    try:
        lines = list(_limited(reader, where))
    except csv.Error as exc:
        raise TournamentFileError(f"{where} is not CSV ({exc})") from None
    if not lines:
        raise TournamentFileError(f"{where} is empty")
    header = [h.strip().lower() for h in lines[0]]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise TournamentFileError(f"{where}: the first line names the columns; {', '.join(missing)} "
                                  f"{'is' if len(missing) == 1 else 'are'} missing (round,black,white,result)")
    at = {c: header.index(c) for c in (*COLUMNS, "board", "handicap") if c in header}
    players: dict[str, OfficialPlayer] = {}
    pairings: list[OfficialPairing] = []
    busy: set[tuple[int, str]] = set()

    def player(text: str, line: int, ro: int) -> str:
        clean = " ".join("".join(ch for ch in text if ch >= " ").split())
        if not clean:
            raise TournamentFileError(f"{where}, line {line}: a player's name is empty")
        if len(clean) > NAME_MAX:
            raise TournamentFileError(f"{where}, line {line}: a name longer than {NAME_MAX} characters")
        key = clean.upper()
        if (ro, key) in busy:
            raise TournamentFileError(f"{where}, line {line}: {clean} is paired twice in round {ro}")
        busy.add((ro, key))
        players.setdefault(key, OfficialPlayer(key=key, name=clean, first_name="", rank="", rank_value=0))
        return key

    for n, row in enumerate(lines[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in at.items()}
        ro = _whole(cell["round"], "round", n, where, 1, MAX_ROUNDS)
        result = cell["result"].upper()
        if result == "BYE":
            if cell["white"]:
                raise TournamentFileError(f"{where}, line {n}: a bye names one player (in the black column)")
            pairings.append(OfficialPairing(round=ro, board=None, white=player(cell["black"], n, ro), black="",
                                            result="", bye=True))
            continue
        if result not in _RESULTS:
            raise TournamentFileError(f"{where}, line {n}: the result {cell['result']!r} is none of B, W, =, 0, "
                                      "B!, W!, ?, bye")
        code, forfeit = _RESULTS[result]
        black, white = player(cell["black"], n, ro), player(cell["white"], n, ro)
        if black == white:
            raise TournamentFileError(f"{where}, line {n}: a player is paired with themselves")
        board = _whole(cell["board"], "board", n, where, 1, 10**6) if cell.get("board") else None
        handicap = _whole(cell["handicap"], "handicap", n, where, 0, 99) if cell.get("handicap") else 0
        pairings.append(OfficialPairing(round=ro, board=board, white=white, black=black, handicap=handicap,
                                        result=code, forfeit=forfeit))
    if not pairings:
        raise TournamentFileError(f"{where} holds no pairing")
    pairings.sort(key=lambda p: (p.round, p.bye, p.board if p.board is not None else 10**6, p.white))
    settings = {"game": game, "mm_bar": 0, "mm_floor": 0, "mm_zero": 0, "mms2_absent": 0, "mms2_bye": 2,
                "nbw2_absent": 0, "nbw2_bye": 2, "round_down": False, "not_played_half": False,
                "criteria": ["MMS", "SOSM", "SOSOSM"], "director": ""}
    return OfficialTournament(name=name, short_name=name, rounds=max(p.round for p in pairings), settings=settings,
                              players=sorted(players.values(), key=lambda p: p.name.casefold()), pairings=pairings)


def _limited(reader: Iterable[list[str]], where: str) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in reader:
        rows.append(row)
        if len(rows) > MAX_LINES:
            raise TournamentFileError(f"{where} has more than {MAX_LINES} lines: no tournament has")
    return rows


def _whole(text: str, what: str, line: int, where: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise TournamentFileError(f"{where}, line {line}: the {what} {text!r} is not a whole number") from None
    if not low <= value <= high:
        raise TournamentFileError(f"{where}, line {line}: the {what} {value} is not {low} to {high}")
    return value
