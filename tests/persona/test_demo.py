"""The demo persona: built on first use, then reused."""

from __future__ import annotations

from app.persona.demo import META_PERSONA, ensure_demo_store
from app.persona.splits import DEMO_PERSONA, PERSONAS


def test_demo_store_is_built_once_and_pins_today(tmp_path, generated):
    path = tmp_path / "demo" / "events.sqlite"
    messages = []
    store = ensure_demo_store(path, say=messages.append)
    try:
        assert DEMO_PERSONA in PERSONAS["dev"]
        assert store.meta("reference_date") == generated.persona.reference_date.isoformat()
        assert store.meta(META_PERSONA) == DEMO_PERSONA
        assert {s: store.count(s) for s in store.source_names()} == generated.counts_by_source
    finally:
        store.close()
    assert messages == ["Writing the demo persona's exports", "Importing the demo persona's exports"]
    assert not (tmp_path / "demo" / "events.sqlite.building").exists()
    built = path.stat().st_ino
    again = ensure_demo_store(path, say=messages.append)
    again.close()
    assert path.stat().st_ino == built and len(messages) == 2  # the same file reused, not rebuilt
