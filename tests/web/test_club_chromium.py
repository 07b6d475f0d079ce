"""A club's archive in headless Chromium (`records serve --accounts`): an editor signs in, uploads a file on
/import and sees its summary, fixes a player's name on the game page, and signs out; and pages of other origins
(another port of the same address: same site; another host name: another site), with forms that post themselves to
the archive and fetch() calls with credentials, cannot change it for a signed-in browser."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from boardrecords.archive.front import Archive

from ..shared import write_folder
from .conftest import serve

pytestmark = pytest.mark.chromium

PASSWORD = "eve's long password"
GAME = "(;GM[1]SZ[9]PB[Eve]PW[Fay]EV[Club night]DT[2024-05-01]RE[B+R];B[cc];W[ee];B[gg];W[resign])"
UPLOADED = "(;GM[1]SZ[9]PB[Gus]PW[Hal]EV[Club night]DT[2024-05-02]RE[W+R];B[dd];W[ff];B[resign])"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A served archive with accounts (one record, the editor eve): its URL and its database."""
    db = str(tmp_path / "club.db")
    with Archive(db, create=True) as archive:
        archive.import_paths([write_folder(tmp_path, "games", {"g.sgf": GAME})], workers=1)
        archive.add_user("eve", PASSWORD, role="editor")
    proc, url, _ = serve(Path(db), "--accounts")
    try:
        yield url, db
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _wait(browser, condition, seconds: float = 20.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, seconds).until(condition)


def _sign_in(browser, url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(url + "login")
    browser.find_element(By.NAME, "name").send_keys("eve")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    _wait(browser, lambda b: b.current_url.endswith("/games"))
    _wait(browser, lambda b: b.find_element(By.ID, "sign-out").is_displayed())


def _state(db: str) -> tuple[object, ...]:
    with Archive(db) as archive:
        games = [(g.id, g.black, g.white, archive.record_version(g.id or 0)) for g in archive.search(limit=0).games]
        return games, [a.name for a in archive.aliases()]


def test_an_editor_signs_in_uploads_fixes_a_name_and_signs_out(browser, club, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    url, db = club
    _sign_in(browser, url)
    try:
        assert browser.find_element(By.ID, "import-link").is_displayed()
        upload = tmp_path / "round2.sgf"
        upload.write_text(UPLOADED, encoding="utf-8")
        browser.get(url + "import")
        browser.find_element(By.ID, "import-file").send_keys(str(upload))
        browser.find_element(By.ID, "import-send").click()
        summary = _wait(browser, lambda b: b.find_elements(By.ID, "import-summary"))[0]
        heads = [th.text for th in summary.find_elements(By.TAG_NAME, "th")]
        cells = [td.text for td in summary.find_elements(By.TAG_NAME, "td")]
        assert dict(zip(heads, cells, strict=True))["new"] == "1"
        assert "1 record: 1 pass" in browser.find_element(By.ID, "import-totals").text
        assert browser.find_element(By.ID, "import-status").text == "done"
        with Archive(db) as archive:
            record_id = archive.search(black="Gus").games[0].id
        browser.get(url + f"games/{record_id}")
        field = browser.find_element(By.CSS_SELECTOR, '#edit-header-form input[name="PB"]')
        assert field.get_attribute("value") == "Gus"
        field.clear()
        field.send_keys("Gus Grissom")
        browser.find_element(By.ID, "edit-save").click()
        _wait(browser, lambda b: b.find_elements(By.ID, "history"))
        assert "PB=Gus Grissom" in browser.find_element(By.ID, "history").text
        assert "eve" in browser.find_element(By.ID, "history").text
        with Archive(db) as archive:
            assert archive.record(record_id or 0).row.black == "Gus Grissom"
        browser.find_element(By.ID, "sign-out").click()
        _wait(browser, lambda b: b.current_url.endswith("/login"))
        browser.get(url + "api/account")
        assert json.loads(browser.find_element(By.TAG_NAME, "body").text)["name"] is None
        browser.get(url + f"games/{record_id}")
        assert not browser.find_elements(By.ID, "edit-header-form")
    finally:
        browser.delete_all_cookies()


ATTACK = """<!DOCTYPE html><html><body>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe><iframe name="sink3"></iframe>
<form id="f1" method="post" action="{url}games/1/fix" target="sink1">
<input name="version" value="1"><input name="PB" value="Mallory"></form>
<form id="f2" method="post" action="{url}players/alias" target="sink2">
<input name="name" value="Eve"><input name="others" value="Mallory"></form>
<form id="f3" method="post" action="{url}api/import" target="sink3" enctype="text/plain">
<input name='{{"version": 1, "set": {{"PB": "Mallory"}}, "x": "' value='"}}'></form>
<script>
document.getElementById("f1").submit();
document.getElementById("f2").submit();
document.getElementById("f3").submit();
var asked = [
  fetch("{url}api/games/1/fix", {{method: "POST", credentials: "include", mode: "no-cors",
    headers: {{"Content-Type": "text/plain"}}, body: JSON.stringify({{version: 1, set: {{PB: "Mallory"}}}})}}),
  fetch("{url}api/games/1/fix", {{method: "POST", credentials: "include",
    headers: {{"Content-Type": "application/json"}}, body: JSON.stringify({{version: 1, set: {{PB: "Mallory"}}}})}}),
  fetch("{url}api/account", {{credentials: "include"}}).then(function (r) {{ return r.json(); }})
    .then(function (me) {{ return fetch("{url}api/games/1/fix", {{method: "POST", credentials: "include",
      headers: {{"X-CSRF-Token": me.csrf}}, body: JSON.stringify({{version: 1, set: {{PB: "Mallory"}}}})}}); }})
];
Promise.allSettled(asked).then(function (all) {{
  document.title = "done " + all.map(function (a) {{ return a.status; }}).join(",");
}});
</script></body></html>"""


@pytest.mark.parametrize("attacker_host", ["127.0.0.1", "localhost"])
def test_a_page_of_another_origin_cannot_change_the_archive(browser, club, tmp_path: Path,
                                                           attacker_host: str) -> None:
    url, db = club
    _sign_in(browser, url)
    before = _state(db)
    site = tmp_path / "attacker"
    site.mkdir()
    (site / "attack.html").write_text(ATTACK.format(url=url), encoding="utf-8")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=attacker.serve_forever, daemon=True)
    thread.start()
    try:
        browser.get(f"http://{attacker_host}:{attacker.server_address[1]}/attack.html")
        _wait(browser, lambda b: b.title.startswith("done"))
        time.sleep(1.0)  # the forms' posts, each in its frame
        assert _state(db) == before
        # Still signed in: the browser's own session was not what refused them.
        browser.get(url + "api/account")
        from selenium.webdriver.common.by import By

        assert json.loads(browser.find_element(By.TAG_NAME, "body").text)["name"] == "eve"
    finally:
        attacker.shutdown()
        attacker.server_close()
        browser.delete_all_cookies()


def test_the_editors_pages_do_not_scroll_sideways_on_a_phone(browser, club) -> None:
    url, _ = club
    before = browser.get_window_size()
    _sign_in(browser, url)
    browser.set_window_size(390, 900)
    try:
        for path in ("import", "games/1", "players", "delete?event=Club+night", "games?event=Club+night"):
            browser.get(url + path)
            client, scroll = browser.execute_script(
                "return [document.documentElement.clientWidth, document.documentElement.scrollWidth];")
            assert scroll <= client, f"{path} scrolls sideways at 390 px"
    finally:
        browser.set_window_size(before["width"], before["height"])
        browser.delete_all_cookies()
