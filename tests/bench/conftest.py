"""A small real event store (tests.retrieve.helpers.small_life) for the bench tests."""

import pytest

from app.store import EventStore
from tests.retrieve.helpers import import_events, small_life


@pytest.fixture
def store(tmp_path):
    with EventStore.open(tmp_path / "events.sqlite") as s:
        import_events(s, small_life())
        yield s
