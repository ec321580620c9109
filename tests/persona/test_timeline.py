"""Canonical timelines: size, span and natural timing of all twenty personas."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from app.persona.biography import PERSONA_IDS, make_persona
from app.persona.generate import expected_counts, timeline_for

LOW, HIGH = 34_000, 46_000  # PerQA: 36,322 (dev) .. 44,965 (test) events per persona on average


@pytest.mark.slow
@pytest.mark.parametrize("persona_id", PERSONA_IDS)
def test_every_persona_has_about_forty_thousand_events_over_four_years(persona_id):
    tl = timeline_for(persona_id)
    counts = expected_counts(tl)
    assert LOW <= sum(counts.values()) <= HIGH, counts
    assert set(counts) >= {"music_stream", "podcast_stream", "movie_stream", "tvseries_stream", "workout",
                           "online_purchase", "calendar", "mail"}
    assert tl.p.window_end - tl.p.window_start >= timedelta(days=4 * 365)
    kinds = Counter(e.kind for e in tl.events)
    assert kinds["meeting"] >= 150 and kinds["trip"] >= 4 and kinds["doctor"] >= 8 and kinds["birthday"] >= 20
    assert all(len(e.obs) >= 1 for e in tl.events), "every event is seen in at least one export"


def test_twenty_personas_with_their_own_lives():
    personas = [make_persona(pid) for pid in PERSONA_IDS]
    assert len(personas) == 20
    assert len({p.me.full_name for p in personas}) == 20
    assert len({p.residences[0].city for p in personas}) == 20
    assert sum(1 for p in personas if p.partner) >= 10
    assert sum(1 for p in personas if p.kids) >= 5
    assert sum(1 for p in personas if len(p.jobs) > 1) >= 5     # a new job during the window
    assert sum(1 for p in personas if len(p.residences) > 1) >= 2  # a move
    for p in personas:
        assert len(p.friends) >= 8 and len(p.prefs.fav_artists) >= 4 and len(p.prefs.cuisines) == 3


def test_local_times_are_those_of_a_normal_life():
    tl = timeline_for("p13")
    workouts = [e for e in tl.events if e.kind == "workout"]
    assert all(5 <= e.start.hour <= 21 for e in workouts)
    dinners = [e for e in tl.events if e.kind == "meeting" and e.attrs["activity"] == "dinner"]
    assert all(18 <= e.start.hour <= 22 for e in dinners)
    music = [e for e in tl.events if e.kind == "music_stream"]
    night = [e for e in music if 1 <= e.start.hour < 6 and e.attrs["context"] not in ("travel", "workout")]
    assert len(night) / len(music) < 0.01
    # plays follow each other in sessions: most gaps between consecutive plays are a few seconds
    gaps = [(b.start - a.end).total_seconds() for a, b in zip(music, music[1:])]
    assert sum(1 for g in gaps if 0 <= g <= 3) / len(gaps) > 0.85


def test_trips_take_the_person_to_another_zone_and_country():
    tl = timeline_for("p13")
    trip = next(t for t in tl.trips if t.dest["tz"] != tl.home_info(t.first_day)["tz"])
    inner = trip.first_day + timedelta(days=1)
    assert tl.zone_on(inner).key == trip.dest["tz"]
    plays = [e for e in tl.events if e.kind == "music_stream" and e.start.date() == inner]
    assert all(e.obs[0].data["conn_country"] == trip.dest["cc"] for e in plays)
    assert not [e for e in tl.events if e.kind == "meeting" and trip.first_day <= e.start.date() <= trip.last_day]
