"""Per-game knowledge for the generic players: evaluations and MCTS evaluators.

Each module ``players/games/<game>.py`` defines ``evaluate(state) -> float``,
Black's advantage in a state that is not over (0: even; its unit is about one
stone or site), and ``SCALE``, the advantage that is worth an expected score
of ``1/(1+e^-1)``. The `heuristic` player maximises it one ply deep; MCTS uses
the evaluator and the selection rule chosen here for each game (random
playouts and UCT unless said).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import cast

from hexarena.engine.actions import Action
from hexarena.engine.game import GameState

from ..evaluators import CutoffPlayout, Evaluation, Evaluator, RandomPlayout, StaticEvaluation
from ..selection import UCT, Rave, Selection
from . import anda, anda_prison, marbanta, spelde, vaxandis

#: The evaluation module of each game id.
MODULES: dict[str, ModuleType] = {
    "anda": anda,
    "anda-prison": anda_prison,
    "spelde": spelde,
    "vaxandis": vaxandis,
    "marbanta": marbanta,
}
#: Marbanta's evaluation serves `heuristic` only (MCTS plays random playouts there).
#: `python -m bench.fit_evaluation docs/ladder/marbanta-*/base docs/ladder/marbanta-*/mcts`
#: (420 games): the former evaluation, the mover's legal roots (greedy's measure), told
#: nothing (log loss 0.69 in every quarter of the game, a coin's; its heuristic scored
#: 22/40 and 7/20 against greedy in the ladder at n=7 and 9). Logistic fits of candidate
#: terms (with the 60 doubling games too, 5-fold by game) found stones (+0.161 logits each,
#: Black's minus White's) and free sites (-0.084) predictive and the legal roots nothing
#: more; `evaluate` is those two (the tool: 0.66, 0.46, 0.38, 0.33 by quarter at SCALE 6).
#: In-process (bench.bench_mcts.score, 20 games, seats alternating), the new heuristic
#: against greedy 20/20 at n=7 and 20/20 at n=9; against the former heuristic 20/20 and
#: 20/20. MCTS still beats it: mcts:1000 (about 1 s a move at n=7) 9/10, mcts:600 at n=9 7/10.

#: MCTS's evaluator per game, where random playouts are not the best choice.
#: Each game's `evaluate` takes that game's own state class (e.g. AndaState); the
#: evaluators take any GameState, so the `cast`s: the registry is keyed by game id
#: and evaluator_for only hands an evaluator states of its own game.
EVALUATORS: dict[str, Callable[[], Evaluator]] = {
    # uniform random playouts of Anda are long (~250 plies at n=9) and noisy: at
    # 0.15 s a move, n=7, 4 games, random playouts scored 0 against greedy and
    # 0 against heuristic; 10 random plies then the evaluation, 3 and 2.
    # Anda's scaling (open). From 1,000 iterations on (~1 s a move at n=7) the search stops
    # gaining: the ladder's mcts:2s against mcts:1s is 19-21 (40 games) and in-process (openings
    # as bench.mcts_duel pairs them, no reuse: `komi=0 keep` then random 2-action openings, each
    # played with both seats, 8 pairs) 2,000 iterations against 1,000 score 8/16, pairs won
    # twice 2-2; the two pick the same move in 18 of 28 positions of ladder games. With the
    # evaluation alone at the leaves (no random plies) the search still gains (2,000 against
    # 1,000: 11/16, 4-1) but is weaker at equal time (2,000 static against 1,000 cut-off: 5/14,
    # 1-3). 4 random plies instead of 10 (same prefix, iterations, 8 pairs a line): 2,000
    # against 1,000 10/16 (2-0), then pairs 8-15 6/16 (1-3): 16/32, no gain either; at about
    # equal time (1,400 against 10 plies' 1,000) 6/16 (1-3); against heuristic 1,400 with 4
    # plies 14/20 (pairs won twice 4-0), 1,000 with 10 plies 17/20 (8-1). Implicit minimax
    # backups (Lanctot et al. 2014: UCT on 0.6 x mean + 0.4 x the subtree's minimax of the
    # squashed evaluation) with 10 plies, 2,000 against 1,000: 6/16 (1-3). The static evaluation
    # is coarse (a stone is ~0.04 after the squash and many replies tie), which the random plies
    # smooth (their values' spread: 0.05-0.13 at 10 plies, 0.02-0.10 at 4).
    # `python -m bench.fit_evaluation docs/ladder/anda-7/mcts docs/ladder/anda-7/base` (280 games):
    # `evaluate` tells nothing in a game's first quarter (log loss 0.858 at SCALE 6, a coin's
    # 0.693, fitted 0.693) and SCALE 6 is too sure later (fitted scales 12, 10, 7 by quarter).
    # Logistic fits of its terms (5-fold by game): stones add nothing once territory and safety
    # are known; territory decides as the board fills, safety while it is open. A candidate
    # fitted so (0.85 x territory x filled share^2 + 0.31 x safety x empty share^2, in logits)
    # predicts far better (log loss by quarter 0.64, 0.53, 0.33, 0.06 against 0.86, 0.61, 0.43,
    # 0.19) but did not play better (in-process duels as above, 8 pairs): with 10 random plies
    # against `evaluate`, 1,000 iterations each, 9/16 (pairs won twice 2-1); 2,000 against 1,000
    # both with it 8/16 (2-2); static at 2,000 against `evaluate`'s 1,000 3/10 (stopped). Nor
    # did a narrower widening (1 + sqrt(visits): 2,000 against 1,000 3/12, stopped) or ordering
    # a node's untried candidates by the evaluation one ply deep once it has 8 visits (2,000
    # against 1,000 3/6, stopped). The one lead: that candidate *static* at the leaves (no
    # playout noise, and not coarse) gains from doubling at about the ladder's budget (~4,400
    # iterations a second): 8,000 against 4,000 8/12 (pairs won twice 2-0), 4,000 against
    # heuristic 13/16 (5-0), but against the current evaluator at about equal time (1,700
    # iterations, 10 random plies) it is weaker: 3/12 (0-3); with 2 random plies before it
    # (3,200 iterations) against the current 1,600, 1/10 (stopped). The 10 random plies are
    # worth more than their noise costs at 1 s, and the noise is what stops the gain from 2 s.
    # Two selection changes, in-process as above (1,000 iterations each, 10 random plies): RAVE
    # (exploration 0.3, equivalence 300) against UCT 2/8 (stopped); the root's children
    # restricted to the best max(8, 1 + 0.5 sqrt(visits)) by the evaluation one ply deep
    # (progressive unpruning) against the full root 6/16 (pairs won twice 0-2); exploration
    # 0.15, 2,000 against 1,000: 5/12 (stopped). But quadrupling does gain: 4,000 against 1,000
    # (exploration 0.3) 9/12, pairs won twice 3-0. So the search does scale, by steps too small
    # for 2x to show in 16-40 games (if a doubling is worth ~+50 Elo, its 95% interval clears 0
    # only after ~200 games).
    "anda": lambda: CutoffPlayout(cast(Evaluation, anda.evaluate), depth=10, scale=anda.SCALE),
    # Anda-prison at 0.15 s a move, n=7, 4 games against heuristic: random
    # playouts 0, 10 plies then the evaluation 0, 3 plies 2, the evaluation alone 2.
    "anda-prison": lambda: StaticEvaluation(cast(Evaluation, anda_prison.evaluate), anda_prison.SCALE),
    # random games reach the ply cap: 20 random plies, then the evaluation. At
    # 0.15 s a move, n=4, 6 games: against greedy 5.5 (depth 8: 5), against
    # heuristic 5 (depth 8: 3.5). With `evaluate` alone MCTS drew won games at the
    # ply cap: the opponent's tallest stacks outgrow ours, so they can never be
    # frozen and keep moving; `evaluate_search` adds that height race and the
    # closeness to a win. In-process, n=4, mcts:360 (~0.15 s a move) against random,
    # W-L-D, seeds 0-9: `evaluate` 6-0-4 (mean 204 plies); + race and closeness
    # 10-0-0 (79 plies; seeds 10-19: 10-0-0, 95 plies); + race only 9-0-1 (100);
    # + closeness only 7-0-3 (174); race and closeness with 4 random plies instead
    # of 20: 4-0-5 of 9 (stopped). But against heuristic (same setting, seeds 0-4)
    # the new terms draw more at the ply cap: `evaluate` 4-0-1, race and closeness
    # 1-0-4 (still a 3/5 score); seeds 0-3: race 0.2 and closeness 2-0-2, closeness
    # only 2-0-2. At n=5 against heuristic: 0-0-2 (stopped, no baseline). Open.
    # n=5 is not solved: in real tournaments (Fischer 300 s + 2 s) mcts:1s drew 2 of 7 games
    # against random at the 500-ply cap (the ladder's 0001, a 12-game probe's 0003): in
    # both the opponent's tallest stack outgrew or kept up with ours, so it never froze. In
    # process, mcts:0.5s with tree reuse against random, seeds 100-111, games won by ply 200
    # (the rest open, none lost): as is 6/12; + a mobility share 5 * (B-W)/(B+W+1) 8/12;
    # the race capped at 40 levels instead of 10: 6/11; + a bonus of 3 for the lead and
    # race weight 1: 0/3 (stopped). Open games mostly trail the race, but not all.
    # Later, mcts:0.25s (or 430 iterations, the same) with reuse against random, seeds
    # 200-215, won by ply 300 (the rest open, none lost): as is 10/16; no weight on the
    # stack count 11/16 (leads the race in all 16 at ply 60, yet 5 open: the opponent keeps
    # ~20 stacks, ~5 of them unfrozen, that our few tall ones cannot all sit beside); a
    # bonus of 2 per stack taller than every enemy stack 11/16; race weight 1 up to 20
    # levels 5/16; race weight 0.25 (430 it.) 7/16; mobility share 5 (430 it.) 8/16; a frozen
    # stack counted as the mean of "frozen by a margin of 1, 3, 6 levels" (0.25 s, so fewer
    # iterations) 5/16; cut-off after 0 random plies
    # 1/16, 6: 3/16, 40: 8/15 (430 it. each). Only the depth matters much: the 20 random
    # plies stay. At 1,700 iterations (about 1 s a move, as in the ladder) and the real ply
    # cap of 500, seeds 200-211: as is 8/12 won against random (4 open: 90% of the points,
    # below the bar), no weight on the stack count 12/12 (it leads the height race by 6-15
    # levels at ply 60 in all 12); but against heuristic that variant scored 0-1-2 (W-L-D,
    # seeds 200-202) at n=5, 1,700 iterations, and 1-0-2 at n=4, 1 s a move (the ladder's
    # n=4 with the stack count: 33-0-7). Kept as is. Half weight on the stack count (same
    # setting): 12/12 against random (leading the race by 5-10 levels at ply 60), but 0-0-3
    # against heuristic (seeds 200-202, all drawn at the cap). Seed 200 traced: the placements
    # ran out by ply 50 with 7 stacks of ours to its 18; then 12 against 30-33, 20-26 of them
    # frozen and the rest keeping 20-50 actions, while our tallest grew from 17 to 113 (theirs
    # 8 to 54), far past the race's cap of 10 levels where it adds nothing: too few stacks to
    # sit beside all of theirs, and the closeness term moves only once they are down to a few
    # actions. Weight 0.75: 6/8 against random (2 open), 0-0-3 against heuristic. Neither
    # adopted: the stack count's weight trades one opponent for the other, and "beats
    # heuristic" at n=5 needs a way to win games that now run to the cap; next, a weight on
    # the enemy's unfrozen stacks once the race is led (any change replays vaxandis-4/5).
    "vaxandis": lambda: CutoffPlayout(cast(Evaluation, vaxandis.evaluate_search), depth=20,
                                      scale=vaxandis.SEARCH_SCALE),
    # playouts misjudge Spelde, random (0 of 6 against greedy at n=5, 0.15 s a
    # move) or by the mobility policy `spelde.policy` (0 of 6; a cut-off after
    # 4 plies of it: 3 of 6): the leaf's mobility evaluation alone scores 6 of 6.
    "spelde": lambda: StaticEvaluation(cast(Evaluation, spelde.evaluate), spelde.SCALE),
}

#: MCTS's selection rule per game, where UCT is not the best choice.
SELECTIONS: dict[str, Selection] = {
    # Anda and Anda-prison value leaves by the evaluation (squashed; one stone is
    # worth ~0.04), so UCT's default exploration of 1 spreads visits almost evenly
    # over a root's ~100 children and the most visited one is noise. In-process, n=7,
    # mcts:0.3s against heuristic: Anda, exploration 1: 3 of 4, 0.3: 6 of 6, 0.1: 5 of 6;
    # Anda-prison (before the candidate order), 1: 4 of 8, 0.3: 6 of 8. With the
    # candidate order and the root's refutation check too, `hexarena tournament` at
    # n=7, mcts:1s, 6 games a pairing (before -> after): Anda against heuristic 4-2 ->
    # 5-1, against greedy 4-2 -> 6-0; Anda-prison 3-3 -> 6-0 and 5-1 -> 5-1.
    "anda": UCT(0.3),
    "anda-prison": UCT(0.3),
    # Spelde too: its leaves are spelde.evaluate squashed by SCALE 3 (one exclusive site
    # ~0.16), and exploration 1 spreads visits over the root's ~25-50 placements. In-process,
    # n=5, 2,000 iterations a move against heuristic, 20 games each, seats alternating:
    # exploration 1: 10/20, 0.3: 13/20, 0.2: 16/20, 0.1: 18/20, 0.03: 14/20; at 0.1,
    # SCALE 1.5: 18/20, 6: 14/20, a tempo bonus for the side to move: 16/20; n=6, 0.1: 15/20.
    # At 0.1, n=5: 2,000 iterations against greedy 17/20; 4,000 against 2,000: 15/20.
    # (1 s a move is ~12,000 iterations at n=5, ~6,000 at n=6: not yet measured there.)
    "spelde": UCT(0.1),
    # RAVE against UCT, 300 iterations a move each, n=7, 8 games: 6 of 8
    # (Spelde, whose leaves are evaluated without playouts: 4 of 8).
    "marbanta": Rave(),
}

Candidates = Callable[[GameState, random.Random], "list[Action] | None"]

#: MCTS's candidates for a node: its legal actions (or a cheap superset of them, where
#: listing the legal ones costs much more than testing one: Anda-prison lists its legal
#: placements by resolving a placement on every empty site; players/mcts.py tests each
#: candidate on expansion) in the order to try them, most promising first.
#: A lister takes (state, rng) and returns the candidates in the order to try them, last
#: first (shuffled by the rng where the game has no preference), or None (list the legal ones).
CANDIDATES: dict[str, Candidates] = {
    "anda": cast(Candidates, anda.candidates),
    "anda-prison": cast(Candidates, anda_prison.candidates),
}

#: Games where MCTS grows a listed inner node by progressive widening in its candidates'
#: order (most promising first) instead of expanding every child before looking deeper.
#: Anda-prison, n=7, `python -m bench.mcts_duel anda-prison 7 A B` (12 pairs of paired random
#: 2-action openings): wide 4000 against wide 1000 (iterations) 12/24, pairs won twice 2-2
#: (most pairs are won by the same colour both times: the pies decide them, and 4 times the
#: search did not help); 0.5s+narrow against 0.5s+wide 14/24, 4-2; 0.5s+narrow against
#: 0.25s+narrow (--first 20) 17/24, 5-0: narrow, the search gains from its time.
#: Anda, n=7, --prefix "komi=0 keep" (a random komi decides its games: bench/ladder.py's
#: PREFIX): 0.5s+narrow against 0.5s+wide (--first 40) 11/16, pairs won twice 3-0;
#: 1s+narrow against 0.5s+narrow (--first 60, 5 pairs) 8/10, 3-0; 1s+wide against 0.5s+wide
#: (--first 60, 6 pairs) 10/12, 4-0.
NARROW: set[str] = {"anda", "anda-prison"}

_cache: dict[str, Evaluator] = {}


def evaluation_for(game_id: str) -> tuple[Callable[[GameState], float], float]:
    """(evaluate, scale) of a game; KeyError for a game without one."""
    module = MODULES[game_id]
    return module.evaluate, module.SCALE


def evaluator_for(state: GameState) -> Evaluator:
    """MCTS's evaluator for the game of `state` (random playouts by default)."""
    game = state.info.id
    if game not in _cache:
        make = EVALUATORS.get(game)
        _cache[game] = make() if make else RandomPlayout()
    return _cache[game]


def candidates_for(state: GameState) -> Candidates | None:
    """The game's candidate lister for MCTS (a superset of the legal actions), or None."""
    return CANDIDATES.get(state.info.id)


def narrow_for(state: GameState) -> bool:
    """Whether MCTS widens listed inner nodes progressively in the game of `state`."""
    return state.info.id in NARROW


def selection_for(state: GameState) -> Selection:
    """MCTS's selection rule for the game of `state` (UCT by default)."""
    return SELECTIONS.get(state.info.id) or UCT()


__all__ = ["MODULES", "EVALUATORS", "SELECTIONS", "CANDIDATES", "candidates_for", "evaluation_for",
           "evaluator_for", "selection_for"]
