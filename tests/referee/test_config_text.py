"""A config's text and the files it names, read from outside: every defect is a ConfigError naming
the file (found by tests/fuzz and by reading the loader: each of these raised another exception)."""
from __future__ import annotations

import os

import pytest

from hexarena.referee.tournament import config as C

BASE = '[engines.a]\nplayer = "random"\n[engines.b]\nplayer = "random"\n[[games]]\ngame = "spelde"\nsize = 5\n'


@pytest.mark.parametrize("text, message", [
    ("seed = " + "9" * 5000 + "\n" + BASE, "<config>: not valid TOML: Exceeds the limit (4300 digits)"),
    (BASE + "[time]\nmove = " + "9" * 400 + "\n", "<config>:9: time.move: expected a number of seconds"),
    (BASE + "[sprt]\nelo0 = " + "9" * 400 + "\nelo1 = 10\n", "<config>:9: sprt.elo0: expected a number"),
    (BASE + "[sprt]\nelo0 = 0\nelo1 = 10\nbeta = -" + "9" * 400 + "\n", "<config>:11: sprt.beta: expected a number"),
])
def test_numbers_past_every_bound_are_config_errors(text: str, message: str) -> None:
    with pytest.raises(C.ConfigError) as info:
        C.loads(text)
    assert str(info.value).startswith(message), info.value


def test_a_config_or_an_openings_file_that_is_not_utf8_is_a_config_error(tmp_path) -> None:
    bad = tmp_path / "t.toml"
    bad.write_bytes(BASE.encode() + b"# \xff\n")
    with pytest.raises(C.ConfigError, match=f"^{bad}: not UTF-8 text: "):
        C.load(bad)
    (tmp_path / "openings.txt").write_bytes(b"c3\n\xff\n")
    good = tmp_path / "o.toml"
    good.write_text(BASE + 'openings = "openings.txt"\n', encoding="utf-8")
    with pytest.raises(C.ConfigError, match=r"o\.toml:8: games\[0\]\.openings: .*openings\.txt is not UTF-8 text"):
        C.load(good)


def test_a_config_or_openings_path_naming_no_regular_file_is_refused_before_reading(tmp_path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)                                  # opening it must not block: nobody writes to it
    for path, what in (("/dev/zero", "a character device"), (fifo, "a FIFO")):
        with pytest.raises(C.ConfigError, match=rf"^{path}: is not a regular file \({what}\)$"):
            C.load(path)
        config = tmp_path / "o.toml"
        config.write_text(BASE + f'openings = "{path}"\n', encoding="utf-8")
        with pytest.raises(C.ConfigError, match=rf"o\.toml:8: games\[0\]\.openings: {path}: "
                                                rf"is not a regular file \({what}\)$"):
            C.load(config)


def test_a_config_over_its_bound_is_refused(tmp_path) -> None:
    big = tmp_path / "big.toml"
    big.write_text(BASE + "#" * C.MAX_CONFIG_BYTES, encoding="utf-8")
    with pytest.raises(C.ConfigError, match=f"^{big}: is larger than 1 MiB$"):
        C.load(big)
    with pytest.raises(C.ConfigError, match="cannot read: No such file or directory"):
        C.load(tmp_path / "missing.toml")
