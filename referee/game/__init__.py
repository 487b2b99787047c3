"""One game between two engines: handshake, opening, turn loop and verdict (``match``), the
clocks (``clock``) and the schedule's openings (``openings``). ``play_game`` returns the game's
``GameRecord``. Imports the ``engines`` room, and ``hexarena.engine``, ``protocol``,
``results.record``."""
