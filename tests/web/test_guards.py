"""The checks before any route (web/guards.py): only the server's own host names, no POST from another site's page,
an upload refused as soon as it passes the cap (before it is read when its length says so) and read to record
1,001 at most, a query value no database stores a 400 naming it (never a 503 with a traceback in the log), HEAD
as GET, only the two Swagger UI files the OpenAPI page uses, nothing left beside a SQLite archive."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

fastapi = pytest.importorskip("fastapi", reason="records serve needs FastAPI (pip install -e '.[test]')")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from boardrecords.web.app import create_app  # noqa: E402

from .conftest import serve  # noqa: E402

LOCAL = "http://localhost"
ROUTES = ("/api/search", "/api/explore", "/games", "/explore")
GAME = b"(;GM[1]FF[4]SZ[9]PB[a]PW[b];B[ee];W[cc])"


@pytest.fixture(scope="module")
def client(examples_archive: Path):
    with TestClient(create_app(str(examples_archive), hosts=("records.lan",), public_hosts=("go.example.org",)),
                    raise_server_exceptions=False, base_url=LOCAL) as c:
        yield c


# -- host names ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:41234", "[::1]:8000", "[::1]",
                                  "LOCALHOST.", "records.lan:8000", "go.example.org"])
def test_the_servers_own_host_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/api/players", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.2", "localhost.evil.example",
                                  "[::2]:8000", "testserver"])
def test_any_other_host_name_is_a_421_that_says_why(client: TestClient, host: str) -> None:
    got = client.get("/api/search", headers={"host": host})
    assert got.status_code == 421
    message = got.json()["error"]
    assert host[:12] in message and "--public-host" in message
    assert client.get("/games", headers={"host": host}).status_code == 421  # the pages too


# -- origins ---------------------------------------------------------------------------------------------------

def _upload(client: TestClient, route: str = "/api/verify", **headers: str):
    return client.post(route, files={"file": ("g.sgf", GAME)}, headers=headers)


@pytest.mark.parametrize("route", ["/api/verify", "/verify"])
def test_a_post_from_another_sites_page_is_a_403(client: TestClient, route: str) -> None:
    for origin in ("http://evil.example", "http://localhost:3000", "null", "https://localhost.evil.example"):
        got = _upload(client, route, origin=origin, host="localhost:8000")
        assert got.status_code == 403, origin
        assert "another site" in got.json()["error"]
    # A sandboxed frame of another site sends `null`; the browser says where the page is.
    assert _upload(client, route, origin="null", host="localhost:8000",
                   **{"sec-fetch-site": "cross-site"}).status_code == 403
    assert _upload(client, route, host="localhost:8000", **{"sec-fetch-site": "cross-site"}).status_code == 403


@pytest.mark.parametrize("route", ["/api/verify", "/verify"])
def test_a_post_from_the_servers_own_pages_or_a_program_passes(client: TestClient, route: str) -> None:
    assert _upload(client, route, host="localhost:8000").status_code == 200  # a program: no Origin
    assert _upload(client, route, origin="http://localhost:8000", host="localhost:8000").status_code == 200
    # The server's own form under its Referrer-Policy no-referrer: the browser sends `Origin: null`.
    assert _upload(client, route, origin="null", host="localhost:8000",
                   **{"sec-fetch-site": "same-origin"}).status_code == 200
    # Behind a proxy: the page is the proxy's public name, on its own scheme and port.
    assert _upload(client, route, origin="https://go.example.org", host="127.0.0.1:8000").status_code == 200


# -- uploads ---------------------------------------------------------------------------------------------------

def test_a_file_of_many_records_is_read_to_record_1001_only(client: TestClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import boardrecords.records.reader as reader

    parsed = []
    real = reader.parse_tree

    def counting(*args, **kwargs):
        parsed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(reader, "parse_tree", counting)
    started = time.perf_counter()
    got = client.post("/api/verify", files={"file": ("many.sgf", b"(;B[aa])\n" * 150_000)})
    assert got.status_code == 400
    assert "more than 1,000 records" in got.json()["error"] and "records verify" in got.json()["error"]
    assert len(parsed) <= 1001  # not the 150,000
    assert time.perf_counter() - started < 10


def test_1000_records_are_verified(client: TestClient) -> None:
    got = client.post("/api/verify", files={"file": ("many.sgf", GAME * 1000)})
    assert got.status_code == 200 and len(got.json()) == 1000


@pytest.fixture(scope="module")
def capped_server(examples_archive: Path, tmp_path_factory: pytest.TempPathFactory):
    """`records serve` with a 64 KiB upload cap and its temporary folder of its own."""
    temp = tmp_path_factory.mktemp("server-tmp")
    env = {**os.environ, "RECORDS_MAX_FILE_SIZE": "64k", "TMPDIR": str(temp)}
    proc = subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", "serve", "--db", str(examples_archive),
                             "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    assert proc.stderr is not None
    url = None
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if "http://" in line:
            url = line.split("http://", 1)[1].split("/", 1)[0]
    if url is None:
        proc.kill()
        raise AssertionError("records serve did not start")
    try:
        yield url, temp
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _answer(sock: socket.socket, data: bytes = b"") -> bytes:
    """The whole answer: the refusal closes the connection (`Connection: close`)."""
    sock.settimeout(20)
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def test_a_length_over_the_cap_is_refused_before_the_body_is_sent(capped_server) -> None:
    where, temp = capped_server
    host, port = where.rsplit(":", 1)
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(f"POST /api/verify HTTP/1.1\r\nHost: {where}\r\nContent-Type: multipart/form-data; "
                     f"boundary=x\r\nContent-Length: {1 << 30}\r\n\r\n".encode())
        head = _answer(sock)  # no byte of the body was sent
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert b"larger than 64 KiB" in head and b"it was not read" in head
    assert not list(temp.iterdir())


def test_a_streamed_body_is_stopped_as_soon_as_it_passes_the_cap(capped_server) -> None:
    where, temp = capped_server
    host, port = where.rsplit(":", 1)
    chunk = b"x" * 16384
    sent = 0
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(f"POST /api/verify HTTP/1.1\r\nHost: {where}\r\nContent-Type: multipart/form-data; "
                     "boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        sock.settimeout(0.05)
        head = b""
        try:
            while sent < 64 << 20 and not head:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                with contextlib.suppress(TimeoutError):
                    head = sock.recv(65536)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading
        head = _answer(sock, head)
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert b"larger than 64 KiB" in head
    assert sent < 16 << 20, f"{sent} bytes were taken before the answer"
    assert not list(temp.iterdir()), "nothing of the upload on disk"


# -- characters no database stores -----------------------------------------------------------------------------

@pytest.mark.parametrize("route", ROUTES)
def test_a_nul_in_a_text_is_a_400_naming_the_field(client: TestClient, route: str) -> None:
    got = client.get(route, params={"text": "a\x00b"})
    assert got.status_code == 400
    assert got.json()["error"].startswith("text: ") and "NUL" in got.json()["error"]


@pytest.mark.parametrize(("route", "field"), [("/api/crosstable", "event"), ("/crosstable", "event"),
                                              ("/api/ratings", "player"), ("/api/explore", "moves"),
                                              ("/api/search", "pattern"), ("/games", "player")])
def test_a_nul_in_any_text_parameter_is_a_400_naming_it(client: TestClient, route: str, field: str) -> None:
    got = client.get(route, params={field: "x\x00"})
    assert got.status_code == 400 and got.json()["error"].startswith(f"{field}: ")


def test_a_nul_writes_no_traceback_to_the_servers_log(examples_archive: Path) -> None:
    proc, url, _ = serve(examples_archive)
    try:
        import urllib.error
        import urllib.request

        for route in ROUTES:
            try:
                urllib.request.urlopen(url.rstrip("/") + route + "?text=a%00b", timeout=30)
                raise AssertionError(f"{route} answered 200")
            except urllib.error.HTTPError as exc:
                assert exc.code == 400, route
    finally:
        proc.terminate()
        _, log = proc.communicate(timeout=20)
    assert "Traceback" not in log and "SELECT" not in log, log[:2000]


def test_a_database_error_is_one_log_line_and_not_raised_again(examples_archive: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """Starlette raises the error again after the handler of Exception has answered (for the server to log its
    traceback): a database error has its own handler, so it is answered and logged on one line only."""
    app = create_app(str(examples_archive))

    @app.get("/api/fails")
    def fails() -> None:
        raise OperationalError("SELECT secret FROM game", {}, Exception("the database went away"))

    with TestClient(app, raise_server_exceptions=True, base_url=LOCAL) as c:  # raised again: this call fails
        got = c.get("/api/fails")
    assert got.status_code == 503 and got.json() == {"error": "database error"}
    assert not [r for r in caplog.records if r.exc_info]
    assert "SELECT" not in caplog.text


# -- HEAD, Swagger UI --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("route", ["/games", "/api/search", "/api/players", "/games/1", "/static/site.css"])
def test_head_answers_as_get_without_the_body(client: TestClient, route: str) -> None:
    got, head = client.get(route), client.head(route)
    assert head.status_code == got.status_code
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers.get("x-total-count") == got.headers.get("x-total-count")


def test_only_the_swagger_files_of_the_openapi_page_are_served(client: TestClient) -> None:
    assert client.get("/swagger/index.html").status_code == 404  # the package's demonstration page
    assert client.get("/swagger/swagger-initializer.js").status_code == 404
    assert client.get("/swagger/../templates/docs.html").status_code == 404
    for name in ("swagger-ui.css", "swagger-ui-bundle.js"):
        assert client.get(f"/swagger/{name}").status_code == 200


# -- the archive's folder ----------------------------------------------------------------------------------------

def test_the_server_leaves_nothing_beside_the_archive(examples_archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    db.write_bytes(examples_archive.read_bytes())
    with TestClient(create_app(str(db)), base_url=LOCAL) as c:
        assert c.get("/api/search").status_code == 200
        assert c.get("/games/1").status_code == 200
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db"]



# -- records serve --public-host ---------------------------------------------------------------------------------

def test_serve_answers_for_its_public_host_names_only(examples_archive: Path) -> None:
    import http.client

    proc, url, _ = serve(examples_archive, "--public-host", "records.example.org", "--public-host", "10.1.2.3")
    try:
        where = url.split("//", 1)[1].rstrip("/")
        host, port = where.rsplit(":", 1)
        answers = {}
        for name in (where, "records.example.org", "10.1.2.3:8000", "evil.example"):
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            conn.request("GET", "/api/players", headers={"Host": name})
            answers[name] = conn.getresponse().status
            conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert answers == {where: 200, "records.example.org": 200, "10.1.2.3:8000": 200, "evil.example": 421}


@pytest.mark.parametrize("name", ["https://records.example.org", "records.example.org:443", "a b", ""])
def test_a_public_host_that_is_no_host_name_is_one_line(examples_archive: Path, name: str) -> None:
    done = subprocess.run([sys.executable, "-m", "boardrecords.cli.main", "serve", "--db", str(examples_archive),
                           "--port", "0", "--public-host", name], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --public-host") and len(done.stderr.splitlines()) == 1, done.stderr
