"""The RETRIEVE and EXTRACT baselines on the test store."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from app.engine.expr import EvalContext, compile_converter
from app.engine.extract import KeyAliasExtractor, candidates, resolve
from app.engine.retrieve import KeywordRetriever, plan_query, variants
from app.engine.syntax import FuncRef
from app.engine.values import Item

from .conftest import REFERENCE


def titles(items):
    return sorted(i.attrs["title"] for i in items)


@pytest.mark.parametrize(
    "query, sources, words, time_words",
    [
        ("songs I listened to", ("music_stream",), (), ()),
        ("I listened to music", ("music_stream",), (), ()),
        ("my online purchases in March 2022", ("online_purchase",), (), ("march", "2022")),
        ("I bought a product online", ("online_purchase",), (), ()),
        ("I went running", (), ("running",), ()),
        ("I met with my mum", (), ("mum",), ()),
        ("my doctor's appointments", ("calendar",), ("doctor",), ()),
        ("mails from Robert", ("mail",), ("robert",), ()),
        ("movies I watched on Netflix", ("movie_stream", "tvseries_stream"), (), ()),
        ("my football training sessions with datetime", ("workout",), ("football",), ()),
        ("I was in Bali, Indonesia", (), ("bali", "indonesia"), ()),
        ("songs listened to while running with artist names", ("music_stream",), ("running",), ()),
    ],
)
def test_plan_query(query, sources, words, time_words):
    plan = plan_query(query)
    assert (plan.sources, plan.words, plan.dropped_time_words) == (sources, words, time_words)


def test_variants():
    assert variants("restaurants") == ["restaurants", "restaurant"]
    assert variants("football") == ["football", "footballs", "soccer"]
    assert variants("activities") == ["activities", "activity"]


def test_source_words_take_the_whole_source(life_store):
    retriever = KeywordRetriever()
    songs = retriever.retrieve("songs I listened to", life_store, REFERENCE)
    assert len(songs) == 12 and {i.attrs["source"] for i in songs} == {"music_stream"}
    assert [i.ids for i in songs] == [(i.attrs["id"],) for i in songs]
    assert titles(retriever.retrieve("my online purchases", life_store, REFERENCE)) == [
        "Coffee beans", "Cosmic Funk (CD)", "Desk lamp", "Running shoes", "USB cable"
    ]
    assert retriever.last_problems == []


def test_content_words_are_searched_with_variants_and_synonyms(life_store):
    retriever = KeywordRetriever()
    assert titles(retriever.retrieve("I met with my mum", life_store, REFERENCE)) == [
        "Dinner with Mum", "Lunch with Mum", "Theatre with Mum"
    ]
    assert titles(retriever.retrieve("I played football", life_store, REFERENCE)) == ["Soccer workout", "Soccer workout"]
    assert titles(retriever.retrieve("restaurants I visited", life_store, REFERENCE)) == [
        "Dinner at Locavore restaurant", "Dinner at Luigi's restaurant", "Dinner at Warung Made restaurant"
    ]
    assert titles(retriever.retrieve("my doctor's appointments", life_store, REFERENCE)) == [
        "Doctor appointment Dr. Weber", "Doctor check-up", "Doctor follow-up"
    ]


def test_several_words_keep_full_matches_and_strong_partial_ones(life_store):
    retriever = KeywordRetriever()
    assert titles(retriever.retrieve("I was in Bali, Indonesia", life_store, REFERENCE)) == ["Trip to Bali, Indonesia"]
    # "Robert" and "park": full matches plus events about only one of them that score close to the best
    found = titles(retriever.retrieve("Robert park", life_store, REFERENCE))
    assert {"Walk with Robert", "Picnic"} <= set(found)


def test_problems_are_reported(life_store):
    retriever = KeywordRetriever()
    assert retriever.retrieve("what did I do", life_store, REFERENCE) == []
    assert retriever.last_problems == ["the query 'what did I do' has no searchable words"]
    assert retriever.retrieve("podcasts", life_store, REFERENCE) == []
    assert retriever.last_problems == ["no podcast_stream events are imported"]
    small = KeywordRetriever(max_results=5)
    assert len(small.retrieve("songs", life_store, REFERENCE)) == 5
    assert small.last_problems == ["more than 5 events match; the result was cut"]


def test_extract_aliases(events_by_title):
    song = Item.from_event(events_by_title["Daft Punk - Get Lucky"])
    mail = Item.from_event(events_by_title["Pictures from the picnic"])
    meeting = Item.from_event(events_by_title["Picnic"])
    purchase = Item.from_event(events_by_title["Coffee beans"])
    run = Item.from_event(next(e for t, e in events_by_title.items() if t == "Running workout"))
    assert resolve(song, "artist_names") == "Daft Punk"
    assert resolve(song, "song") == "Get Lucky"
    assert resolve(song, "duration") == 180.0
    assert resolve(song, "duration_min") == 3.0
    assert resolve(song, "listen_date") == date(2024, 3, 3)
    assert resolve(song, "start_time") == time(18, 10)
    assert resolve(song, "end_datetime") == datetime(2024, 3, 3, 18, 13, tzinfo=song.attrs["start"].tzinfo)
    assert resolve(mail, "participants") == ("Robert Miller", "me@example.org", "anna@example.org")
    assert resolve(mail, "sender") == "Robert Miller"
    assert resolve(meeting, "participants") == ["Robert Miller", "Anna Lee"]
    assert resolve(meeting, "appointment_details") == "Picnic"
    assert resolve(purchase, "amount_spent") == 21.0
    assert resolve(purchase, "purchase_date") == date(2023, 11, 2)
    assert resolve(run, "workout") == "running"
    assert resolve(run, "distance") in (5.2, 7.0, 6.1)
    assert resolve(song, "restaurant_name").__class__.__name__ == "Missing"
    # where a calendar entry happened is its location, for a restaurant as for a place or a venue
    dinner = Item.from_event(events_by_title["Dinner at Locavore restaurant"])
    assert resolve(dinner, "restaurant") == resolve(dinner, "place") == "Locavore, Ubud"
    assert resolve(song, "restaurant").__class__.__name__ == "Missing"
    assert candidates("end_date") == ("end_date",)
    assert candidates("Purchase Date") == ("Purchase Date", "purchase_date", "start_date")
    assert candidates("finish_time") == ("finish_time", "end_time")


def test_extractor_converts_and_reports(events_by_title):
    items = [Item.from_event(events_by_title[t]) for t in ("Coffee beans", "Picnic", "Daft Punk - Get Lucky")]
    ctx = EvalContext(reference_date=REFERENCE)
    conv = [compile_converter(FuncRef("float")).bind(ctx), compile_converter(FuncRef("date.fromisoformat")).bind(ctx)]
    extractor = KeyAliasExtractor()
    out = extractor.extract(items, ["amount_spent", "purchase_date"], conv)
    assert [(o.attrs["amount_spent"], o.attrs["purchase_date"]) for o in out] == [
        (21.0, date(2023, 11, 2)), (None, date(2024, 3, 9)), (None, date(2024, 3, 3))
    ]
    assert extractor.last_reasons == {"amount_spent": "not found in 2"}
    out = extractor.extract(items, ["location"], [compile_converter(FuncRef("int")).bind(ctx)])
    assert [o.attrs["location"] for o in out] == [None, None, None]
    assert extractor.last_reasons == {
        "location": "not found in 2; could not convert 1: cannot read a number from str 'Park lawn, Riverside park'"
    }
    assert all("amount_spent" not in i.attrs for i in items)  # inputs untouched
