"""What a long run holds per game: sending a scheduled game to a worker process keeps nothing."""
from __future__ import annotations

import gc
import tracemalloc

from hexarena.referee.tournament.schedule import schedule
from hexarena.referee.tournament.wire import frame
from tests.support.tournament import spelde_config


def test_sending_each_scheduled_game_to_a_worker_keeps_no_memory_per_game():
    games = schedule(spelde_config(1000))                     # the run's schedule, kept for the whole run
    assert len(games) == 1000
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for game in games:
            frame(("play", 0, game))                          # what the runner sends for each game
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 8 * len(games), f"{kept / len(games):.1f} bytes a game kept"
