"""A worker the command let go of before it started is quiet (common/worker_guard.py, abandoned): only the errors of
reading its start-up data in multiprocessing's spawn._main, and only those that mean the data or the pool's locks
were gone; every other error of a helper still prints its traceback."""

from __future__ import annotations

import multiprocessing.spawn as spawn
import sys
from types import TracebackType

import pytest

from boardrecords.common.worker_guard import abandoned, quiet_when_abandoned


def raised_in(filename: str, name: str, error: BaseException) -> tuple[type[BaseException], BaseException,
                                                                         TracebackType | None]:
    """The exception info of `error` raised in a function `name` compiled as if it lived in `filename`."""
    space: dict[str, object] = {"error": error}
    exec(compile(f"def {name}():\n    raise error\n", filename, "exec"), space)
    try:
        space[name]()  # type: ignore[operator]
    except BaseException:
        kind, value, tb = sys.exc_info()
        assert kind is not None and value is not None
        return kind, value, tb
    raise AssertionError("did not raise")


@pytest.mark.parametrize("error", [FileNotFoundError(2, "No such file or directory"), EOFError("Ran out of input")])
def test_a_worker_whose_start_up_data_is_gone_is_abandoned(error: BaseException) -> None:
    kind, _, tb = raised_in(spawn.__file__, "_main", error)
    assert abandoned(kind, tb)


@pytest.mark.parametrize(("filename", "name", "error"), [
    (spawn.__file__, "_main", ValueError("a real fault")),
    (spawn.__file__, "spawn_main", FileNotFoundError(2, "No such file or directory")),
    ("elsewhere.py", "_main", FileNotFoundError(2, "No such file or directory")),
])
def test_every_other_error_is_not(filename: str, name: str, error: BaseException) -> None:
    kind, _, tb = raised_in(filename, name, error)
    assert not abandoned(kind, tb)


def test_the_hook_prints_what_is_not_abandoned(capsys: pytest.CaptureFixture[str]) -> None:
    quiet_when_abandoned(*raised_in("elsewhere.py", "_main", ValueError("a real fault")))
    assert "ValueError: a real fault" in capsys.readouterr().err
    quiet_when_abandoned(*raised_in(spawn.__file__, "_main", EOFError("Ran out of input")))
    assert capsys.readouterr().err == ""
