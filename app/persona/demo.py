"""The demo persona: a dev persona's exports generated and imported on first use.

    store = ensure_demo_store(data_dir() / "demo" / "events.sqlite")   # ~half a minute the first time

The store's meta table pins "today" (`reference_date`, read by the app) to the persona's reference
date, so that "last month" means the persona's last month. A store that is complete (same persona and
generator version) is reused; a half-built one is never opened: building happens in a side file that
replaces the target only when the import has finished.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from app.persona.splits import DEMO_PERSONA
from app.persona.stores import build_store
from app.store import EventStore

DEMO_VERSION = "2"  # 2: Spotify and Netflix times in the persona's zone
META_PERSONA = "demo_persona"
META_VERSION = "demo_version"


def _complete(path: Path) -> bool:
    if not path.exists():
        return False
    try:
        with EventStore.open(path, read_only=True) as store:
            return (store.meta(META_PERSONA) == DEMO_PERSONA and store.meta(META_VERSION) == DEMO_VERSION
                    and store.count() > 0)
    except Exception:
        return False


def ensure_demo_store(path: str | Path, *, say: Callable[[str], None] | None = None, seed: int = 0) -> EventStore:
    """The demo persona's event store at `path`, built first when it is missing or incomplete."""
    path = Path(path)
    if not _complete(path):
        build_store(DEMO_PERSONA, path, meta={META_PERSONA: DEMO_PERSONA, META_VERSION: DEMO_VERSION}, seed=seed,
                    label="the demo persona", say=say or (lambda text: None))
    return EventStore.open(path)
