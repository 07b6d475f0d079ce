"""The compiled helper with which the import's watchers follow an engine's compiled run from its log (_follow.c:
the position keys and the change list), instead of a Step for each move. Without it (no C compiler at install, or
a big-endian machine, where the packed keys' bytes would not read as the helper reads them) every move is a Step and
the plain-Python watchers are the path; the tests compare both."""

from __future__ import annotations

import sys
from types import ModuleType


def compiled_module() -> ModuleType | None:
    if sys.byteorder != "little":
        return None
    try:
        from . import _follow
    except ImportError:
        return None
    return _follow


# None: the watchers see every move as a Step (the reference path).
COMPILED: ModuleType | None = compiled_module()
