"""The referee: engine processes, deadlines and clocks, the turn loop, the
tournament schedule and runner, journal and SGF writers, and the CLI.

Imports ``engine``, ``protocol`` and ``results``; only ``referee.cli`` (the
composition root) may import ``players`` and call ``trio.run``.
"""
