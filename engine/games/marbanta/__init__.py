"""marbanta: the rules of the game; ``RULES`` is its GameInfo."""
from .state import RULES

__all__ = ["RULES"]
