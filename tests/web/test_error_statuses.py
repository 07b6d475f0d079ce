"""One HTTP status for the same bad input from every route (web/app.py: HTTP_STATUSES): a bad filter or an unknown
game is a 400 from the JSON routes and the pages alike, a missing record a 404, an archive that cannot be used a
503, each as `{"error": message}` from the API and as a page from the pages, without a traceback in the log;
every error of the library's family gets the status of its kind."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from markupsafe import escape

from boardrecords.common.errors import ArchiveError, InputError, NotFound, RecordsError

from ..test_error_family import family_classes, instance_of

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402

from boardrecords.web.app import HTTP_STATUSES, create_app  # noqa: E402

ROUTES = ("/api/search", "/api/explore", "/games", "/explore")

BAD = {
    "a month that is no month": ({"from": "2017-13"}, 400),
    "an unknown game": ({"game": "nonsense"}, 400),
    "an opening that does not read": ({"opening": "zz99"}, 400),
    "a verdict that is none": ({"verdict": "bogus"}, 400),
    "a date range that is no date": ({"to": "2017-02-30"}, 400),
}


@pytest.fixture(scope="module")
def client(examples_archive: Path):
    with TestClient(create_app(str(examples_archive)), raise_server_exceptions=False, base_url="http://localhost") as c:
        yield c


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_same_bad_input_is_the_same_status_from_every_route(client: TestClient, case: str,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    params, status = BAD[case]
    answers = {}
    pages = {}
    with caplog.at_level(logging.DEBUG):
        for route in ROUTES:
            got = client.get(route, params=params)
            assert got.status_code == status, (route, got.text)
            if route.startswith("/api/"):
                assert got.headers["content-type"].startswith("application/json"), route
                answers[route] = got.json()
            else:  # a page: the error as a page (its navigation, its form)
                assert got.headers["content-type"].startswith("text/html"), route
                pages[route] = got.text
    assert len({a["error"] for a in answers.values()}) == 1, answers  # the same message too
    assert all(a.keys() == {"error"} for a in answers.values())
    message = escape(next(iter(answers.values()))["error"])
    assert all(message in page and '<nav class="top">' in page for page in pages.values()), pages
    assert not [r for r in caplog.records if r.exc_info], "a bad question is an answer, not a fault"


def test_the_routes_answer_good_input(client: TestClient) -> None:
    """The same routes with good filters answer 200 (so that the statuses above are the bad input's)."""
    for route in ROUTES:
        assert client.get(route, params={"from": "2017-12", "game": "go"}).status_code == 200, route


@pytest.mark.parametrize("route", ["/api/show/{}", "/games/{}", "/games/{}/original"])
def test_a_missing_record_is_404_from_every_route(client: TestClient, route: str) -> None:
    got = client.get(route.format(999_999))
    assert got.status_code == 404
    if route.startswith("/api/"):
        assert got.json() == {"error": "no record 999999 in the archive"}
    else:
        assert "no record 999999 in the archive" in got.text and got.headers["content-type"].startswith("text/html")


def test_a_missing_event_is_404_from_both_faces(client: TestClient) -> None:
    for route in ("/api/crosstable", "/crosstable"):
        got = client.get(route, params={"event": "no such event"})
        assert got.status_code == 404, route
        assert "no such event" in (got.json()["error"] if route.startswith("/api/") else got.text)


@pytest.mark.parametrize("kind", family_classes(), ids=lambda k: f"{k.__module__}.{k.__name__}")
def test_every_error_of_the_family_has_its_status(examples_archive: Path, kind: type[RecordsError],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Each class of the family, raised in a route, is answered by the status of its kind, its message as the
    error, and nothing logged with a traceback."""
    expected = next(status for base, status in HTTP_STATUSES if issubclass(kind, base))
    app = create_app(str(examples_archive))
    exc = instance_of(kind)

    @app.get("/api/raises")
    def raises() -> None:
        raise exc

    @app.get("/raises")
    def raises_on_a_page() -> None:
        raise exc

    with caplog.at_level(logging.DEBUG), TestClient(app, raise_server_exceptions=False,
                                                    base_url="http://localhost") as c:
        got = c.get("/api/raises")
        page = c.get("/raises")
    assert got.status_code == page.status_code == expected
    assert got.json() == {"error": str(exc)}
    assert escape(str(exc)) in page.text and '<nav class="top">' in page.text
    assert not [r for r in caplog.records if r.exc_info]


def test_the_three_kinds_are_400_404_503() -> None:
    assert dict(HTTP_STATUSES) == {InputError: 400, NotFound: 404, ArchiveError: 503}

