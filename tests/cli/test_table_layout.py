"""The one table layout (cli/views/layout.py): every listing fits the width from 40 columns up, measured as the
terminal shows it (a CJK character takes two cells); columns are left out by their stated priority (id and the
players stay); free text is shortened with an ellipsis after a whole word; nothing is cut or wrapped otherwise.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from boardrecords.cli.tables import GAME_COLUMNS
from boardrecords.cli.views.layout import (
    ELLIPSIS,
    Column,
    fit,
    fitted_rows,
    fitted_table,
    shorten,
    shorten_path,
    write_fitted,
)
from tests.shared import EXAMPLES, import_games, run

WIDTHS = (40, 60, 80, 100)
CJK = "天下无狗二零一八"  # 16 cells wide
SENTENCE = "White won after Black lost on time in a game the club will long remember"


def _game(black: str, white: str, result: str, event: str, moves: str) -> str:
    return (f"(;GM[1]FF[4]SZ[19]KM[7.5]PB[{black}]PW[{white}]EV[{event}]DT[2024-05-01]RE[{result}]"
            f"{moves})\n")


GAMES = {
    "cjk.sgf": _game(CJK, "Alice Martin", "W+R", "Autumn club tournament", ";B[pd];W[dp];B[pp];W[dd]"),
    "sentence.sgf": _game("Bob Stone", CJK, SENTENCE, "Autumn club tournament", ";B[pd];W[dd];B[pq];W[dp]"),
    "plain.sgf": _game("Alice Martin", "Bob Stone", "B+R", "Spring open", ";B[pd];W[dp]"),
}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("layout")
    db = str(tmp / "layout.db")
    import_games(tmp, db, GAMES)
    return db


def _lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def _fits(output: str, width: int) -> None:
    for line in _lines(output):
        assert cell_len(line) <= width, (width, line)


def _cells_are_whole_or_shortened(output: str, whole: list[str]) -> None:
    """Each of `whole` (a value of the table) appears whole, or as its own words up to one ending in `…`."""
    for value in whole:
        if value in output:
            continue
        words = value.split()
        prefixes = [" ".join(words[:n]) + ELLIPSIS for n in range(1, len(words))]
        cut_word = [value[:n] + ELLIPSIS for n in range(1, len(value))] if len(words) == 1 else []
        assert any(p in output for p in prefixes + cut_word), (value, output)


# -- the layout itself --------------------------------------------------------------------------------------

def test_shorten_keeps_whole_words_and_measures_cjk() -> None:
    assert shorten(Text("Black lost on time"), 12).plain == "Black lost…"
    assert shorten(Text("Black lost on time"), 40).plain == "Black lost on time"
    short = shorten(Text(CJK), 9)
    assert short.plain == "天下无狗…" and short.cell_len == 9
    assert shorten_path(Text("cation/invalid/cation-broken.rec"), 27).plain == "…/invalid/cation-broken.rec"
    assert shorten_path(Text("cation/invalid/cation-broken.rec"), 20).plain == "…/cation-broken.rec"


@pytest.mark.parametrize("width", WIDTHS)
def test_fitted_table_keeps_id_and_players_at_every_width(width: int) -> None:
    columns = [Column("id", justify="right"), Column("black", shorten=True, least=12, want=24),
               Column("white", shorten=True, least=12, want=24), Column("result", drop=3, shorten=True, least=6),
               Column("verdict", drop=2), Column("date", drop=5), Column("event", drop=7, shorten=True)]
    rows = [["1", CJK, "Alice Martin", SENTENCE, "pass", "2024-05-01", "Autumn club tournament"],
            ["22", "Bob Stone", CJK, "W+R", "wrong-result", "2024-05-02", ""]]
    table, left_out = fitted_table(columns, rows, width)
    console = Console(width=width, no_color=True, record=True)
    with console.capture() as capture:
        console.print(table)
    output = capture.get()
    _fits(output, width)
    header = _lines(output)[0].split()
    assert header[:3] == ["id", "black", "white"]
    assert set(header) | set(left_out) == {c.header for c in columns}
    free = [SENTENCE] * ("result" in header) + ["Autumn club tournament"] * ("event" in header)
    _cells_are_whole_or_shortened(output, [CJK, "Alice Martin", "Bob Stone", *free])
    # the dates and verdicts are whole or not there at all
    for value in ("2024-05-01", "wrong-result"):
        assert value in output or value.split("-")[0] + "…" not in output
    if width >= 80:
        assert CJK in output and "Alice Martin" in output and "2024-05-01" in output


def test_empty_columns_take_no_room() -> None:
    table, left_out = fitted_table([Column("id"), Column("event", drop=1, shorten=True)], [["1", ""]], 80)
    assert [c.header for c in table.columns] == ["id"] and left_out == []


def test_the_games_table_states_its_priority() -> None:
    kept = [c.header for c, _ in GAME_COLUMNS if c.drop is None]
    assert kept == ["id", "black", "white"]
    order = sorted((c for c, _ in GAME_COLUMNS if c.drop is not None), key=lambda c: -(c.drop or 0))
    assert [c.header for c in order] == ["winner", "moves", "event", "status", "date", "game", "result", "verdict"]


# -- every listing, at every width ----------------------------------------------------------------------------

LISTINGS = [
    ("search",), ("search", "--opening", "Q16 D4"), ("events",), ("players",), ("stats",), ("ratings",),
    ("explore", "Q16"), ("crosstable", "Autumn club tournament"),
    ("search", "--pattern", "X", "--size", "19"),
]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", LISTINGS, ids=" ".join)
def test_every_listing_fits(command: tuple[str, ...], width: int, archive: str,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = run(*command, "--db", archive)
    assert result.exit_code == 0, result.output
    _fits(result.stdout, width)
    if command[0] in ("search", "players", "ratings", "crosstable"):
        _cells_are_whole_or_shortened(result.stdout, [CJK, "Alice Martin", "Bob Stone"])


@pytest.mark.parametrize("width", WIDTHS)
def test_search_keeps_the_id_and_the_players(width: int, archive: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = run("search", "--db", archive)
    header = _lines(result.stdout)[0].split()
    assert header[0] == "id" and {"black", "white"} <= set(header)
    assert CJK in result.stdout  # 16 cells: whole at every width
    if width >= 60:
        assert "verdict" in header


@pytest.mark.parametrize("width", WIDTHS)
def test_verify_summary_fits_and_keeps_file_names(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    result = run("verify", "-j", "1", EXAMPLES)
    assert result.exit_code == 1
    _fits(result.stdout, width)
    names = sorted(p.name for p in Path(EXAMPLES).rglob("*.rec"))
    table = result.stdout.split("\n\n")[0]
    for name in names:
        assert name in table, (name, width)


# -- tokens, brackets and look-alikes -------------------------------------------------------------------------

TOKENS = {
    "margin.sgf": _game("Lars Holm", "Maya Okafor", "B+101.5", "Autumn club tournament 2023", ";B[pd];W[dp]"),
    "other.sgf": _game("Maya Okafor", "Lars Holm", "W+R", "Autumn club tournament 2024", ";B[pd];W[dd]"),
    "swap.sgf": "(;GM[Quentin]SZ[5]PB[Lars Holm]PW[Maya Okafor]EV[Autumn club tournament 2023]RE[W+R]"
                ";B[cc];W[swap-sides];W[aa];B[ee])\n",
}


@pytest.fixture(scope="module")
def tokens_archive(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("tokens")
    db = str(tmp / "tokens.db")
    import_games(tmp, db, TOKENS)
    return db


@pytest.mark.parametrize("width", range(40, 101, 4))
def test_search_cuts_no_token_and_keeps_look_alikes_apart(width: int, tokens_archive: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A result is shown whole or not at all (`B+101…` never); a swap's bracket is whole or left out (`Lars Holm
    (swap; was…` never); two events that differ in their last word never show as one shortened name."""
    monkeypatch.setenv("COLUMNS", str(width))
    output = run("search", "--db", tokens_archive).stdout
    _fits(output, width)
    assert "B+101…" not in output and "B+10…" not in output and "B+1…" not in output
    for line in _lines(output):
        assert line.count("(") == line.count(")"), line  # no bracket cut open
    header = _lines(output)[0].split()
    if "result" in header:
        assert "B+101.5" in output
    events = run("events", "--db", tokens_archive).stdout
    _fits(events, width)
    names = [line.split("  ")[0].strip() for line in _lines(events)[2:]]
    assert len(names) == len(set(names)) == 2, events  # the 2023 and the 2024 event, told apart


def test_distinct_shortenings_keep_the_words_that_tell_values_apart() -> None:
    from boardrecords.render.shorten import distinct, shorten_text

    events = ["Autumn club tournament 2023", "Autumn club tournament 2024", "Spring open"]
    short = distinct(events, 20)
    assert short == {"Autumn club tournament 2023": "Autumn club… 2023", "Autumn club tournament 2024":
                     "Autumn club… 2024", "Spring open": "Spring open"}
    assert shorten_text("Lars Holm (swap; was Maya Okafor)", 25) == "Lars Holm (swap…)"
    assert shorten_text("Lars Holm (swap; was Maya Okafor)", 12) == "Lars Holm…"
    assert shorten_text("B+R (time)", 8) == "B+R…"
# -- the plain lines of a long listing (`records verify` of thousands of records) -------------------------------

_LINE_COLUMNS = [Column("record", shorten=True, path=True, least=12), Column("game", drop=3),
                 Column("moves", justify="right", drop=4), Column("verdict"), Column("problem", drop=1, shorten=True)]
_WORDS = st.sampled_from(["pass", "invalid", "wrong-result"])
_ROW = st.tuples(st.text(st.sampled_from("ab/c.d 天x"), min_size=1, max_size=40), st.sampled_from(["Go", "Cation", ""]),
                 st.integers(0, 999), _WORDS, st.text(st.sampled_from("move 12 ING-4 "), max_size=24))


def _as_rows(rows: list[tuple[str, str, int, str, str]]) -> list[list[Text]]:
    return [[Text(name), Text(game), Text(str(moves)), Text(word, style="bold red"), Text(problem)]
            for name, game, moves, word, problem in rows]


def _both(rows: list[list[Text]], width: int, colour: bool) -> tuple[str, str]:
    """The rows as rich draws the fitted table, and as write_fitted writes them, on one kind of console."""
    def console() -> Console:
        return Console(width=width, force_terminal=colour, color_system="standard" if colour else None,
                       file=io.StringIO(), highlight=False)

    layout = fit(_LINE_COLUMNS, rows, width)
    drawn = console()
    drawn.print(fitted_rows(_LINE_COLUMNS, layout, rows))
    written = console()
    write_fitted(written, _LINE_COLUMNS, layout, rows)
    return drawn.file.getvalue(), written.file.getvalue()  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(st.lists(_ROW, min_size=1, max_size=12), st.sampled_from(WIDTHS))
def test_plain_lines_are_the_fitted_table(rows: list[tuple[str, str, int, str, str]], width: int) -> None:
    drawn, written = _both(_as_rows(rows), width, colour=False)
    assert [line.rstrip() for line in drawn.splitlines()] == written.splitlines()
    _fits(written, width)


def test_plain_lines_keep_the_styles_of_their_cells() -> None:
    rows = _as_rows([("a/b.sgf", "Go", 12, "invalid", "move 3 ING-3"), ("a/c.sgf", "Go", 7, "pass", "")])
    drawn, written = _both(rows, 80, colour=True)
    styled = "\x1b[1;31minvalid\x1b[0m"
    assert styled in drawn and styled in written and written.count("\x1b[1m") == 5  # the headers in bold
    plain = re.compile(r"\x1b\[[0-9;]*m")
    assert [plain.sub("", line).rstrip() for line in drawn.splitlines()] == \
        [plain.sub("", line).rstrip() for line in written.splitlines()]


def test_a_long_verify_summary_keeps_one_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # More rows than rich lays out comfortably in one table: every row in the same columns as the first.
    for n in range(1200):
        (tmp_path / f"g{n:04}.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc]" + ";W[dd]" * (n == 1100) + ")")
    monkeypatch.setenv("COLUMNS", "80")
    result = run("verify", "-j", "1", tmp_path)
    lines = result.stdout.splitlines()
    rows = [line for line in lines if line.startswith("g") and ".sgf " in line]
    assert len(rows) == 1200
    assert len({line.index(" Go ") for line in rows}) == 1
    assert len({len(line) for line in rows if "pass" in line}) == 1
    assert "1200 records: 1199 pass, 1 invalid" in result.stdout
