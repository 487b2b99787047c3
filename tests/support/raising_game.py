"""A game module with a bug that raises on import (not an ImportError), as an added game's
module may: ``HEXARENA_GAMES=tests.support.raising_game:RULES`` adds no game, and says why."""
from tests.support.tiny_game import RULES  # noqa: F401 (the attribute the setting names)

raise RuntimeError("a bug in the game's module")
