"""What every command shares: exit codes, the consoles, JSON output, the one way to fail, and the archive.

- Exit codes: 0 ok; 1 nothing found, or some records or files failed (a file that cannot be read as a record
  too); 2 bad usage, a path that cannot be opened, or an archive that cannot be used; 130 interrupted.
- A command that cannot go on raises CommandError, or lets the library's error (common/errors.py) go up;
  `add_commands` registers commands so that either ends as one line `error: ...` on stderr and its exit code, never
  a traceback: `failure()` is the one translation, by EXIT_STATUSES (an unreadable file 1, a path that cannot be
  opened 2, the same from every command). `one_output()` refuses two output formats at once.
- `archive` is the archive as an `Archive` (archive/front.py) that the commands ask (read-only unless they change
  it): a context manager, closed however the block ends.
- `run_settings()`: the settings of the run (common/settings.py), read from the environment once, when the command
  starts.
- Consoles: `make_console()`, standard output, and `make_console(stderr=True)`; colours off with NO_COLOR or
  --no-color, or when not a terminal; as wide as the terminal, or when piped as wide as COLUMNS says (else
  layout.PIPE_WIDTH). `SafeConsole` never writes a control character it did not make itself: the text of every
  segment it renders (record text, file names, messages) goes through `safe_text.terminal` before rich adds its
  own styles and cursor controls. Record text should also be given as `Text` (never as markup) and escaped where
  it is laid out (so that columns are measured right); this is the net under those.

The database layer (SQLAlchemy, SQLModel) is imported inside the functions that use it: `records verify` and
`records replay` should not pay for loading it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ParamSpec

import typer
from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from ..common.errors import ArchiveError, InputError, NotFound, RecordsError, Unreadable
from ..common.settings import DEFAULTS, Settings
from ..render.safe_text import json_text, terminal
from .views.layout import output_width, shown_in

if TYPE_CHECKING:

    from ..archive.front import Archive

P = ParamSpec("P")

EXIT_OK = 0
EXIT_FAILED = 1  # nothing found, or some records or files failed
EXIT_USAGE = 2  # bad usage, a path that cannot be opened, an archive that cannot be used
EXIT_INTERRUPTED = 130


# -- consoles -------------------------------------------------------------------------------------------------

class SafeConsole(Console):
    """A Console that writes no control character it did not make itself (see the module's description)."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return shown_in(self.encoding, super()._render_buffer(
            segment if segment.control else Segment(terminal(segment.text), segment.style)
            for segment in buffer))


def write_out(text: str) -> None:
    """Text on standard output (JSON, CSV, HTML) in any output encoding: what it cannot write, escaped (JSON gets
    JSON's own `\\u` escapes, since JSON is read back)."""
    sys.stdout.write(shown_in(sys.stdout.encoding or "utf-8", text))


def make_console(*, no_color: bool = False, stderr: bool = False, board: bool = False) -> Console:
    """Standard output (or, with `stderr`, the error stream, whose one-line messages are never folded).

    `board`: the replay's positions. They are laid out in the width rich measures (a terminal's, piped or not, else
    COLUMNS, else 80), which decides whether the move's text goes beside the board or below it; and with colours
    off they have no style either, since a board's highlights carry brackets and glyphs for that (views/boards.py).
    """
    off = no_color or bool(os.environ.get("NO_COLOR"))
    width = None
    if not board:
        probe = Console(stderr=stderr)
        width = output_width(probe.is_terminal, probe.width)
    # markup=False: no string printed is ever read as rich markup (record text is shown literally); emoji=False:
    # ":smile:" in a name stays those seven characters.
    return SafeConsole(stderr=stderr, soft_wrap=stderr, width=width, no_color=off,
                       color_system=None if off and board else "auto", markup=False, highlight=False, emoji=False)


def note(message: str) -> None:
    """One line on stderr beside the command's output: a note, or an error the command goes on after."""
    make_console(stderr=True).print(Text(message))


def print_json(data: Any) -> None:
    text = json_text(data, indent=1)
    encoding = sys.stdout.encoding or "utf-8"
    if shown_in(encoding, text) != text:  # an encoding that cannot write it: JSON's ASCII escapes
        text = json.dumps(json.loads(text), indent=1, ensure_ascii=True)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


# -- failing --------------------------------------------------------------------------------------------------

class CommandError(Exception):
    """Why a command cannot do what it was asked: `error: MESSAGE` on stderr, then exit status `code`. The CLI's
    own, outside the library's family: a command raises it for what only its options can get wrong."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# The exit status of each error of the library's family, most specific first (README.md, "Exit status").
EXIT_STATUSES: tuple[tuple[type[RecordsError], int], ...] = (
    (Unreadable, EXIT_FAILED),  # a file that opens but is not a record: unreadable, as verify reports it
    (NotFound, EXIT_FAILED),  # nothing by that id or name
    (InputError, EXIT_USAGE),  # a bad filter, move, pattern or setting; a path that cannot be opened
    (ArchiveError, EXIT_USAGE),  # an archive that cannot be used
)


def failure(exc: BaseException) -> CommandError | None:
    """What an expected failure ends the command with (the one translation of every command): a CommandError as
    it is, the family's errors by EXIT_STATUSES, a database error the archive did not wrap (2); None for anything
    else (a bug: its traceback is shown)."""
    if isinstance(exc, CommandError):
        return exc
    if isinstance(exc, RecordsError):
        code = next((code for kind, code in EXIT_STATUSES if isinstance(exc, kind)), EXIT_USAGE)
        return CommandError(str(exc), code)
    # Only a command that loaded the database layer can fail with its errors: checked without importing it.
    database = sys.modules.get("sqlalchemy.exc")
    if database is not None and isinstance(exc, database.SQLAlchemyError):
        from ..archive.core.db import first_line

        return CommandError(f"database: {first_line(getattr(exc, 'orig', None) or exc)}")
    return None


# The settings of the command that runs: read from the environment when it starts (`reporting`), the one place the
# command line reads them; the commands pass them on to the library.
_SETTINGS: ContextVar[Settings] = ContextVar("settings", default=DEFAULTS)


def run_settings() -> Settings:
    """The settings of the command that runs (RECORDS_DB, RECORDS_MAX_FILE_SIZE...: common/settings.py)."""
    return _SETTINGS.get()


def archive_db(db: str | None) -> str | None:
    """The archive a command uses: `--db`, else RECORDS_DB (None: the default, records.db here)."""
    return db or run_settings().db


def reporting(command: Callable[P, None]) -> Callable[P, None]:
    """`command`, its expected failures (`failure`) reported as one line and an exit status; the settings read from
    the environment first (a variable that holds no setting is a usage error: SettingError, an InputError)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            _SETTINGS.set(Settings.from_environment(os.environ))
            command(*args, **kwargs)
            sys.stdout.flush()  # a write that fails (a full disk) fails here, where it is reported
        except KeyboardInterrupt:
            # What a writing transaction had done is rolled back; commands with more to say catch it first.
            make_console(stderr=True).print(Text("interrupted"))
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            # The reader of the output went away (`| head`): nothing more to say, and nothing left to flush.
            _drop_stdout()
            raise typer.Exit(EXIT_FAILED) from None
        except Exception as exc:
            found = failure(exc)
            if found is not None:
                make_console(stderr=True).print(Text(f"error: {found.message}"))
                raise typer.Exit(found.code) from None
            if not isinstance(exc, OSError) or exc.errno not in _OUTPUT_ERRORS:
                raise
            _drop_stdout()
            make_console(stderr=True).print(Text(f"error: cannot write the output: {exc.strerror or exc}"))
            raise typer.Exit(EXIT_FAILED) from None

    return run


# A write to standard output that cannot go on: a full disk or quota, a file too large, a device error.
_OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush has nowhere to fail."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def add_commands(app: typer.Typer, commands: Mapping[str, Callable[..., None]]) -> None:
    """Add each command to the app under its name (see `reporting`)."""
    for name, command in commands.items():
        app.command(name)(reporting(command))


def one_output(**formats: bool) -> None:
    """Refuse more than one output format (`one_output(json=as_json, csv=as_csv)`): every command that offers
    several says so in the same words, before it reads anything."""
    given = [f"--{name}" for name, on in formats.items() if on]
    if len(given) > 1:
        raise CommandError(f"{', '.join(given[:-1])} and {given[-1]} exclude each other: choose one output format")


# -- the archive ----------------------------------------------------------------------------------------------

@contextmanager
def archive(db: str | None, *, write: bool = False, create: bool = False) -> Iterator[Archive]:
    """The archive `db` (`--db`; None: RECORDS_DB, else records.db) as an Archive with the command's settings,
    read-only unless `write` (`create`: made when it is not there), closed when the block ends (ArchiveError when
    it cannot be used: `reporting` ends the command with it)."""
    from ..archive.front import Archive

    with Archive(archive_db(db), write=write, create=create, settings=run_settings()) as opened:
        yield opened
