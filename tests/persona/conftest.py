"""Shared, expensive fixtures: the dev persona p13 generated once and imported once per test session."""

from __future__ import annotations

import pytest

from app.importing import import_paths
from app.persona.generate import EXPORT_DIRS, generate_persona
from app.store import EventStore

PERSONA = "p13"


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """GenerationResult of p13 (exports and canonical files in a temporary folder)."""
    return generate_persona(PERSONA, tmp_path_factory.mktemp("persona") / PERSONA)


@pytest.fixture(scope="session")
def imported(generated, tmp_path_factory):
    """(store path, ImportSummary) after importing p13's exports with the project's importers."""
    path = tmp_path_factory.mktemp("store") / "events.sqlite"
    with EventStore.open(path) as store:
        summary = import_paths(store, [generated.out / name for name in EXPORT_DIRS])
    return path, summary


@pytest.fixture()
def store(imported):
    with EventStore.open(imported[0], read_only=True) as s:
        yield s
