"""Which program wrote a save: ``imperial <version>`` as installed.

Every save records it, and ``imperial play FILE`` saves before the app's first frame, where
``importlib.metadata`` costs 20-30 ms (its import, its search of every folder on the path, its
e-mail parser for the metadata): so the installed ``imperial-*.dist-info`` is read here first,
found as ``importlib.metadata`` finds it, and ``importlib.metadata`` answers anything else.
"""

from __future__ import annotations

import os
import re
import sys


def program_version() -> str:
    """``imperial <version>`` as installed; 0.1.0 when running from a bare source tree
    (``installed_version`` first: the module's docstring says why)."""
    found = installed_version()
    if found is not None:
        return f"imperial {found}"
    try:
        from importlib.metadata import PackageNotFoundError, version

        return f"imperial {version('imperial')}"
    except (ImportError, PackageNotFoundError):
        return "imperial 0.1.0"


def installed_version(name: str = "imperial") -> str | None:
    """The ``Version`` of the first metadata folder of distribution ``name`` on ``sys.path``
    (folders in the path's order, entries in the folder's order, names compared as
    ``importlib.metadata`` normalises them), if it is a plain ``.dist-info`` folder with a
    ``METADATA`` file naming one; None for anything else (an ``.egg-info``, a zip file on the
    path, unreadable metadata, nothing found), which ``importlib.metadata`` then answers."""
    wanted = _normalised(name)
    for folder in sys.path:
        root = folder or "."
        try:
            if os.path.isfile(root):  # (a zip archive: importlib.metadata looks inside)
                return None
            names = os.listdir(root)
        except OSError:
            continue
        for entry in names:
            low = entry.lower()
            if not low.endswith((".dist-info", ".egg-info")):
                continue
            if _normalised(low.rpartition(".")[0].partition("-")[0]) != wanted:
                continue
            if low.endswith(".egg-info"):
                return None
            try:
                with open(os.path.join(root, entry, "METADATA"), encoding="utf-8") as f:
                    for line in f:
                        if not line.strip():
                            break  # (the end of the headers)
                        key, colon, value = line.partition(":")
                        if colon and key.strip().lower() == "version":
                            return value.strip() or None
            except OSError:
                return None
            return None
    return None


def _normalised(name: str) -> str:
    """A distribution name as ``importlib.metadata`` compares them (PEP 503, ``_`` for ``-``)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")
