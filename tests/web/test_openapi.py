"""The OpenAPI description of `records serve` (`/openapi.json`, shown by `/docs`): every `/api/` route names the
schema of its answer (archive/answers.py's JSON shapes), with the fields the route's JSON has."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from boardrecords.cli.main import app as cli

from ..shared import EXAMPLES

pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient

from boardrecords.web.app import create_app


@pytest.fixture(scope="module")
def described(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], TestClient]:
    db = tmp_path_factory.mktemp("openapi") / "a.db"
    done = CliRunner().invoke(cli, ["import", "-q", "--db", str(db), str(EXAMPLES)])
    assert done.exit_code == 0, done.output
    client = TestClient(create_app(str(db)), base_url="http://localhost")
    got = client.get("/openapi.json")
    assert got.status_code == 200
    return got.json(), client


def _refs(schema: dict[str, Any]) -> set[str]:
    """The named schemas a response's schema refers to (directly, as array items, or as one of several)."""
    if "$ref" in schema:
        return {schema["$ref"].rsplit("/", 1)[-1]}
    found: set[str] = set()
    for part in schema.get("anyOf", []):
        found |= _refs(part)
    if "items" in schema:
        found |= _refs(schema["items"])
    return found


def test_every_api_route_names_the_schema_of_its_answer(described: tuple[dict[str, Any], TestClient]) -> None:
    spec, _ = described
    routes = {(path, method): op for path, ops in spec["paths"].items() if path.startswith("/api/")
              for method, op in ops.items()}
    assert {p for p, _ in routes} >= {"/api/search", "/api/show/{record_id}", "/api/explore", "/api/players",
                                      "/api/events", "/api/crosstable", "/api/ratings", "/api/verify"}
    schemas = spec["components"]["schemas"]
    for (path, method), op in routes.items():
        named = _refs(op["responses"]["200"]["content"]["application/json"]["schema"])
        assert named, (path, method)
        for name in named:
            assert schemas[name]["properties"], (path, name)


@pytest.mark.parametrize(("path", "params", "schema"), [
    ("/api/search", {}, "GameJson"), ("/api/players", {}, "PlayerJson"), ("/api/events", {}, "EventJson"),
    ("/api/explore", {"game": "go", "size": "9"}, "ExplorationJson"),
    ("/api/crosstable", {"event": "Autumn club tournament"}, "CrosstableJson"),
    ("/api/ratings", {}, "RatingsJson"),
])
def test_the_schemas_fields_are_the_answers(described: tuple[dict[str, Any], TestClient], path: str,
                                            params: dict[str, str], schema: str) -> None:
    spec, client = described
    got = client.get(path, params=params).json()
    one = got[0] if isinstance(got, list) else got
    fields = spec["components"]["schemas"][schema]
    assert set(one) <= set(fields["properties"])
    assert set(fields.get("required", [])) <= set(one)


def test_a_record_has_the_fields_its_schema_names(described: tuple[dict[str, Any], TestClient]) -> None:
    spec, client = described
    rid = client.get("/api/search", params={"limit": 1}).json()[0]["id"]
    got = client.get(f"/api/show/{rid}").json()
    assert set(got) == set(spec["components"]["schemas"]["RecordJson"]["properties"])
