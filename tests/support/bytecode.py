"""hexarena's modules compiled to bytecode, as an installed package has them.

Under PYTHONDONTWRITEBYTECODE (set on some machines) no process writes its
bytecode, so every process of a run or a test (the referee, worker processes,
every built-in engine) compiles the modules it imports again: ~0.1-0.25 s of
CPU each. Compiling them once beforehand gives each process the cached code.
"""
from __future__ import annotations

import compileall
import importlib.util
import subprocess
from pathlib import Path

SUBPACKAGES = ("engine", "protocol", "players", "referee", "results")


def compile_package() -> None:
    """Write the bytecode of hexarena's modules (a module whose bytecode is current is skipped)."""
    for name in ("hexarena", *(f"hexarena.{sub}" for sub in SUBPACKAGES)):
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1)


def compile_with(python: str, cwd: Path) -> None:
    """The same, for the hexarena that the interpreter `python` imports from `cwd` (another
    checkout's environment): this file run as a script there."""
    subprocess.run([python, str(Path(__file__).resolve())], cwd=cwd, check=True, timeout=600)


if __name__ == "__main__":
    compile_package()
