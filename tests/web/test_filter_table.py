"""The search filters are declared once (archive/core/filters.py: FILTERS): every filter is an option of
`records search` and a query parameter of `/api/search`, with the same help and bounds, and a bad value is refused
by both faces when the filters are built."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rich.text import Text

from boardrecords.archive.core.filters import FILTER_BY_FIELD, FILTERS, FilterError, Filters
from boardrecords.cli.main import load
from boardrecords.web.app import create_app

from ..shared import run


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("filters")
    (folder / "a.sgf").write_bytes(b"(;GM[1]SZ[9]PB[Ann]PW[Bob]DT[2017-05-03]RE[B+R];B[cc];W[gg])")
    db = folder / "a.db"
    assert run("import", folder / "a.sgf", "--db", db, "-q").exit_code == 0
    with TestClient(create_app(str(db)), raise_server_exceptions=False, base_url="http://localhost") as c:
        c.db = db  # type: ignore[attr-defined]
        yield c


def _search_options() -> dict[str, Any]:
    command = load("search_cmd")["search"]
    return {p.name: p for p in command.params if p.name and getattr(p, "opts", None)}


def test_every_field_of_filters_is_in_the_table() -> None:
    names = [f.name for f in dataclasses.fields(Filters)]
    # The records' ids are the commands' arguments (export, delete), no filter option.
    assert [s.field for s in FILTERS] == [n for n in names if n != "ids"]
    assert len({s.option for s in FILTERS}) == len(FILTERS)


def test_every_filter_is_an_option_of_search_with_the_tables_help() -> None:
    options = _search_options()
    for spec in FILTERS:
        option = options.get(spec.field)
        assert option is not None, spec.field
        assert f"--{spec.option}" in option.opts, (spec.field, option.opts)
        if spec.off is not None:
            assert f"--{spec.off}" in option.secondary_opts
        assert option.help is not None and Text.from_markup(option.help).plain == spec.help, spec.field
        assert getattr(option, "rich_help_panel", None) == "Filters"


def test_every_filter_is_a_query_parameter_of_the_api_with_the_tables_help(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    params = {p["name"]: p for p in schema["paths"]["/api/search"]["get"]["parameters"]}
    for spec in FILTERS:
        param = params.get(spec.option)
        assert param is not None, spec.option
        assert param["in"] == "query" and param.get("description") == spec.help, spec.option
        bounds = next(s for s in param["schema"]["anyOf"] if s.get("type") != "null")
        assert bounds.get("maxLength") == spec.max_length, spec.option
        assert (bounds.get("minimum"), bounds.get("maximum")) == (spec.least, spec.most), spec.option


def test_search_help_shows_the_filters_in_their_own_panel() -> None:
    shown = run("search", "--help")
    assert shown.exit_code == 0
    panel = shown.output.split("Filters", 1)[1]
    for spec in FILTERS:
        assert f"--{spec.option}" in panel, spec.option
    assert "'B[pd] W[dp]'" in " ".join(panel.replace("│", " ").split())


@pytest.mark.parametrize(("given", "query", "says"), [
    ({"game": "go", "size": 99}, {"game": "go", "size": "99"}, "52"),  # the largest board of every game
    ({"game": "cation", "size": 2}, {"game": "cation", "size": "2"}, "Cation is played on 3x3 to 52x52"),
    ({"date_from": "2017-13"}, {"from": "2017-13"}, "not a date: '2017-13'"),
    ({"verdict": "fine"}, {"verdict": "fine"}, "pass, invalid, wrong-result"),
    ({"game": "chess"}, {"game": "chess"}, "unknown game 'chess'"),
    ({"opening": "B[pd"}, {"opening": "B[pd"}, "cannot read move"),
])
def test_a_bad_value_is_refused_by_both_faces(client: TestClient, given: dict[str, object], query: dict[str, str],
                                              says: str) -> None:
    cli_args = [x for field, value in given.items() for x in (f"--{FILTER_BY_FIELD[field].option}", str(value))]
    done = run("search", "--db", client.db, *cli_args)  # type: ignore[attr-defined]
    assert done.exit_code == 2, done.output
    assert says in " ".join(done.output.replace("│", " ").split()), done.output
    got = client.get("/api/search", params=query)
    assert got.status_code == 400, got.text
    assert set(got.json()) == {"error"} and says in got.json()["error"]


def test_the_filters_are_checked_when_they_are_built() -> None:
    with pytest.raises(FilterError, match=r"Go \(Simplified Ing Rules\) is played on 2x2 to 52x52"):
        Filters.parse(game="go", size=99)
    with pytest.raises(FilterError, match="too large: give at most 52"):
        Filters.parse(size=99)
    with pytest.raises(FilterError, match="Quentin is played on 3x3"):
        Filters.parse(game="quentin", size=2)
    with pytest.raises(FilterError, match="not a date"):
        Filters.parse(date_from="2017-13")
    with pytest.raises(FilterError, match="at most 200 characters"):
        Filters.parse(player="x" * 201)
    with pytest.raises(FilterError, match="too small"):
        Filters.parse(moves_min=-1)
    built = Filters.parse(game="Go", size=9, verdict="Wrong Result", status="kind_only", date_to=" 2017-05 ",
                          opening="C3,G7", ids=[3])
    assert (built.game, built.size, built.verdict, built.status, built.date_to) == ("go-ing", 9, "wrong-result",
                                                                                      "kind-only", "2017-05")
    assert built.opening == "B[cg];W[gc]" and list(built.ids) == [3]
    assert Filters.parse(**{s.field: None for s in FILTERS}).empty


def test_the_same_filters_find_the_same_records_on_both_faces(client: TestClient) -> None:
    asked = {"player": "ann", "from": "2017-05", "to": "2017", "size": "9", "game": "go", "moves-min": "2",
             "verdict": "pass", "opening": "C7"}
    web = [g["id"] for g in client.get("/api/search", params=asked).json()]
    args = [x for k, v in asked.items() for x in (f"--{k}", v)]
    done = run("search", "--db", client.db, "--json", *args)  # type: ignore[attr-defined]
    assert done.exit_code == 0, done.output
    assert [g["id"] for g in json.loads(done.stdout)] == web == [1]
