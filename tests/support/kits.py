"""The example engines of the Rust and C kits (core/examples/), built on demand for the tests
that run them: cargo for the Rust engine and the C library (feature `capi`), cc for the C
engine. Builds are release builds in the target folder `kit` under core/target (what .ci/run builds first), a target
folder of their own: the Python extension's build (maturin, in core/target) writes libraries
of the same names without the C ABI."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "core"
TARGET = CORE / "target" / "kit"
RELEASE = TARGET / "release"


def _cargo(*args: str) -> None:
    subprocess.run(["cargo", "build", "--release", "--features", "capi", *args], cwd=CORE, check=True,
                   capture_output=True, env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)})


def tools_missing() -> str | None:
    """Why the kits cannot be built here, or None."""
    for tool in ("cargo", "cc"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    return None


def rust_engine() -> Path:
    """core/examples/hgp_engine.rs, built."""
    path = RELEASE / "examples" / "hgp_engine"
    if not path.is_file():
        _cargo("--example", "hgp_engine")
    return path


def static_library() -> Path:
    """The C library (libhexarena_core.a with the C ABI), built."""
    path = RELEASE / "libhexarena_core.a"
    if not path.is_file():
        _cargo()
    return path


def c_engine(folder: Path) -> Path:
    """core/examples/hgp_engine.c compiled with cc into `folder`."""
    out = folder / "hgp_engine_c"
    subprocess.run(["cc", "-O2", "-I", str(CORE / "include"), str(CORE / "examples" / "hgp_engine.c"),
                    str(static_library()), "-lpthread", "-ldl", "-lm", "-o", str(out)], check=True)
    return out
