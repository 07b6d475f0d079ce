"""The import's helper processes (common/workers.py, worker_guard.py, forkserver_guard.py) under Ctrl-C and `kill -9`,
as real processes: Ctrl-C while the helpers start is one line `interrupted` and exit status 130 (no helper's
traceback), and after a `kill -9` of the command no helper is alive a second later."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..shared import interruptible

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

MAIN_PID = "RECORDS_MAIN_PID"  # what the command's helpers carry (worker_guard.py)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,200 files of a 150-move Go game: enough for the import to start its worker pool and still be at work
    1.5 s after its helpers appear on an idle machine."""
    folder = tmp_path_factory.mktemp("many")
    game = b"(;GM[1]SZ[19]PB[a]PW[b]" + b"".join(
        b";B[%s];W[%s]" % (bytes([97 + i % 19, 97 + i // 19 % 19]), bytes([97 + (i * 7) % 19, 97 + (i * 3) % 19]))
        for i in range(150)) + b")"
    for i in range(1200):
        (folder / f"g{i:04d}.sgf").write_bytes(game.replace(b"PB[a]", b"PB[p%d]" % i))
    return folder


def _state(pid: int) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


_SEEN: dict[int, set[int]] = {}  # command -> every helper seen so far (a forked worker loses its parent at a kill)


def helpers_of(pid: int) -> list[int]:
    """Every live process that the command `pid` started, however deep (they carry its pid in their environment),
    including those started after it was killed; and its forked workers (children that carry no new environment),
    seen while it lived."""
    tag = f"{MAIN_PID}={pid}".encode()
    seen = _SEEN.setdefault(pid, set())
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == pid:
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if tag in environ or _parent(int(entry)) == pid:
            seen.add(int(entry))
    return [p for p in seen if _state(p) not in (None, b"Z", b"X")]


def start_import(many: Path, tmp_path: Path, **popen) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", "import", str(many), "--db",
                             str(tmp_path / f"a{time.monotonic_ns()}.db"), "-q", "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)


def start_verify(many: Path, tmp_path: Path, **popen) -> subprocess.Popen[bytes]:
    """`records verify -j 2` of the files six times over: its workers are forked from the command itself."""
    return subprocess.Popen([sys.executable, "-m", "boardrecords.cli.main", "verify", *[str(many)] * 6, "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **popen)


def wait_for_helpers(proc: subprocess.Popen[bytes], least: int) -> bool:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if len(helpers_of(proc.pid)) >= least:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize(("start", "after"), [(start_import, 0.0), (start_import, 0.15), (start_import, 0.4),
                                              (start_import, 0.8), (start_import, 1.5), (start_verify, 0.0),
                                              (start_verify, 0.05), (start_verify, 0.3)])
def test_ctrl_c_while_the_helpers_start_is_one_line(many: Path, tmp_path: Path, start, after: float) -> None:
    """SIGINT to the whole process group (what Ctrl-C in a terminal does) from the moment the first helper exists
    through the fork server's start-up (it imports the modules, a second or two) and the workers' start; for verify,
    through the workers' fork from the command and their work."""
    proc = start(many, tmp_path, start_new_session=True, preexec_fn=interruptible)
    if not wait_for_helpers(proc, 1):
        proc.kill()
        pytest.skip("the import ended before its helpers were seen")
    time.sleep(after)
    if proc.poll() is not None:
        pytest.skip(f"the command ended within {after} s of its helpers' start, before the interrupt")
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    lines = err.decode().splitlines()
    assert proc.returncode == 130, err.decode()[-2000:]
    assert len(lines) == 1 and lines[0].startswith("interrupted"), err.decode()[-3000:]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and helpers_of(proc.pid):
        time.sleep(0.05)
    assert not helpers_of(proc.pid)


@pytest.mark.parametrize(("start", "least"), [(start_import, 1), (start_import, 2), (start_import, 4),
                                              (start_verify, 1), (start_verify, 2)])
def test_no_helper_outlives_a_kill_9_by_a_second(many: Path, tmp_path: Path, start, least: int) -> None:
    """Killed as the fork server starts, as its first worker starts, and with the pool at work (verify: as its
    first worker is forked, and with both at work)."""
    proc = start(many, tmp_path)
    if not wait_for_helpers(proc, least):
        proc.kill()
        pytest.skip("the import ended before its helpers were seen")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and helpers_of(proc.pid):
        time.sleep(0.02)
    left = helpers_of(proc.pid)
    for pid in left:  # not left behind when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"helpers alive a second after kill -9: {left}"
