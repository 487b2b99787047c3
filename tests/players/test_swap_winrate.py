"""A built-in player's `winrate` is its own chance to win for the colour it holds once its action
is played (docs/protocol.md, "Analysis"): after its `swap` the colour it swapped to."""
from __future__ import annotations

from hexarena.engine import registry
from hexarena.players.insight import evaluation_info


def test_swap_and_keep_on_one_pie_speak_for_the_two_colours():
    # Marbanta's pie: Black placed a black and a white stone; White keeps (holding White) or swaps
    # (holding Black) the same position: the two winrates are one side's chance and the other's
    info = registry.get("marbanta")
    state = info.new_game(info.variant(5, []), 0).play(info.new_game(info.variant(5, []), 0).parse("a1,a2"))
    swap = evaluation_info(state, state.parse("swap"))
    keep = evaluation_info(state, state.parse("keep"))
    assert swap is not None and keep is not None and swap.winrate != 0.5
    assert abs(swap.winrate + keep.winrate - 1) < 1e-3, (swap.line(), keep.line())
