"""The bookings the generator writes for p13's trips are read back as the generator made them (app.extract.bookings),
and a question for one of their fields is answered from them through the shipped operators (booking_frame)."""

from __future__ import annotations

from datetime import date

import pytest

from app.extract.bookings import booking_field, read_booking
from app.operators import operator_models
from app.qud.decompose import Trace
from app.qud.pipeline import ask
from tests.fakes import FakeLLM

FIELDS = ("hotel", "airline", "flight_number", "booking_reference")
TODAY = date(2024, 8, 1)


def _read(event, field):
    return read_booking({"title": event.title, "text": event.text, **event.data}, field)


def _trips(generated):
    timeline = generated.timeline
    legs = timeline.of_kind("travel_leg")
    return timeline.of_kind("trip"), legs


def test_every_booking_is_read_as_the_generator_wrote_it_and_nothing_else_reads_as_one(generated, store):
    trips, legs = _trips(generated)
    truth = {"hotel": {t.attrs["hotel"] for t in trips}, "airline": {leg.attrs["carrier"] for leg in legs},
             "flight_number": {leg.attrs["number"] for leg in legs}}
    read = {field: {} for field in FIELDS}
    for event in store.events():
        for field in FIELDS:
            value = _read(event, field)
            if value is not None:
                read[field][event.id] = (value, event)
    for field in ("hotel", "airline", "flight_number"):
        assert read[field] and {value for value, _ in read[field].values()} <= truth[field], field
    # each flight booking gives its airline, its outbound flight and its reference; each stay its hotel
    flights = [e for e in store.events(source="mail") if "Booking reference:" in e.text]
    stays = [e for e in store.events(source="mail") if "your reservation at" in e.text]
    assert flights and stays
    assert {e.id for e in flights} == set(read["airline"]) == set(read["booking_reference"])
    assert {e.id for e in stays} == set(read["hotel"])
    for event in flights:
        reference = _read(event, "booking_reference")
        assert len(reference) == 6 and reference.isalnum() and reference.isupper() and f": {reference}" in event.text
    # the calendar's flights give their numbers; its trains ("IC 153 to Munich") and everything else give none
    calendar = {value for value, event in read["flight_number"].values() if event.source == "calendar"}
    assert calendar and all(value[:2].isalnum() for value in calendar)
    assert all(event.source in ("mail", "calendar") for field in read.values() for _, event in field.values())


@pytest.mark.parametrize("name, field", [("hotel", "hotel"), ("Hotel name", "hotel"), ("airline", "airline"),
                                         ("flight-number", "flight_number"), ("booking_reference", "booking_reference"),
                                         ("confirmation code", "booking_reference"), ("city", None),
                                         ("participants", None), ("price", None)])
def test_the_names_that_ask_for_a_bookings_field(name, field):
    assert booking_field(name) == field


def _trip_to(generated, city):
    trips, legs = _trips(generated)
    trip = next(t for t in trips if t.attrs["city"] == city)
    return trip, [leg for leg in legs if leg.attrs["trip"] == trip.id]


@pytest.mark.parametrize("question, city, field", [
    ("What was the name of the hotel we stayed at in Bangkok?", "Bangkok", "hotel"),
    ("which airline flew me to Seoul?", "Seoul", "airline"),
    ("what flight number did I take to Tokyo", "Tokyo", "flight_number"),
    ("when did I fly to Tokyo", "Tokyo", "flight_date"),
])
def test_a_question_for_a_bookings_field_is_answered_from_the_booking(generated, store, question, city, field):
    trip, legs = _trip_to(generated, city)
    expected = {"hotel": trip.attrs["hotel"], "airline": legs[0].attrs["carrier"],
                "flight_number": legs[0].attrs["number"], "flight_date": legs[0].start.date().isoformat()}[field]
    trace = Trace()
    llm = FakeLLM([])
    answer = ask(question, store, TODAY, llm=llm, trace=trace, extractor=operator_models(store, "small")[1],
                 retriever=operator_models(store, "small")[0])
    assert "booking_frame" in trace.acted and not llm.calls   # the frame writes the whole tree
    assert answer.value == expected
    # a flight's field is read of the flights that say they went there: not the one back (the latest)
    assert [node.operator for node in answer.tree.walk()] == ["ARGMAX", "FILTER", "EXTRACT", "RETRIEVE"] if \
        field == "hotel" else ["ARGMAX", "FILTER", "EXTRACT", "FILTER", "RETRIEVE"]
    assert list(answer.tree.walk())[-1].step == (
        f'RETRIEVE(query="my hotel in {city}")' if field == "hotel" else f'RETRIEVE(query="my flight to {city}")')


def test_the_booking_frame_can_be_switched_off(store, monkeypatch):
    from app.qud.decompose import RULES

    assert "booking_frame" in RULES
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "booking_frame")
    llm = FakeLLM([' APPLY(l=QUD("my flights to Seoul"), fct=len)', ' RETRIEVE(query="my flight to Seoul")'])
    trace = Trace()
    ask("which airline flew me to Seoul?", store, TODAY, llm=llm, trace=trace)
    assert llm.calls and "booking_frame" not in trace.acted
