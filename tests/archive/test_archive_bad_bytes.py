"""A record that cannot be stored as it is costs that record a problem, never the batch, the file or the run; verify
and import agree on it (one undecodable byte in a move, a margin too large for a number)."""

from __future__ import annotations

import json

from ..shared import run

BAD = {
    "bad-byte.sgf": b"(;GM[1]FF[4]CA[UTF-8]SZ[19];B[pd];W[d\xffp])",
    "huge-margin.sgf": b"(;GM[1]SZ[9]RE[B+" + b"9" * 400 + b"];B[cc];W[gg])",
}


def test_records_that_cannot_be_stored_as_they_are_cost_only_themselves(tmp_path, db_url):
    folder = tmp_path / "downloads"
    folder.mkdir()
    for i in range(20):
        (folder / f"game-{i:02}.sgf").write_text(f"(;GM[1]SZ[9]GN[{i}]PB[Ann]PW[Bob];B[cc];W[gg])")
    for name, data in BAD.items():
        (folder / name).write_bytes(data)
    verified = {json.loads(line)["file"].rsplit("/", 1)[-1]: json.loads(line)["verdict"]
                for line in run("verify", "--json", folder).stdout.splitlines()}
    done = run("import", folder, "--db", db_url, "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["new"] == 22
    stored = {r["source_file"].rsplit("/", 1)[-1]: r["verdict"]
              for r in json.loads(run("search", "--db", db_url, "--json", "--limit", "100").stdout)}
    assert stored == verified
    assert (stored["bad-byte.sgf"], stored["huge-margin.sgf"]) == ("invalid", "pass")
    again = run("import", folder, "--db", db_url, "--json")  # a re-run completes too: nothing new
    assert again.exit_code == 0 and json.loads(again.stdout)["new"] == 0
