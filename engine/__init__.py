"""The rules of the five hexarena games: pure Python, standard library only.

No I/O, no clock, no global random state. States are immutable values; text
is parsed into typed actions at the boundary (``engine.notation``).
"""
