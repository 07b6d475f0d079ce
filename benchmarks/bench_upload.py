"""Upload benchmark: the Go corpus as one zip through `POST /api/import` of `records serve --accounts`, against
`records import` of the same folder; whole processes, one run each, wall and CPU time.

    .venv/bin/python benchmarks/bench_upload.py [--corpus DIR] [--work DIR]

1. `records import --json --db A CORPUS` as a process, with its default worker processes and with `--workers 1`
   (one process, as the server's import runs): its wall time and CPU time (user + system; with worker processes,
   theirs are not all counted: they are the children of multiprocessing's fork server, which is not waited for).
2. The corpus's files packed in one zip (not timed); a new archive with an editor (`records user add`, the password
   on standard input); `records serve --accounts` started, signed in (`POST /api/login`), the zip sent as the
   multipart field `file` of `POST /api/import`: the wall time of that request, the CPU time the server process
   spent on it (/proc/PID/stat), and the same for the whole run (start, sign-in, upload, stop).
3. The two summaries compared: the same records, new, duplicates and verdicts.

RECORDS_MAX_FILE_SIZE is set to 256 MiB for both (an upload is one body, capped as one file is: the corpus's zip
is larger than the default 3 MiB).
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

RECORDS = str(Path(sys.executable).with_name("records"))
ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "go"
PASSWORD = "the benchmark's password"
ENV = {**os.environ, "RECORDS_MAX_FILE_SIZE": "256MiB"}
COMPARED = ("files", "records", "new", "duplicates", "verdicts", "results")


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def process_cpu(pid: int) -> float:
    """The CPU seconds (user + system) the process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cli_import(corpus: Path, db: str, *options: str) -> tuple[float, float, dict[str, object]]:
    began, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run([RECORDS, "import", "--json", *options, "--db", db, str(corpus)], capture_output=True,
                          text=True, env=ENV, check=False)
    wall, used = time.perf_counter() - began, children_cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"records import failed ({done.returncode}): {done.stderr[-2000:]}")
    return wall, used, json.loads(done.stdout)


def packed(corpus: Path) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(corpus.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(corpus).as_posix())
    return out.getvalue()


def multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "records-bench-upload"
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: application/zip\r\n\r\n").encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def upload(data: bytes, db: str) -> tuple[float, float, float, float, dict[str, object]]:
    """The upload's wall and server CPU seconds, the whole run's, and the import's summary."""
    subprocess.run([RECORDS, "user", "add", "bench", "--role", "editor", "--db", db], input=PASSWORD + "\n",
                   capture_output=True, text=True, env=ENV, check=True)
    began, cpu = time.perf_counter(), children_cpu()
    proc = subprocess.Popen([RECORDS, "serve", "--accounts", "--db", db, "--port", "0"], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True, env=ENV)
    assert proc.stderr is not None
    found = re.search(r"http://([^:/]+):(\d+)/", proc.stderr.readline())
    if not found:
        proc.kill()
        raise SystemExit("records serve did not start")
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    where = (found.group(1), int(found.group(2)))
    try:
        conn = http.client.HTTPConnection(*where, timeout=3600)
        conn.request("POST", "/api/login", json.dumps({"name": "bench", "password": PASSWORD}),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        csrf = json.loads(answer.read())["csrf"]
        cookie = (answer.getheader("set-cookie") or "").split(";", 1)[0]
        body, kind = multipart("corpus.zip", data)
        sent, server_cpu = time.perf_counter(), process_cpu(proc.pid)
        conn.request("POST", "/api/import", body, {"Content-Type": kind, "Cookie": cookie, "X-CSRF-Token": csrf})
        answer = conn.getresponse()
        text = answer.read()
        upload_wall, upload_cpu = time.perf_counter() - sent, process_cpu(proc.pid) - server_cpu
        if answer.status != 200:
            raise SystemExit(f"the upload was answered {answer.status}: {text[:500]!r}")
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return upload_wall, upload_cpu, time.perf_counter() - began, children_cpu() - cpu, json.loads(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--work", type=Path, default=None, help="Where the archives are made (default: a new "
                        "temporary folder).")
    given = parser.parse_args()
    work = given.work or Path(tempfile.mkdtemp(prefix="bench-upload-"))
    work.mkdir(parents=True, exist_ok=True)
    for old in ("cli.db", "cli1.db", "web.db"):
        for path in work.glob(old + "*"):
            path.unlink()
    files = sum(1 for p in given.corpus.rglob("*") if p.is_file())
    data = packed(given.corpus)
    print(f"corpus: {given.corpus} ({files} files; zip {len(data) / 2**20:.1f} MiB)")
    wall, cpu, by_cli = cli_import(given.corpus, str(work / "cli.db"))
    print(f"records import           wall {wall:7.2f} s   cpu {cpu:7.2f} s   new {by_cli['new']}  (its workers)")
    wall, cpu, _ = cli_import(given.corpus, str(work / "cli1.db"), "--workers", "1")
    print(f"records import --workers 1 wall {wall:5.2f} s   cpu {cpu:7.2f} s")
    up_wall, up_cpu, run_wall, run_cpu, by_web = upload(data, str(work / "web.db"))
    print(f"POST /api/import (zip)   wall {up_wall:7.2f} s   cpu {up_cpu:7.2f} s   new {by_web['new']}  (the request)")
    print(f"records serve, whole run wall {run_wall:7.2f} s   cpu {run_cpu:7.2f} s   (start, sign-in, upload, stop)")
    same = {k: by_cli[k] for k in COMPARED if k != "files"} == {k: by_web[k] for k in COMPARED if k != "files"}
    print(f"the same summary (records, new, duplicates, verdicts, results): {'yes' if same else 'NO'}")
    if not same:
        for key in COMPARED:
            print(f"  {key}: import {by_cli[key]}  upload {by_web[key]}")


if __name__ == "__main__":
    main()
