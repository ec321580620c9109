"""Choosing the operator models, and the run-time path's imports (no torch)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.extract import KeyAliasExtractor
from app.engine.retrieve import KeywordRetriever
from app.extract import make_extractor, people_of
from app.people import owner_and_people
from app.retrieve import make_retriever, operator_size
from app.store import EventStore
from tests.retrieve.helpers import at, event, import_events

ROOT = Path(__file__).resolve().parents[2]


def test_sizes_and_the_lexical_baselines(monkeypatch):
    monkeypatch.delenv("LIFELENS_OPERATOR_MODELS", raising=False)
    assert operator_size() == "small"  # the best dev-split answers so far
    assert isinstance(make_retriever("lexical"), KeywordRetriever)
    assert isinstance(make_extractor("lexical"), KeyAliasExtractor)
    monkeypatch.setenv("LIFELENS_OPERATOR_MODELS", "lexical")
    assert operator_size() == "lexical"
    assert operator_size("default") == "default"
    with pytest.raises(ValueError, match="unknown operator model size 'huge'"):
        operator_size("huge")


def test_people_of_a_store(tmp_path):
    me = "Charlotte Hoffmann <charlotte@x.org>"
    senders = ["Anna Becker", "Anna Becker", "Tom Lee", "Tom Lee", "Ben Ode", "Smile Dental Practice"]
    mails = [
        event(f"m{i}", "mail", "Hi", {"from_name": name, "to": [me]}, at(1, 9, i), None) for i, name in enumerate(senders)
    ] + [
        event("m8", "mail", "Re: Hi", {"from_name": "Charlotte Hoffmann", "to": ["Anna Becker <anna@x.org>"]}, at(1, 10), None),
        event("m9", "mail", "Re: Hi", {"from_name": "Charlotte Hoffmann", "to": ["Tom Lee <tom@x.org>"]}, at(1, 11), None),
        event("c1", "calendar", "Coffee", {"attendees": ["Anna Becker", "Ben Ode", "bob@z.org"]}, at(2, 9), 30),
    ]
    with EventStore.open(tmp_path / "e.sqlite") as store:
        import_events(store, mails)
        # the owner, on every mail, is left out; addresses without a name are not people; a sender the owner
        # never wrote to or met (the practice) is not one of their people
        assert people_of(store) == ["Anna Becker", "Tom Lee", "Ben Ode"]
        assert owner_and_people(store) == ("Charlotte Hoffmann", ["Anna Becker", "Tom Lee", "Ben Ode"])
        import_events(store, [event("m7", "mail", "Hi", {"from_name": "Nora Lind", "to": [me]}, at(3, 9), None)])
        assert "Nora Lind" not in people_of(store)


def test_runtime_path_imports_no_torch():
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "import app.retrieve.pipeline, app.extract.model_extractor, app.retrieve.sparse_index\n"
        "import models.cross_encoder, models.extractor, models.splade\n"
        "from app.retrieve import make_retriever\n"
        "from app.extract import make_extractor\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
