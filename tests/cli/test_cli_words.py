"""Words a user reads: whole numbers in help and errors, plurals, the games' names."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from boardrecords.cli.views.words import plural
from boardrecords.records.games import game_title
from tests.shared import EXAMPLES, import_games, run

COMMANDS = ["verify", "import", "search", "show", "export", "stats", "explore", "delete", "fix", "ratings",
            "players", "replay", "diagram", "html"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_no_raw_integer_range(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "x<=" not in result.output and "9223372036854775807" not in result.output


@pytest.mark.parametrize(("args", "says"), [
    (("show", "abc"), "'abc' is not a whole number"),
    (("show", str(2**63)), f"{2**63} is too large"),
    (("show", "0"), "0 is too small"),
    (("export", str(2**64)), "is too large"),
    (("delete", "99999999999999999999"), "is too large"),
    (("fix", str(2**63), "--set", "RO=1"), "is too large"),
    (("search", "--limit", "abc"), "'abc' is not a whole number"),
    (("search", "--size", "-1"), "-1 is too small"),
    (("verify", "-j", "100", "examples"), "100 is too large: give at most 64"),
])
def test_a_bad_number_is_a_usage_error(args: tuple[str, ...], says: str, tmp_path: Path) -> None:
    result = run(*args, "--db", tmp_path / "none.db") if args[0] not in ("verify",) else run(*args)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.replace("│", " ").split()), result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_top_level_help_names_the_rules() -> None:
    result = run("--help")
    assert "Go (Simplified Ing Rules)" in " ".join(result.output.split())
    assert "Ing rules)" not in result.output


def test_plurals_and_titles() -> None:
    assert plural(1, "game") == "1 game" and plural(0, "game") == "0 games" and plural(2, "record") == "2 records"
    assert game_title("go-ing") == "Go (Simplified Ing Rules)" and game_title("cation") == "Cation"
    assert game_title("chess") == "chess"


# -- how a game ended: one sentence, the same in show, verify, replay and the web page -----------------------

ENDINGS = {
    # GEN-9: a resignation in the record.
    "resigned.sgf": ("(;GM[Quentin]SZ[5]PB[Bo]PW[AlphaGo]RE[W+R];B[cc];W[aa];B[resign])",
                     "White (AlphaGo) won by resignation"),
    # GEN-8 (a): the record stops before the end; what is known is what it declares.
    "stops.sgf": ("(;GM[1]SZ[19]PB[Bo]PW[AlphaGo]RE[W+R];B[pd];W[dp];B[pp])",
                  "White (AlphaGo) won by resignation as declared; the record stops at move 3 before the end"),
    "bare.sgf": ("(;GM[1]SZ[19]PB[Bo]PW[AlphaGo];B[pd];W[dp])", "The record stops at move 2 before the end"),
    # ING-5: two passes end a Go game; 9x9 empty but for one stone: Black 81 - komi 7.5.
    "scored.sgf": ("(;GM[1]SZ[9]KM[7.5]PB[Bo]PW[Al]RE[B+73.5];B[ee];W[tt];B[tt])",
                   "Black (Bo) won by 73.5 points; the game ended by two passes (ING-5)"),
    # CAT-8, QUE-6: a chain; B+ / W+ there is the chain.
    "chain.rec": ((EXAMPLES / "cation" / "small-board-chain.rec").read_text(),
                  "White (Chen Wei) won by a chain (CAT-8)"),
}


def _words(output: str) -> str:
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_one_sentence_for_how_a_game_ended(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the replay's lines beside the board, unfolded
    text, sentence = ENDINGS[name]
    path = tmp_path / name
    path.write_text(text)
    for args in (("verify", path), ("replay", path, "--move", "0")):
        result = run(*args)
        assert f"End {sentence}" in _words(result.output).replace("End:", "End"), (args, result.output)
        assert "Winner" not in result.output and "by unfinished" not in result.output


def test_show_and_the_web_page_say_it_alike(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from boardrecords.web.app import create_app

    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, {"stops.sgf": ENDINGS["stops.sgf"][0]})
    sentence = ENDINGS["stops.sgf"][1]
    assert f"End {sentence}" in _words(run("show", "1", "--db", db).output)
    page = TestClient(create_app(db), base_url="http://localhost").get("/games/1").text
    assert f"<p>End: {sentence}</p>" in page


def test_an_illegal_move_is_counted_against_the_record_s_moves() -> None:
    # The record has 53 moves; the replay stops at the illegal 42nd.
    broken = EXAMPLES / "go" / "invalid" / "go-ing-broken.rec"
    result = run("replay", broken, "--move", "42")
    assert "Illegal move 42 of 53:" in result.output, result.output
    assert "of 42" not in result.output
    assert "Start (moves: 53)" in run("replay", broken, "--move", "0").output
    assert "The replay stops at the illegal move 42 of 53" in _words(run("verify", broken).output)


# -- one name per player ------------------------------------------------------------------------------------

def test_players_ratings_and_crosstable_give_one_name(tmp_path: Path) -> None:
    # "GNU Go" is the spelling most records use, but those have no date and are not rated; the rated ones say
    # "GnuGo". Every command names the player as the whole archive does.
    undated = {f"u{i}.sgf": f"(;GM[1]SZ[9]PB[GNU Go]PW[Ann]RE[B+R];B[ee];W[c{'cdef'[i]}];B[resign])\n"
               for i in range(3)}
    dated = {f"d{i}.sgf": f"(;GM[1]SZ[9]DT[2020-01-0{i + 1}]EV[Cup]RO[{i + 1}]PB[GnuGo]PW[Ann]RE[W+R]"
                          f";B[ee];W[g{'cd'[i]}];B[resign])\n" for i in range(2)}
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, undated | dated)
    players = json.loads(run("players", "--db", db, "--json").stdout)
    ratings = json.loads(run("ratings", "--db", db, "--json").stdout)
    table = json.loads(run("crosstable", "Cup", "--db", db, "--json").stdout)
    names = {p["player"] for p in players}
    assert names == {"GNU Go", "Ann"}
    assert {r["player"] for r in _listed(ratings)} == names
    assert {s["player"] for s in table["standings"]} == names


def _listed(data: object) -> list[dict[str, object]]:
    return data if isinstance(data, list) else data["ratings"]  # type: ignore[index,return-value]


# -- help promises only the output a command has --------------------------------------------------------------

def _help(command: str) -> str:
    return " ".join(run(command, "--help").output.replace("│", " ").split())


def _options(command: str) -> set[str]:
    from boardrecords.cli.main import COMMANDS, load

    return {o for p in load(COMMANDS[command][0])[command].params for o in p.opts}


def test_help_mentions_json_only_where_there_is_json() -> None:
    from boardrecords.cli.main import COMMANDS

    for command in COMMANDS:
        if "--json" not in _options(command) and command != "serve":  # serve: the JSON of the commands, over HTTP
            assert "JSON" not in _help(command), command


def _keys(data: object) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def test_json_fields_the_help_names_are_in_the_json(tmp_path: Path) -> None:
    # Each command whose help names JSON fields (`name`), run with --json: every field named is there.
    db = str(tmp_path / "a.db")
    import_games(tmp_path, db, {"a.sgf": "(;GM[1]SZ[9]PB[Ann]PW[Bo]RE[W+R];B[ee];W[ee])\n",
                                "b.sgf": "(;GM[1]SZ[9]PB[Cy]PW[Di]RE[B+R];B[cc];W[gg])\n"})
    broken = EXAMPLES / "go" / "invalid" / "go-ing-broken.rec"
    ids = {r["black"]: r["id"] for r in json.loads(run("search", "--db", db, "--json").stdout)}
    runs = {"verify": ("verify", broken, "--json"), "show": ("show", ids["Ann"], "--db", db, "--json"),
            "fix": ("fix", ids["Ann"], "--set", "RO=2", "--db", db, "--json"),
            "delete": ("delete", ids["Cy"], "--yes", "--db", db, "--json")}
    documented = {}
    for command in runs:
        text = _help(command)
        documented[command] = set(re.findall(r"`([a-z_]+)`", text[text.index("JSON"):])) if "JSON" in text else set()
    assert documented["fix"] >= {"id", "verdict", "result"} and documented["delete"] == {"deleted"}
    for command, args in runs.items():
        result = run(*args)
        out = result.stdout
        data = [json.loads(line) for line in out.splitlines()] if command == "verify" else json.loads(out)
        assert documented[command] <= _keys(data), (command, documented[command] - _keys(data))


@pytest.mark.parametrize("command", ["fix", "delete", "alias"])
def test_commands_that_print_one_line_promise_no_table(command: str) -> None:
    text = _help(command)
    json_help = text[text.index("--json"):]
    assert "instead of a table" not in json_help


def test_the_summary_colours_a_verdict_and_a_status_of_one_word_each_its_own_way(tmp_path: Path) -> None:
    """`unconfirmed` is both a verdict (with --require-complete) and a result status (GEN-8): each keeps its own
    colour in the summary table, however many rows share the words."""
    from rich.console import Console

    from boardrecords.cli.views.verdict_view import render_summary
    from boardrecords.cli.views.words import status_word, verdict_word
    from boardrecords.verifier.files import verify_files
    from boardrecords.verifier.judging.status import ResultStatus, VerdictClass

    def styled(*texts: object) -> str:
        console = Console(record=True, width=120, force_terminal=True, color_system="truecolor")
        console.print(*texts)
        return console.export_text(styles=True)

    for name in ("a", "b"):
        (tmp_path / f"{name}.sgf").write_text("(;GM[1]SZ[9]KM[6.5]RE[B+3.5];B[ee];W[cc])")
    outcomes = list(verify_files([tmp_path], require_complete=True))
    assert {o.verdict.verdict for o in outcomes} == {VerdictClass.UNCONFIRMED}  # type: ignore[union-attr]
    assert {o.verdict.status for o in outcomes} == {ResultStatus.UNCONFIRMED}  # type: ignore[union-attr]
    out = io.StringIO()  # the rows are written to the console's file as lines (layout.write_fitted)
    render_summary(Console(file=out, width=120, force_terminal=True, color_system="truecolor"), outcomes)
    lines = [line for line in out.getvalue().splitlines() if line.startswith(("a.sgf", "b.sgf"))]
    verdict, status = styled(verdict_word(VerdictClass.UNCONFIRMED)).strip(), styled(
        status_word(ResultStatus.UNCONFIRMED)).strip()
    assert verdict != status
    assert len(lines) == 2 and all(verdict in line and status in line for line in lines), lines
