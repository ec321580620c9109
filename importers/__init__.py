"""Importers: one module per export format, each turning files into a stream of `Event`s.

Each module defines `IMPORTERS`, a list of importer objects (see `importers.base.Importer`).
`all_importers()` returns them in detection order: the first whose `detect` says yes reads the file.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from importers.base import Event, Importer, InputFile, Record, RecordError

# Detection order matters only where two formats could claim one file; content checks keep that rare.
IMPORTER_MODULES = (
    "importers.spotify",
    "importers.netflix",
    "importers.amazon",
    "importers.apple_health",
    "importers.ics",
    "importers.mbox",
)


@lru_cache(maxsize=1)
def all_importers() -> tuple[Importer, ...]:
    found: list[Importer] = []
    for module_name in IMPORTER_MODULES:
        module = importlib.import_module(module_name)
        found.extend(module.IMPORTERS)
    return tuple(found)


def importer_for(file: InputFile) -> Importer | None:
    for importer in all_importers():
        if importer.detect(file):
            return importer
    return None


__all__ = ["Event", "Importer", "InputFile", "Record", "RecordError", "all_importers", "importer_for"]
