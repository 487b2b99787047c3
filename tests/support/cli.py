"""The `hexarena` command in-process for tests (click's CliRunner; engines are still real processes),
and a fixture that keeps the pre-flight's temporary folders under the test's own tmp_path."""
from __future__ import annotations

import tempfile

import pytest
from click.testing import CliRunner

from hexarena import cli


def invoke(*args: str):
    return CliRunner().invoke(cli.main, list(args), catch_exceptions=False)


@pytest.fixture(autouse=True)
def temporary_folders_in_tmp_path(tmp_path, monkeypatch):
    """The pre-flight's temporary folder under tmp_path, to see that none is left behind
    (autouse in each module that imports it)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
