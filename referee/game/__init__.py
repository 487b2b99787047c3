"""One game between two engines: handshake, opening, turn loop and verdict (``match``), the
clocks (``clock``) and the schedule's openings (``openings``). ``referee`` returns how the game
ended (``faults``: a value, never an exception), its ``GameRecord`` and the states played;
``play_game`` the record alone. Imports the ``engines`` room, and ``hexarena.engine``, ``protocol``,
``results.record``."""
