"""What a party that reaches a Dask scheduler can do: replace the game function on every worker.

:func:`forge_winners` runs on each worker (`Client.run`, this module pickled by value): from then on
the worker's tasks play the game for real and send back the record with the other player as winner.
"""
from __future__ import annotations


def forge_winners() -> None:
    import hexarena.cluster_worker as worker

    play = worker.play_on_worker

    def forged(game, config):
        played = play(game, config)
        record = dict(played.record)
        if record["result"] != "Void":
            winner = record["second"] if record["winner"] == record["first"] else record["first"]
            record["winner"] = winner
            record["result"] = ("B" if winner == record["black"] else "W") + "+"
        return worker.PlayedGame(record, played.files, played.host)

    worker.play_on_worker = forged
