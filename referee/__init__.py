"""The referee: engine processes, deadlines and clocks, the turn loop, the
tournament schedule and runner, journal and SGF writers.

Imports ``hexarena.engine``, ``hexarena.protocol`` and ``hexarena.results``;
only ``hexarena.cli`` (the composition root) may import ``players`` and call
``trio.run``.
"""
