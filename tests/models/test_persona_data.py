"""Training cases from style variants (app.persona.styles) take no gold a record does not give."""

from __future__ import annotations

import json
import random

import pytest

from app.importing import import_paths
from app.persona.generate import timeline_for
from app.persona.render_ics import render_ics
from app.persona.render_mbox import render_mbox
from app.persona.storeids import StoreIdMapper
from app.persona.styles import UNTITLED
from app.store import EventStore
from models.train.persona_data import PersonaStore, _extract_cases, extract_cases, persona_store, template_queries


@pytest.fixture(scope="module", params=["p01~diary", "p01~terse"])
def styled(request, tmp_path_factory):
    """A PersonaStore of a variant's calendars and mailbox (no index)."""
    tl = timeline_for(request.param)
    out = tmp_path_factory.mktemp("styled")
    render_ics(tl, out)
    render_mbox(tl, out)
    store = EventStore.open(out / "events.sqlite")
    import_paths(store, [out / "Takeout"])
    yield PersonaStore(request.param, store, tl, StoreIdMapper(store, tl), None, tl.p.reference_date)
    store.close()


def _key(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def test_extract_cases_leave_out_what_a_record_does_not_tell(styled):
    raw = _extract_cases(styled, per_kind=15)
    cases = extract_cases(styled, per_kind=15)
    assert styled.withheld() and len(cases) < len(raw)
    untitled = styled.untitled()
    withheld = {(sid, key, _key(event.attrs.get(key))) for sid, links in styled.withheld().items() if sid not in untitled
                for event, keys in links for key in keys}
    for case in cases:
        if case.event.id in untitled:
            assert case.value is None
        else:
            assert (case.event.id, case.key, _key(case.value)) not in withheld


def test_template_queries_count_no_record_that_leaves_the_attribute_out(styled):
    tl = styled.timeline
    obs = {o.id: o for e in tl.events for o in e.obs}
    keyed = {"cuisine": "food", "participants": "meetings with", "activity": "with friends"}
    checked = 0
    for query, ids in template_queries(tl, random.Random(3)):
        for oid in ids:
            o = obs.get(oid)
            if o is None:
                continue  # a whole event: none of its records withholds anything asked
            assert UNTITLED not in o.withheld
            for key, words in keyed.items():
                if words in query and query != "meetings with friends":
                    assert key not in o.withheld
                    checked += 1
    assert checked


def test_persona_store_refuses_variants_of_dev_and_test_personas():
    for pid in ("p13~diary", "p16~terse"):
        with pytest.raises(ValueError):
            persona_store(pid, log=lambda _: None)
