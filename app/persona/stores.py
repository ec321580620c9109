"""A persona's exports generated and imported once into a cached event store, for the bench and training.

    store = persona_store("p13")      # generated + imported the first time (under a minute), then reused

The store is built in a side file and moved into place only when the import has finished, so a run that
was killed half-way never leaves a half-filled store behind. Its meta table records the persona and a
digest of the generator's canonical timeline, so a store made by an older generator is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Callable, Mapping

from app.people import PEOPLE_BOOK, set_people_book
from app.store import EventStore


def home_zone_of(result) -> str:
    """The persona's home zone on its reference date: where its laptop would say it lives."""
    return result.timeline.home_info(result.persona.reference_date)["tz"]

# Part of a cached store's stamp, changed whenever the importers store the same exports differently, so that
# older stores are rebuilt ("zoned": bare UTC instants in the home zone; "amazon-zoned": Amazon's too).
IMPORT_STAMP = "amazon-zoned"
META_PERSONA = "persona"
META_STAMP = "persona_stamp"
META_REFERENCE_DATE = "reference_date"


def default_cache() -> Path:
    return Path(os.environ.get("LIFELENS_BENCH_CACHE", Path.home() / ".cache" / "lifelens-bench"))


def timeline_stamp(persona_id: str, seed: int = 0) -> str:
    """A digest of the canonical timeline: it changes whenever the generator's output would."""
    from app.persona.generate import timeline_for

    digest = hashlib.sha256()
    for event in timeline_for(persona_id, seed).events:
        digest.update(json.dumps(event.to_json(), sort_keys=True, default=str).encode("utf-8"))
    return digest.hexdigest()


def _current(path: Path, persona_id: str, stamp: str) -> bool:
    if not path.exists():
        return False
    try:
        with EventStore.open(path, read_only=True) as store:
            return store.meta(META_PERSONA) == persona_id and store.meta(META_STAMP) == stamp and store.count() > 0
    except Exception:
        return False


def build_store(persona_id: str, path: Path, *, meta: Mapping[str, str] = {}, seed: int = 0, label: str = "",
                say: Callable[[str], None] = lambda text: None) -> None:
    """Generate the persona's exports next to `path` and import them into a fresh store at `path`, whose meta
    table then holds the persona's reference date and `meta`. Built in a side file, moved into place when done."""
    from app.importing import import_paths
    from app.persona.generate import EXPORT_DIRS, generate_persona

    path.parent.mkdir(parents=True, exist_ok=True)
    exports = path.parent / "exports"
    label = label or persona_id  # who the progress messages name
    say(f"Writing {label}'s exports")
    result = generate_persona(persona_id, exports, seed=seed, canonical=False)
    building = path.with_name(path.name + ".building")
    for leftover in (building, Path(f"{building}-wal"), Path(f"{building}-shm")):
        leftover.unlink(missing_ok=True)
    say(f"Importing {label}'s exports")
    with EventStore.open(building) as store:
        import_paths(store, [exports / name for name in EXPORT_DIRS if (exports / name).exists()],
                     home_zone=home_zone_of(result))
        store.set_meta(META_REFERENCE_DATE, result.persona.reference_date.isoformat())
        set_people_book(store, family_book(result.persona))
        for key, value in meta.items():
            store.set_meta(key, value)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.move(str(building), str(path))
    for suffix in ("-wal", "-shm"):
        Path(f"{building}{suffix}").unlink(missing_ok=True)


def persona_store(persona_id: str, *, cache: Path | None = None, seed: int = 0,
                  say: Callable[[str], None] = lambda text: None) -> EventStore:
    path = (cache or default_cache()) / persona_id / "events.sqlite"
    stamp = f"{IMPORT_STAMP}:{timeline_stamp(persona_id, seed)}"
    if not _current(path, persona_id, stamp):
        build_store(persona_id, path, meta={META_PERSONA: persona_id, META_STAMP: stamp}, seed=seed, say=say)
    store = EventStore.open(path)
    if store.meta(PEOPLE_BOOK) is None:  # a store built before the people book
        from app.persona.generate import timeline_for

        set_people_book(store, family_book(timeline_for(persona_id, seed).p))
    return store


def family_book(persona) -> dict[str, str]:
    """The persona's family as the person would enter them in their people book (Settings > People): the
    bench and the demo know who Mum is, as a person who filled in the book does."""
    gendered = {("sibling", "female"): "sister", ("sibling", "male"): "brother",
                ("kid", "female"): "daughter", ("kid", "male"): "son"}
    family = [persona.mother, persona.father, *persona.siblings, *([persona.partner] if persona.partner else []),
              *persona.kids]
    return {p.full_name: gendered.get((p.relation, p.gender), p.relation) for p in family}
