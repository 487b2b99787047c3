"""hexarena: referee and tournament runner for two-player games on hexagonal boards.

One installed import name. Its subpackages live in top-level folders of the
repository and are mapped here by ``pyproject.toml``:

    hexarena.engine    engine/    the rules of the five games (stdlib only)
    hexarena.protocol  protocol/  HGP, sans-I/O
    hexarena.players   players/   built-in bots, served over HGP
    hexarena.referee   referee/   trio: processes, clocks, the turn loop, tournaments
    hexarena.results   results/   records, ratings and reports
    hexarena.cli                  the click CLI, the composition root
"""
