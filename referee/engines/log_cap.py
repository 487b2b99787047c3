"""The default bound of an engine's stderr log, importable without trio (the tournament's config
reads it; :mod:`.capped_log` enforces it)."""
from __future__ import annotations

DEFAULT_LOG_CAP = 4 * 1024 * 1024      # bytes per engine per game
