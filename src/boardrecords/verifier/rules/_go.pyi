from collections.abc import Sequence
from typing import Any

def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, zobrist_black: bytes,
             zobrist_white: bytes, hash: int, history: set[int], black: Any, white: Any, black_to_move: bool,
             place: Any, idents: tuple[str, ...]) -> tuple[int, int, int, int, bool, int, int]: ...

def owners(cells: bytes | bytearray, size: int) -> bytes: ...
