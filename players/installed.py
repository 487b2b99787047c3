"""hexarena's installed version, read as ``importlib.metadata.version("hexarena")`` reads it but
without importing ``importlib.metadata`` (with its imports, ~20 ms of a served player's start,
where the whole start is under 100 ms).

The distribution's metadata is the first ``hexarena-VERSION.dist-info`` or ``hexarena.egg-info``
folder (any case, ``-`` or ``_``) found along ``sys.path``, as importlib.metadata looks it up; its
``METADATA`` (or ``PKG-INFO``) file's ``Version:`` header is the version.
"""
from __future__ import annotations

import os
import sys

#: The distribution's name, normalized (PEP 503).
NAME = "hexarena"
#: hexarena's version when no metadata is found (a checkout that was never installed).
UNKNOWN = "0.0.0"


def _metadata_file(entry: str) -> str | None:
    """The metadata file of hexarena's distribution in the folder `entry`, or None."""
    try:
        names = os.listdir(entry or ".")
    except OSError:
        return None
    for name in names:
        stem, dot, suffix = name.rpartition(".")
        if suffix not in ("dist-info", "egg-info") or not dot:
            continue
        if stem.partition("-")[0].lower().replace("_", "-").replace(".", "-") != NAME:
            continue
        for leaf in ("METADATA", "PKG-INFO"):
            path = os.path.join(entry or ".", name, leaf)
            if os.path.isfile(path):
                return path
    return None


def version() -> str:
    """hexarena's installed version ("0.0.0" when it is not installed)."""
    for entry in sys.path:
        path = _metadata_file(entry)
        if path is None:
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.strip():            # the end of the headers
                    break
                key, colon, value = line.partition(":")
                if colon and key.strip().lower() == "version":
                    return value.strip()
    return UNKNOWN
