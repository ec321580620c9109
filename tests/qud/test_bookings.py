"""Reading a question for a field of a trip's bookings (app.qud.bookings) and the tree that answers it."""

from __future__ import annotations

from datetime import date

import pytest

from app.qud.bookings import BookingAsked, booking_asked, booking_tree


@pytest.mark.parametrize("question, field, place, home, period", [
    ("What was the name of the hotel we stayed at in Bangkok?", "hotel", "Bangkok", False, None),
    ("booking reference for my tokyo flight?", "booking_reference", "Tokyo", False, None),
    ("what flight number did I take to Sicily", "flight_number", "Sicily", False, None),
    ("which airline did i fly to lisbon with", "airline", "Lisbon", False, None),
    ("Where did I stay in Kraków?", "hotel", "Kraków", False, None),
    ("what was the flight number home from berlin", "flight_number", "Berlin", True, None),
    ("what hotel did I stay at in Montreal in 2021", "hotel", "Montreal", False,
     (date(2020, 7, 2), date(2021, 12, 31))),
    ("which airline did I fly to seoul with in March 2024?", "airline", "Seoul", False,
     (date(2023, 8, 31), date(2024, 3, 31))),
    ("what was the name of the hotel in new york on my last trip", "hotel", "New York", False, None),
    ("What's the confirmation number for the Lake Como hotel?", "booking_reference", "Lake Como", False, None),
    ("what date did i fly out to seoul", "flight_date", "Seoul", False, None),
    ("what day did I fly back from vienna", "flight_date", "Vienna", True, None),
    ("When was my flight home from Berlin?", "flight_date", "Berlin", True, None),
])
def test_a_question_for_a_field_of_a_trips_bookings_is_read(question, field, place, home, period):
    assert booking_asked(question) == BookingAsked(field, place, home, period)


@pytest.mark.parametrize("question", [
    "How much did I pay for hotels on all my trips together?",   # a sum, not one booking's field
    "what hotel do I stay at most often",
    "which hotels did I stay in",                                # no place: which trip?
    "who did I fly with to Madeira?",                            # the people, or the airline: not said
    "which carrier delivered most of my amazon parcels?",
    "was the Hotel Bellevue booking for one or two people?",
    "how many nights did we stay at The Little Guesthouse?",
    "Which restaurant did I book for my birthday in 2020?",
    "what day did I get back from Split?",                       # by train or by car too
])
def test_other_questions_ask_for_no_bookings_field(question):
    assert booking_asked(question) is None


def test_the_tree_gives_the_latest_event_that_writes_the_field_from_half_a_year_before_the_period():
    question = "which airline did I fly to seoul with in March 2024?"
    tree = booking_tree(booking_asked(question), question)
    assert [node.step for node in tree.walk()] == [
        'ARGMAX(l=QUD("my flights to Seoul"), arg_attr_name="start_datetime", val_attr_name="airline")',
        'FILTER(l=QUD("my flights that say they went to Seoul from 2023-08-31 to 2024-03-31 with date and '
        'airline"), filter=lambda attr: attr.get("airline") is not None)',
        'EXTRACT(l=QUD("my flights that say they went to Seoul from 2023-08-31 to 2024-03-31"), '
        'attr_names=["start_datetime", "airline"], attr_types=[datetime.fromisoformat, str])',
        'FILTER(l=QUD("my flights that say they went to Seoul"), filter=lambda attr: '
        'attr["start_datetime"].date() >= date(2023, 8, 31) and attr["start_datetime"].date() <= '
        'date(2024, 3, 31))',
        # a flight there says so; the calendar's flight back ("Flight EU1288 to Munich", at Tokyo Airport) does not
        'FILTER(l=QUD("my flight to Seoul"), filter=lambda attr: any(w in (str(attr.get("title", "")) + " " + '
        'str(attr.get("text", "")) + " " + str(attr.get("mail.title", "")) + " " + str(attr.get("mail.text", ""))'
        ').lower() for w in ["to seoul", "- seoul", "– seoul", "→ seoul"]))',
        'RETRIEVE(query="my flight to Seoul")',
    ]
    assert tree.question == question


@pytest.mark.parametrize("question, field, place", [
    ("What flight did I take to Munich?", "flight_number", "Munich"),    # a flight is named by its number
    ("booking code for the reykjavik flights pls", "booking_reference", "Reykjavik"),
    ("what hotel was i at on my most recent trip?", "hotel", None),      # the latest stay of all
])
def test_more_ways_to_ask_for_a_bookings_field(question, field, place):
    asked = booking_asked(question)
    assert (asked.field, asked.place) == (field, place)


def test_the_latest_stay_of_all_is_the_latest_mail_naming_a_hotel_not_a_cancelled_one():
    question = "what hotel was i at on my most recent trip?"
    steps = [node.step for node in booking_tree(booking_asked(question), question).walk()]
    assert steps[0] == 'ARGMAX(l=QUD("my stays"), arg_attr_name="start_datetime", val_attr_name="hotel")'
    assert '"cancel" not in' in steps[1] and steps[-1] == 'RETRIEVE(query="my emails")'
