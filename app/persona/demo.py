"""The demo persona: a dev persona's exports generated and imported on first use.

    store = ensure_demo_store(data_dir() / "demo" / "events.sqlite")   # ~half a minute the first time

The store's meta table pins "today" (`reference_date`, read by the app) to the persona's reference
date, so that "last month" means the persona's last month. A store that is complete (same persona and
generator version) is reused; a half-built one is never opened: building happens in a side file that
replaces the target only when the import has finished.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

from app.persona.splits import DEMO_PERSONA
from app.persona.stores import home_zone_of
from app.store import EventStore

DEMO_VERSION = "2"  # 2: Spotify and Netflix times in the persona's zone
META_PERSONA = "demo_persona"
META_VERSION = "demo_version"
META_REFERENCE_DATE = "reference_date"


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
    from app.importing import import_paths
    from app.persona.generate import EXPORT_DIRS, generate_persona

    path = Path(path)
    say = say or (lambda text: None)
    if not _complete(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        exports = path.parent / "exports"
        say("Writing the demo persona's exports")
        result = generate_persona(DEMO_PERSONA, exports, seed=seed, canonical=False)
        building = path.with_name(path.name + ".building")
        for leftover in (building, Path(str(building) + "-wal"), Path(str(building) + "-shm")):
            leftover.unlink(missing_ok=True)
        say("Importing the demo persona's exports")
        with EventStore.open(building) as store:
            import_paths(store, [exports / name for name in EXPORT_DIRS if (exports / name).exists()],
                         home_zone=home_zone_of(result))
            store.set_meta(META_REFERENCE_DATE, result.persona.reference_date.isoformat())
            store.set_meta(META_PERSONA, DEMO_PERSONA)
            store.set_meta(META_VERSION, DEMO_VERSION)
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        shutil.move(str(building), str(path))
        for suffix in ("-wal", "-shm"):
            Path(str(building) + suffix).unlink(missing_ok=True)
    return EventStore.open(path)
