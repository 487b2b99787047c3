"""The core's C ABI (core/include/hexarena.h) driven from Python with ctypes, for the tests
that hold the C library to the Python rules. The library is ``HEXARENA_CAPI_LIB``, else
the first libhexarena_core.so with the C ABI (``--features capi``) of core/target/kit/release
(tests/support/kits.py, .ci/run), core/target/release and core/target/debug."""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
OK, SYNTAX, ILLEGAL, TOO_MANY, BUFFER = 0, 5, 6, 7, 8


def find_library() -> ctypes.CDLL | None:
    """The C library when one with the C ABI is built, else None."""
    named = os.environ.get("HEXARENA_CAPI_LIB")
    candidates = [Path(named)] if named else [CORE / "target" / kind / "libhexarena_core.so"
                                              for kind in ("kit/release", "release", "debug")]
    for path in candidates:
        if path.is_file():
            lib = ctypes.CDLL(str(path))
            if hasattr(lib, "hx_api_version"):
                return _declare(lib)
    return None


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    p, c, i, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
    out_text = [p, ctypes.c_char_p, sz, ctypes.POINTER(sz)]
    for name, args in {
        "hx_game_new": [c, i, c, ctypes.c_uint32, ctypes.POINTER(p)],
        "hx_game_from_position": [c, ctypes.POINTER(p)],
        "hx_outcome": [p, ctypes.POINTER(i), ctypes.POINTER(i)],
        "hx_to_move": [p, ctypes.POINTER(i)],
        "hx_legal_actions": out_text, "hx_position": out_text, "hx_final_score": out_text,
        "hx_legal_cells": [p, ctypes.POINTER(ctypes.c_uint16), sz, ctypes.POINTER(sz)],
        "hx_play": [p, c], "hx_check": [p, c],
        "hx_random_playout": [p, ctypes.c_uint32, ctypes.c_uint64, ctypes.POINTER(i)],
    }.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = i
    lib.hx_game_free.argtypes = [p]
    lib.hx_game_free.restype = None
    lib.hx_last_error.restype = c
    lib.hx_api_version.restype = c
    return lib


class CGame:
    """One hx_game handle, freed with the object."""

    def __init__(self, lib: ctypes.CDLL, handle: ctypes.c_void_p) -> None:
        self.lib, self.handle = lib, handle

    @classmethod
    def new(cls, lib: ctypes.CDLL, game: str, size: int, variant: str, komi: int = 0) -> CGame:
        h = ctypes.c_void_p()
        code = lib.hx_game_new(game.encode(), size, variant.encode(), komi, ctypes.byref(h))
        if code != OK:
            raise ValueError(lib.hx_last_error().decode())
        return cls(lib, h)

    @classmethod
    def from_position(cls, lib: ctypes.CDLL, text: str) -> CGame:
        h = ctypes.c_void_p()
        if lib.hx_game_from_position(text.encode(), ctypes.byref(h)) != OK:
            raise ValueError(lib.hx_last_error().decode())
        return cls(lib, h)

    def __del__(self) -> None:
        self.lib.hx_game_free(self.handle)

    def _text(self, fn) -> tuple[int, str]:  # type: ignore[no-untyped-def]
        needed = ctypes.c_size_t()
        code = fn(self.handle, None, 0, ctypes.byref(needed))
        if code != BUFFER:
            return code, self.lib.hx_last_error().decode()
        buf = ctypes.create_string_buffer(needed.value)
        code = fn(self.handle, buf, needed.value, ctypes.byref(needed))
        return code, buf.value.decode()

    def position(self) -> str:
        return self._text(self.lib.hx_position)[1]

    def legal_actions(self) -> list[str] | None:
        code, text = self._text(self.lib.hx_legal_actions)
        if code == TOO_MANY:
            return None
        return text.split()

    def legal_cells(self) -> list[int]:
        count = ctypes.c_size_t()
        buf = (ctypes.c_uint16 * 512)()
        assert self.lib.hx_legal_cells(self.handle, buf, 512, ctypes.byref(count)) == OK
        return list(buf[:count.value])

    def outcome(self) -> tuple[bool, int]:
        over, winner = ctypes.c_int(), ctypes.c_int()
        assert self.lib.hx_outcome(self.handle, ctypes.byref(over), ctypes.byref(winner)) == OK
        return bool(over.value), winner.value

    def final_score(self) -> str | None:
        code, text = self._text(self.lib.hx_final_score)
        return text if code == OK else None

    def check(self, token: str) -> int:
        return self.lib.hx_check(self.handle, token.encode())

    def play(self, token: str) -> int:
        return self.lib.hx_play(self.handle, token.encode())
