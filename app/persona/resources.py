"""Hand-written vocabularies of the persona generator (resources/persona/*.json), loaded once.

    music = load("music")            # {"pop": [{"artist": ..., "albums": {...}}, ...], ...}
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from app.paths import resource_dir

RESOURCE_DIR = resource_dir("persona")


@lru_cache(maxsize=None)
def load(name: str) -> Any:
    path = RESOURCE_DIR / f"{name}.json"
    with path.open(encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=None)
def track_catalog() -> tuple[dict, ...]:
    """Every track: {"genre", "artist", "album", "track"} in file order."""
    rows = []
    for genre, artists in load("music").items():
        for a in artists:
            for album, tracks in a["albums"].items():
                for t in tracks:
                    rows.append({"genre": genre, "artist": a["artist"], "album": album, "track": t})
    return tuple(rows)
