"""The one error a malformed map file raises."""

from __future__ import annotations


class MapError(ValueError):
    """A map file is malformed; the message names the region and the field."""
