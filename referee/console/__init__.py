"""What a terminal shows of a running tournament: progress, standings and one line per game
(``live``), and the rich panel redrawn in place (``panel``). Imports the ``tournament`` room (the
schedule's games) and ``hexarena.results``."""
