"""Key decoding and the replay's position state (no terminal needed)."""

from __future__ import annotations

import pytest

from boardrecords.cli.views.interactive import ReplayState, decode_keys


@pytest.mark.parametrize(
    ("data", "keys"),
    [
        (b"\x1b[C", ["right"]),
        (b"\x1bOC", ["right"]),  # application cursor mode
        (b"\x1b[D\x1b[D", ["left", "left"]),
        (b"\x1b[H", ["home"]),
        (b"\x1b[1~", ["home"]),
        (b"\x1bOH", ["home"]),
        (b"\x1b[F", ["end"]),
        (b"\x1b[4~", ["end"]),
        (b"\x1b[8~", ["end"]),
        (b"g12\r", ["g", "1", "2", "enter"]),
        (b"\x7f", ["backspace"]),
        (b"\x03", ["ctrl-c"]),
        (b"n\x1b[Cp", ["n", "right", "p"]),
        (b"\x1b[2;5C", []),  # an unknown sequence (ctrl+right) is dropped, not read as letters
        (b"\x1b\x1b[C", ["escape", "right"]),
    ],
)
def test_decode_keys(data: bytes, keys: list[str]) -> None:
    assert decode_keys(data) == (keys, b"")


def test_decode_keys_keeps_a_sequence_cut_short() -> None:
    keys, rest = decode_keys(b"n\x1b[")
    assert keys == ["n"]
    assert rest == b"\x1b["
    assert decode_keys(rest + b"C") == (["right"], b"")


def test_lone_escape_is_left_for_the_caller() -> None:
    assert decode_keys(b"\x1b") == ([], b"\x1b")


def _play(state: ReplayState, keys: list[str]) -> bool:
    go_on = True
    for key in keys:
        go_on = state.handle(key)
        if not go_on:
            break
    return go_on


def test_next_back_home_end_stay_inside_the_replay() -> None:
    s = ReplayState(last=5)
    _play(s, ["left", "p"])
    assert s.index == 0
    _play(s, ["right", "n", " "])
    assert s.index == 3
    _play(s, ["end", "right", "n"])
    assert s.index == 5
    _play(s, ["home"])
    assert s.index == 0
    _play(s, ["pagedown"])
    assert s.index == 5


def test_jump_with_g_number_enter() -> None:
    s = ReplayState(last=40)
    _play(s, ["g", "1", "2"])
    assert s.index == 0 and s.typing == "12"
    assert "Go to move: 12" in s.status(ascii=True)
    _play(s, ["enter"])
    assert s.index == 12 and s.typing is None


def test_jump_editing_and_cancel() -> None:
    s = ReplayState(last=40, index=3)
    _play(s, ["g", "1", "9", "backspace", "7", "enter"])
    assert s.index == 17
    _play(s, ["g", "2", "escape"])
    assert s.index == 17 and s.typing is None
    _play(s, ["g", "enter"])  # nothing typed: stay
    assert s.index == 17


def test_jump_beyond_the_end_goes_to_the_last_move_and_says_so() -> None:
    s = ReplayState(last=7)
    _play(s, ["g", "9", "9", "enter"])
    assert s.index == 7
    assert "7 moves" in s.status(ascii=True)


def test_q_and_ctrl_c_quit_but_letters_typed_after_g_do_not() -> None:
    s = ReplayState(last=3)
    assert _play(s, ["g", "q"]) is True  # ignored while typing a number
    assert s.handle("escape") is True  # cancels the jump
    assert s.handle("q") is False
    assert ReplayState(last=3).handle("ctrl-c") is False
