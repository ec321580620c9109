"""What the bookings' mails say (app.qud.bookings), answered through the shipped operators over mails written in
layouts of their own: what the bookings cost (booking_costs_frame: the totals their mails write, each refund counted
against the booking it names) and who travelled along (company_frame: the travellers they name)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.operators import operator_models
from app.qud.bookings import CostAsked, cost_asked
from app.qud.decompose import Trace
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import write_store

TODAY = datetime(2024, 2, 1).date()


def _mail(n: int, when: tuple[int, int, int], sender: str, subject: str, body: str) -> Event:
    domain = sender.lower().replace(" ", "")
    return Event(source="mail", type="mbox", start=datetime(*when, 18, tzinfo=timezone.utc), end=None, title=subject,
                 text=f"{sender}\n{subject}\n{body}",
                 data={"from": f"noreply@{domain}.com", "from_name": sender, "to": ["Sam Rivera <sam@example.org>"],
                       "subject": subject, "body": body}, position=f"mail {n}", key=content_key("m", f"{n}"))


def _bookings(tmp_path):
    """Two stays (the Berlin one cancelled), three flights (the Copenhagen one cancelled; the Berlin one's booking
    writes only the airport's code, its check-in reminder the city), a diary line and a shop's receipt."""
    mails = [
        _mail(1, (2023, 3, 2), "Roomly", "Your reservation at Hotel Lumen, Porto",
              "Hi Sam,\n\nyour reservation at Hotel Lumen, Porto is confirmed.\nCheck-in: 12 May 2023\n"
              "Check-out: 15 May 2023\nGuests 2 (Sam Rivera, Lea Stone)\n\nAmount paid: €420.00\n"
              "Reservation number: RM88231"),
        _mail(2, (2023, 3, 3), "Skyways", "Your e-ticket QX7T2L",
              "Booking reference: QX7T2L\n\nFlight SW 2046 Hamburg → Porto, 12 May 2023\n"
              "Flight SW 2047 Porto → Hamburg, 15 May 2023\n\nPassengers:\n  Sam Rivera\n  Lea Stone\n  Max Rowe\n\n"
              "Total paid: 318.40 EUR"),
        _mail(3, (2023, 5, 13), "Sam Rivera", "porto", "Checked in at Hotel Lumen, lovely view over the river."),
        _mail(4, (2023, 8, 20), "Roomly", "Booking confirmed: Pension Kranich, Berlin",
              "Booking confirmed: Pension Kranich, Berlin\nCheck-in 3 October 2023, check-out 6 October 2023\n"
              "Total: 180,00 €"),
        _mail(5, (2023, 8, 21), "Skyways", "Your e-ticket ZP4K9M",
              "Booking reference: ZP4K9M\n\nFlight SW 881 HAM → BER, 3 Oct 2023\n\nPassengers: Sam Rivera, Jo Park\n\n"
              "Total paid: €99.00"),
        _mail(6, (2023, 9, 30), "Roomly", "Your stay at Pension Kranich has been cancelled",
              "Your stay at Pension Kranich has been cancelled.\n\nRefund amount: 180,00 €"),
        _mail(7, (2023, 10, 2), "Skyways", "Check-in is open",
              "Online check-in for your flight SW 881 to Berlin is open.\nBooking reference: ZP4K9M"),
        _mail(8, (2023, 11, 5), "Skyways", "Your e-ticket KL22QQ",
              "Booking reference: KL22QQ\n\nFlight SW 510 HAM → CPH, 1 Dec 2023\n\nTotal paid: €150.00"),
        _mail(9, (2023, 11, 20), "Skyways", "Booking KL22QQ cancelled",
              "Your booking KL22QQ (SW 510) has been cancelled. A refund of €150.00 will be issued to your card."),
        _mail(10, (2023, 6, 1), "Munchbox", "Your order", "Your food is on its way.\n\nTotal €25.49"),
        _mail(11, (2022, 9, 1), "Roomly", "Booking confirmed: Hotel Lumen, Porto",
              "Booking confirmed: Hotel Lumen, Porto\nNights 2\nGuests 1 (Sam Rivera)\nTotal: €150.00"),
    ]
    trips = [Event(source="calendar", type="ics", start=datetime(2023, 5, 12, tzinfo=timezone.utc),
                   end=datetime(2023, 5, 15, tzinfo=timezone.utc), title="Porto 🇵🇹", text="Porto 🇵🇹",
                   data={"summary": "Porto 🇵🇹", "all_day": True}, position="trip", key=content_key("c", "porto"))]
    return write_store(tmp_path / "events.sqlite", mails + trips)


def _asked(path, question: str, llm: FakeLLM, trace: Trace | None = None):
    with EventStore.open(path, read_only=True) as store:
        retriever, extractor = operator_models(store, "small")
        return ask(question, store, TODAY, llm=llm, trace=trace, retriever=retriever, extractor=extractor)


def _framed(path, question: str, rule: str):
    """`question`'s answer, which the frame `rule` writes the whole tree of (the model is never asked)."""
    trace, llm = Trace(), FakeLLM([])
    answer = _asked(path, question, llm, trace)
    assert rule in trace.acted and not llm.calls
    return answer


@pytest.mark.parametrize("question, value", [
    ("How much have I spent on hotels in 2023?", 420.0),   # the Berlin stay's refund takes it back
    ("how much did I spend on flights last year", 417.4),  # 318.40 + 99, the Copenhagen flight refunded
    ("what did flights and hotel for the Berlin trip come to?", 99.0),   # the flight found by its reminder
    ("How much did the Porto trip cost me, flights plus hotel?", 888.4),   # the stay of 2022 too
    ("did I spend more on hotels or on flights in 2023?", "hotels"),
])
def test_what_the_bookings_cost_is_what_their_mails_say_was_paid(tmp_path, question, value):
    trace, llm = Trace(), FakeLLM([])
    answer = _asked(_bookings(tmp_path), question, llm, trace)
    assert answer.value == pytest.approx(value) if isinstance(value, float) else answer.value == value
    assert "booking_costs_frame" in trace.acted and not llm.calls   # the frame writes the whole tree


def test_an_added_cost_is_said_as_its_two_parts(tmp_path):
    answer = _asked(_bookings(tmp_path), "what did flights and hotel for the Porto trip come to in 2023?", FakeLLM([]))
    assert answer.value == pytest.approx(738.4)
    assert " plus " in answer.text and " against " not in answer.text and "420" in answer.text


@pytest.mark.parametrize("question, asked", [
    ("How much did I pay for hotels on all my trips together?", CostAsked(("hotel",))),
    ("how much did Edinburgh cost me for flights and hotel", CostAsked(("hotel", "flight_number"), "Edinburgh")),
    ("How much did I spend on flights in total (not counting the cancelled one)?", CostAsked(("flight_number",))),
    ("how much did my New York hotel cost in March 2024", CostAsked(("hotel",), "New York", (2024, 3))),
    # a count, a comparison, the dearest, another matter than the bookings: not this frame's
    ("how many flights did I take in 2023", None),
    ("was the porto hotel pricier than the berlin one?", None),
    ("what was my most expensive flight", None),
    ("how much did I spend on food during my hotel stay in Rome", None),
    ("how much did I spend on Amazon in 2023", None),
])
def test_the_questions_the_frame_reads(question, asked):
    assert cost_asked(question) == asked


def test_the_booking_costs_frame_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "booking_costs_frame")
    steps = [' SUM(l=QUD("I bought something online with amount paid"), attr_name="total")',
             ' EXTRACT(l=QUD("I bought something online"), attr_names=["total"], attr_types=[float])',
             ' RETRIEVE(query="I bought something online")']
    steps += [' RETRIEVE(query="I bought something online")'] * 6   # asked again for a JOIN (join_missing)
    trace = Trace()
    answer = _asked(_bookings(tmp_path), "How much did I pay for hotels?", FakeLLM(steps), trace)
    # the model's search for purchases finds one mail, which says no amount
    assert "booking_costs_frame" not in trace.acted and answer.value is None


# --- who travelled with me -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, people", [
    ("who came with me to Porto?", ["Lea Stone", "Max Rowe"]),   # the stay's guests and the flight's passengers
    ("who went to Berlin with me", ["Jo Park"]),   # the flight's booking writes "BER"; its reminder, Berlin
])
def test_who_came_along_is_every_traveller_the_trips_bookings_name_but_the_owner(tmp_path, question, people):
    answer = _framed(_bookings(tmp_path), question, "company_frame")
    assert answer.value == people


@pytest.mark.parametrize("text, travellers", [
    ("Guests 3 (Maren Solberg, Jonas Brandt, Tomás Ibáñez)\n\nTotal price €298.00", ("Maren Solberg", "Jonas Brandt",
                                                                                     "Tomás Ibáñez")),
    ("Passengers:\n  Maren Solberg\n  Ines Carvalho\n\nFlights:", ("Maren Solberg", "Ines Carvalho")),
    ("Passengers: Siobhán Kelly, Dara Ó Súilleabháin and Marek Nowak", ("Siobhán Kelly", "Dara Ó Súilleabháin",
                                                                        "Marek Nowak")),
    ("Passenger: Anna Schwarz\nOutbound: EU1344 Munich - Tokyo", ("Anna Schwarz",)),
    ("Check-in: 11 April 2020\nGuests: 5", None),   # a number of guests names nobody
    ("The guests loved the cake", None),
])
def test_the_travellers_a_booking_names(text, travellers):
    from app.extract.bookings import booking_field, read_booking

    assert booking_field("passengers") == booking_field("travellers") == "travellers"
    assert read_booking({"text": text}, "travellers") == travellers


# --- a hotel's nights ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, nights", [
    ("How many nights did I spend in hotels in 2023?", 3),   # Hotel Lumen's; the Berlin stay was cancelled
    ("how many hotel nights did I have?", 5),                # and the stay of 2022 ("Nights 2")
    ("how many nights did we stay at the Hotel Lumen?", 5),
    ("how many nights did I stay at Pension Kranich (not counting cancellations)", 0),
])
def test_a_hotels_nights_are_those_of_the_stays_its_mails_confirm(tmp_path, question, nights):
    answer = _framed(_bookings(tmp_path), question, "hotel_nights_frame")
    assert answer.value == nights


@pytest.mark.parametrize("text, nights", [
    ("Check-in Thursday, 18 May 2023\n\nCheck-out Monday, 22 May 2023\n\nNights 4\n", 4),
    ("your reservation at The Little Guesthouse is confirmed.\nCheck-in: 24 June 2022 from 15:00\n"
     "Check-out: 2 July 2022 until 11:00", 8),
    ("We stayed 3 nights at the hotel, lovely.", None),   # a diary's nights are no booking's
    ("Booking reference: X1Y2Z3\nFlight SW 12, 12 May 2023", None),
])
def test_the_nights_a_stays_booking_says(text, nights):
    from app.extract.bookings import read_booking

    assert read_booking({"text": text}, "nights_booked") == nights


# --- trips with someone ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, trips", [
    ("How many trips did I do with Lea?", 1),            # the Porto stay; the stay of 2022 names only the owner
    ("how many times did I go away with Lea in 2022", 0),
])
def test_trips_with_someone_are_the_stays_whose_bookings_name_them(tmp_path, question, trips):
    answer = _framed(_bookings(tmp_path), question, "trips_with_frame")
    assert answer.value == trips


def test_trips_with_someone_no_booking_names_are_left_to_the_model(tmp_path):
    trace = Trace()
    llm = FakeLLM([' APPLY(l=QUD("I went on a trip with Max"), fct=len)',
                   ' RETRIEVE(query="I went on a trip with Max")'])
    _asked(_bookings(tmp_path), "How many trips did I do with Max?", llm, trace)   # Max flew; no stay names him
    assert "trips_with_frame" not in trace.acted and llm.calls
