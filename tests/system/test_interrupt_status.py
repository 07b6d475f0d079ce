"""`python -m boardrecords.cli.main` exits with the command's own status (130) after a Ctrl-C that the command
handled, even when the interrupt hit code a library ran from a string (cli/main.py `forget_handled_interrupt`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = '''
import sys
from boardrecords.cli.main import forget_handled_interrupt
try:
    exec("raise KeyboardInterrupt")  # as a Ctrl-C during a library's generated code
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
if sys.argv[1:] == ["forget"]:
    forget_handled_interrupt()
sys.exit(130)
'''


def _status(tmp_path: Path, *args: str) -> int:
    (tmp_path / "probe.py").write_text(PROBE)
    done = subprocess.run([sys.executable, "-m", "probe", *args], cwd=tmp_path, capture_output=True, timeout=60)
    assert done.stderr.decode().strip() == "interrupted"
    return done.returncode


def test_a_handled_interrupt_ends_with_the_commands_status(tmp_path: Path) -> None:
    # Without it, CPython's mark of an unhandled interrupt wins under -m: killed by SIGINT, whatever the status.
    if _status(tmp_path) == 130:
        pytest.skip("this Python exits with the program's status after such an interrupt anyway")
    assert _status(tmp_path, "forget") == 130
