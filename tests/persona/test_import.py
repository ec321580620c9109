"""The rendered exports import with the project's importers, and gold ids map to store ids."""

from __future__ import annotations

from app.persona.storeids import StoreIdMapper, store_ids_for


def test_every_file_is_recognised_and_read_without_errors(imported):
    _, summary = imported
    assert [f.status for f in summary.files] == ["done"] * len(summary.files)
    assert summary.errors == []
    importers = sorted({f.importer for f in summary.files})
    assert importers == ["amazon_orders", "apple_health", "ics", "mbox", "netflix_activity", "spotify"]


def test_store_holds_exactly_the_expected_events_per_source(generated, store):
    got = {source: store.count(source) for source in store.source_names()}
    assert got == generated.counts_by_source
    assert sum(got.values()) == sum(1 for e in generated.timeline.events for o in e.obs if "same_as" not in o.data)


def test_each_observation_maps_to_its_own_store_event(generated, store):
    mapper = StoreIdMapper(store, generated.timeline)
    record_of: dict[str, str] = {}
    missing = []
    for event in generated.timeline.events:
        for obs in event.obs:
            sid = mapper.find(obs.locator)
            if sid is None:
                missing.append(obs.id)
                continue
            record = obs.data.get("same_as", obs.id)  # one mail may describe several events
            assert record_of.setdefault(sid, record) == record
    assert missing == []
    assert len(record_of) == store.count()


def test_store_ids_for_a_meeting_seen_in_calendar_and_mail(generated, store):
    tl = generated.timeline
    meeting = next(e for e in tl.events if e.kind == "meeting" and {o.fmt for o in e.obs} == {"ics", "mbox"})
    ids = store_ids_for([meeting.id], store, timeline=tl)
    events = store.get(ids)
    assert len(events) == len(meeting.obs)
    assert {e.source for e in events} == {"calendar", "mail"}
    first_obs = store_ids_for([meeting.obs[0].id], store, timeline=tl)
    assert len(first_obs) == 1 and first_obs <= ids
