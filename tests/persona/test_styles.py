"""Style variants: the same life written in other styles (app.persona.styles), for training data only.

A variant builds and imports with the project's importers, writes other text, and keeps the canonical events
of its persona; the default style writes every persona exactly as before (hashes of p13's files)."""

from __future__ import annotations

import hashlib

import pytest

from app.importing import import_paths
from app.persona.generate import expected_counts, timeline_for
from app.persona.render_ics import render_ics
from app.persona.render_mbox import render_mbox
from app.persona.splits import persona_split, style_variants
from app.persona.storeids import StoreIdMapper
from app.persona.styles import STYLES, UNTITLED, split_variant
from app.store import EventStore

BASE = "p01"

# p13's calendars, mailbox and canonical events as the generator wrote them before styles existed
# (commit 1f6b4c8): the DEV and TEST benchmarks depend on these bytes.
P13_SHA256 = {
    "Takeout/Calendar/Birthdays.ics": "d4f0a5b885c3311ca685b8256e3d5498371b623f76f68b7c9c1223c4cefe4ddb",
    "Takeout/Calendar/Work.ics": "2cce9749d920f01a5feef1422a59f729e624fbfd662cdafcaffb8acad873377f",
    "Takeout/Calendar/anna.schwarz@yahoo.com.ics": "b96a144157e1c44de6d7ed1f00ebc2819897cb8225cf6a3068a6b57e05a033e9",
    "Takeout/Mail/All mail Including Spam and Trash.mbox": "1714b23fdbf0c2a953cfc9346d3ee709ec87deadc051177c886274884b4ef4b1",
    "amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv": "76721aaa583afa386520174dc7e34b9dbc1c5758f3d774e92b835ecd3e27b07a",
    "canonical/events.jsonl": "4202b2243ddfa15db784e0f198469cf3c0fac5f5d851b84c4778fa1e89258530",
    "canonical/manifest.json": "4a34fc5a1d1d5f62de2311d02393ac38040fa76e6d694b04299fdecaaaf0e357",
}


def test_the_default_style_writes_p13_byte_for_byte_as_before(generated):
    assert generated.persona.id == "p13"
    got = {name: hashlib.sha256((generated.out / name).read_bytes()).hexdigest() for name in P13_SHA256}
    assert got == P13_SHA256


@pytest.fixture(scope="module", params=["diary", "terse"])
def variant(request, tmp_path_factory):
    """(timeline, store path, ImportSummary) of p01 in a style; only the calendars and the mailbox (what
    styles write) are rendered and imported."""
    tl = timeline_for(f"{BASE}~{request.param}")
    out = tmp_path_factory.mktemp("styled")
    render_ics(tl, out)
    render_mbox(tl, out)
    path = out / "events.sqlite"
    with EventStore.open(path) as store:
        summary = import_paths(store, [out / "Takeout"])
    return tl, path, summary


def test_a_variant_imports_without_errors_into_the_expected_events(variant):
    tl, path, summary = variant
    assert summary.errors == [] and all(f.status == "done" for f in summary.files)
    with EventStore.open(path, read_only=True) as store:
        got = {source: store.count(source) for source in store.source_names()}
        assert got == {k: v for k, v in expected_counts(tl).items() if k in ("calendar", "mail")}
        mapper = StoreIdMapper(store, tl)
        missing = [o.id for e in tl.events for o in e.obs if o.fmt in ("ics", "mbox")
                   and mapper.find(o.locator) is None]
    assert missing == []


def test_a_variant_keeps_its_persona_s_canonical_events():
    base = timeline_for(BASE)
    for style in ("diary", "terse"):
        styled = timeline_for(f"{BASE}~{style}")
        assert styled.p.id == BASE
        assert [(e.id, e.kind, e.start, e.end, e.attrs) for e in styled.events] == \
               [(e.id, e.kind, e.start, e.end, e.attrs) for e in base.events]


def _texts(tl, fmt: str) -> set[str]:
    key = "summary" if fmt == "ics" else "subject"
    return {o.data[key] for e in tl.events for o in e.obs if o.fmt == fmt and "same_as" not in o.data}


def test_a_variant_writes_other_text():
    base = timeline_for(BASE)
    diary, terse = timeline_for(f"{BASE}~diary"), timeline_for(f"{BASE}~terse")
    assert len(_texts(terse, "ics") - _texts(base, "ics")) > 50
    assert "" in _texts(terse, "ics")                                   # untitled entries
    mails = [o.data for e in diary.events for o in e.obs if o.fmt == "mbox" and "same_as" not in o.data]
    notes = [d for d in mails if d["from"] == d["to"][0] or ".notes@" in d["to"][0][1]]
    assert len(notes) > 100
    receipts = [o for e in terse.events for o in e.obs if o.fmt == "mbox" and "same_as" not in o.data
                and ("Total:" in o.data["body"] or "<table" in o.data["html"])]
    assert receipts


def test_styled_records_say_what_they_leave_out():
    tl = timeline_for(f"{BASE}~terse")
    untitled = [o for e in tl.events for o in e.obs if o.fmt == "ics" and o.data["summary"] == ""]
    assert untitled and all(o.withheld == (UNTITLED,) for o in untitled)
    tl = timeline_for(f"{BASE}~diary")
    shared = [(e, o) for e in tl.events for o in e.obs if "same_as" in o.data and o.fmt == "mbox" and o.withheld]
    assert shared
    for event, link in shared[:50]:   # a day note about several events gives no gold for the others' keys
        record = next(o for e in tl.events for o in e.obs if o.id == link.data["same_as"])
        first = next(e for e in tl.events if record in e.obs)
        assert set(first.attrs) - set(event.attrs) <= set(link.withheld)
    for event in tl.of_kind("meeting"):
        for o in event.obs:
            if o.withheld and UNTITLED not in o.withheld and "cuisine" in event.attrs and "cuisine" not in o.withheld:
                text = (o.data.get("body") or o.data.get("summary") or "").lower()
                record = o if "same_as" not in o.data else None
                if record is not None:
                    assert any(x.lower() in text for x in (event.attrs["cuisine"], event.attrs.get("dish", "")))


def test_variants_exist_for_train_personas_only():
    assert persona_split("p03~diary") == "train"
    assert style_variants("terse")[0] == "p01~terse" and len(style_variants("terse")) == 12
    for pid in ("p13~diary", "p15~terse"):
        with pytest.raises(ValueError):
            persona_split(pid)
        with pytest.raises(ValueError):
            timeline_for(pid)
    with pytest.raises(ValueError):
        split_variant("p03~shouty")
    assert split_variant("p03") == ("p03", STYLES["default"])
