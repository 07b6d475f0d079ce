from collections.abc import Sequence
from typing import Any, Literal, overload

@overload
def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, zobrist_black: bytes,
             zobrist_white: bytes, hash: int, history: set[int], black: Any, white: Any, black_to_move: bool,
             place: Any, idents: tuple[str, ...], log: Literal[False] = False
             ) -> tuple[int, int, int, int, bool, int, int]: ...
@overload
def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, zobrist_black: bytes,
             zobrist_white: bytes, hash: int, history: set[int], black: Any, white: Any, black_to_move: bool,
             place: Any, idents: tuple[str, ...], log: Literal[True]
             ) -> tuple[int, int, int, int, bool, int, int, bytes, bytes]: ...

@overload
def play_run(nodes: Sequence[Any], start: int, size: int, cells: bytearray, zobrist_black: bytes,
             zobrist_white: bytes, hash: int, history: set[int], black: Any, white: Any, black_to_move: bool,
             place: Any, idents: tuple[str, ...], log: bool) -> tuple[Any, ...]: ...

def owners(cells: bytes | bytearray, size: int) -> bytes: ...
