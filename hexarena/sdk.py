"""hexarena's engine kit for Python: subclass :class:`Engine`, fill in ``choose``, call
:func:`run` (docs/engines.md). The names of ``hexarena.players.sdk``, where they are defined."""
from hexarena.players.sdk import *  # noqa: F401,F403
from hexarena.players.sdk import __all__  # noqa: F401
