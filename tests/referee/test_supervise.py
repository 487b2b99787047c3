"""The CLI's supervision of a run (hexarena/supervise.py): the work it does beside the games in a
thread of its own reports its errors instead of dropping them."""
from __future__ import annotations

import threading

import pytest

from hexarena.supervise import Preload


def test_a_preload_runs_in_its_own_thread_and_its_error_is_reported_when_the_run_ends():
    said: list[str] = []
    ran_in: list[str] = []

    def load() -> None:
        ran_in.append(threading.current_thread().name)
        raise ImportError("No module named 'pandas'")

    preload = Preload(load, "importing the final tables", said.append)
    preload.start()
    preload.finish()
    assert ran_in == ["hexarena-preload"]
    assert said == ["importing the final tables failed in advance: ImportError: No module named 'pandas'"]


def test_a_preload_that_works_or_never_started_says_nothing():
    said: list[str] = []
    loaded: list[bool] = []
    done = Preload(lambda: loaded.append(True), "importing", said.append)
    done.start()
    done.finish()
    Preload(lambda: loaded.append(False), "importing", said.append).finish()     # the run ended before the games
    assert loaded == [True] and said == []


@pytest.mark.parametrize("collecting", [True, False])
def test_a_run_starts_without_collections_and_freezes_what_its_start_made(collecting):
    import gc

    from hexarena.supervise import starting
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        with starting():
            assert not gc.isenabled()
            made = [[] for _ in range(10)]
            frozen_inside = gc.get_freeze_count()
        assert gc.isenabled() is collecting and gc.get_freeze_count() >= frozen_inside + len(made)
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
