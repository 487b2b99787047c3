"""The referee: engine processes, deadlines and clocks, the turn loop, tournaments, the check tool
and the console view, in rooms (subpackages); every module lives in one.

* ``engines``    engine processes: spawn under resource limits, the HGP channel with its
                 deadlines, stderr logs, transcripts, leftover processes. Imports protocol.
* ``game``       one game: the turn loop (which returns how the game ended), clocks, openings.
                 Imports engines, and engine, protocol, results.record.
* ``tournament`` a run: config, schedule and growth, the engine pool of a slot, the runner and
                 its journal writer, the pre-flight. Imports engines, game, and results.
* ``console``    what a terminal shows of a run (live panel, plain lines). Imports tournament
                 (the schedule's games) and results.
* ``check``      ``hexarena check``: an engine's protocol compliance. Imports engines.

``tests/test_layering.py`` holds these arrows (REFEREE_ROOMS). Only the package root
(``hexarena/``) calls ``trio.run``.
"""
