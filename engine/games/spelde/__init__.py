"""spelde: the rules of the game; ``RULES`` is its GameInfo (the compiled core's when active)."""
from ...compiled import choose
from .state import RULES as PYTHON_RULES

RULES = choose(PYTHON_RULES, __name__)

__all__ = ["RULES"]
