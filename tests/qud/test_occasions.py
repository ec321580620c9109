"""A stay named as a time ("while I was in Zermatt"): taken out of the question, each RETRIEVE joined with the
trip's days (app.qud.occasions, rule away_clauses)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.qud.decompose import Trace
from app.qud.occasions import away_clause, day_clause, nights_asked, spanned_condition, visited_place
from app.operators import operator_models
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import BERLIN, hikes_and_a_run, write_store

from .test_pipeline import TODAY


@pytest.mark.parametrize("question, rest, words, place", [
    ("How many times did I go for a run while I was in Krakow this summer?",
     "How many times did I go for a run this summer?", "while I was in Krakow", "Krakow"),
    ("did i play any tennis while i was in sicily in july?", "did i play any tennis in july?",
     "while i was in sicily", "sicily"),
    ("did i watch anything on netflix while i was at lake como in june?", "did i watch anything on netflix in june?",
     "while i was at lake como", "lake como"),
    ("How many Netflix episodes did I watch while in Norway?", "How many Netflix episodes did I watch?",
     "while in Norway", "Norway"),
    ("how many hikes did I do on my Funchal trip", "how many hikes did I do", "on my Funchal trip", "Funchal"),
    ("what music was I listening to most on my New Orleans trip in July 2024",
     "what music was I listening to most in July 2024", "on my New Orleans trip", "New Orleans"),
    ("How much did I spend during my holiday in the Netherlands?", "How much did I spend?",
     "during my holiday in the Netherlands", "Netherlands"),
])
def test_a_stay_named_as_a_time_is_taken_out_of_the_question(question, rest, words, place):
    stay = away_clause(question)
    assert (stay.rest, stay.words, stay.query) == (rest, words, f"my trip to {place}")
    assert stay.question == f"the days I was in {place}"


@pytest.mark.parametrize("question", [
    "Who came along on my trip to Rome?",          # the trip is what it asks about
    "Who did I travel to Rome with?",
    "When did I go to Oslo?",
    "How many songs did I play on my last trip?",  # no place
    "what did I listen to while I was at work?",   # where anyone often is, not a trip
    "How many runs did I do on my summer holiday?",
    "any amazon purchases during my february madeira trip?",  # says when as well
    "How many runs did I do in 2023?",
])
def test_other_questions_name_no_stay(question):
    assert away_clause(question) is None


def trip_events() -> list[Event]:
    """A trip to Zermatt from 9 to 12 April 2024 as a calendar keeps it: the all-day entry, the flight there (an
    outing inside it) and the booking mail sent weeks before."""
    def calendar(title: str, start: datetime, end: datetime, text: str) -> Event:
        return Event(source="calendar", type="ics", start=start, end=end, title=title, text=text, data={},
                     position=title, key=content_key("c", title), tz="Europe/Berlin")

    day = datetime(2024, 4, 9, tzinfo=BERLIN)
    booked = datetime(2024, 3, 1, 10, 0, tzinfo=BERLIN)
    return [
        calendar("Trip to Zermatt", day, day + timedelta(days=3), "Trip to Zermatt\nZermatt, Switzerland"),
        calendar("Flight to Zermatt", day + timedelta(hours=7), day + timedelta(hours=11), "Flight to Zermatt"),
        Event(source="mail", type="mbox", start=booked, end=None, title="Your booking: Hotel in Zermatt",
              text="Your trip to Zermatt is booked", data={}, position="mail 1", key=content_key("m", "1"),
              tz="Europe/Berlin"),
    ]


@pytest.fixture
def trip_store(tmp_path):
    # hikes on 3, 10 and 17 April 2024 and a run on the 20th; the stay in Zermatt: 9 to 12 April
    return write_store(tmp_path / "events.sqlite", hikes_and_a_run() + trip_events())


HIKE_COUNT = [' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']


def test_each_retrieve_is_joined_with_the_days_of_the_trip(trip_store):
    llm = FakeLLM(list(HIKE_COUNT))
    trace = Trace()
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many times did I hike while I was in Zermatt?", store, TODAY, llm=llm, trace=trace)
        trip_id = next(e.id for e in store.events(source="calendar") if e.title == "Trip to Zermatt")
    assert 'QUD("How many times did I hike?")' in llm.calls[0][0]   # the model is asked without the stay
    assert answer.value == 1 and "away_clauses" in trace.acted      # the hike of 10 April
    assert answer.tree.question == "How many times did I hike while I was in Zermatt?"
    assert answer.text == "1 hike while you were in Zermatt."   # the answer says where it counted
    join = answer.tree.children[0]
    assert join.question == "my hikes while I was in Zermatt"
    assert join.step.startswith('JOIN(l1=QUD("my hikes"), l2=QUD("the days I was in Zermatt"), condition=')
    days = join.children[1]
    assert days.children[0].step == 'RETRIEVE(query="my trip to Zermatt")'
    # the trip's entry only: the flight inside it and the booking mail name the place, but last less than a day
    assert days.size == 1 and days.event_ids == (trip_id,)
    assert trip_id in answer.evidence_ids


def test_a_season_said_with_the_stay_dates_the_stay_not_each_event(trip_store):
    with EventStore.open(trip_store, read_only=True) as store:
        this = ask("How many times did I hike while I was in Zermatt this spring?", store, TODAY,
                   llm=FakeLLM(list(HIKE_COUNT)))
        last = ask("How many times did I hike while I was in Zermatt last spring?", store, TODAY,
                   llm=FakeLLM(list(HIKE_COUNT)))
    assert this.value == 1 and last.value == 0   # the stay of April 2024 is in this spring, not last
    join = this.tree.children[0]
    assert join.question == "my hikes while I was in Zermatt in spring 2024"
    hikes, days = join.children
    assert not any("date(" in node.step for node in hikes.walk())   # the hikes themselves are not dated: the stay is
    assert days.children[0].step == ('FILTER(l=QUD("my trip to Zermatt"), filter=lambda attr: attr["start_date"] >= '
                                     'date(2024, 3, 1) and attr["start_date"] <= date(2024, 5, 31))')


def test_a_place_stayed_said_after_what_was_done_is_the_stay(trip_store):
    trace = Trace()
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many times did I hike in Zermatt?", store, TODAY, llm=FakeLLM(list(HIKE_COUNT)),
                     trace=trace)
    assert answer.value == 1 and "away_clauses" in trace.acted   # the hike of 10 April, as "while I was in Zermatt"
    assert answer.tree.children[0].question == "my hikes in Zermatt"


@pytest.mark.parametrize("question, rest", [
    ("how far did i run in seoul?", "how far did i run?"),
    ("how many km did i run in budapest in 2023", "how many km did i run in 2023"),
    ("How many nights did I stay in Seoul?", None),            # the stay itself
    ("how many times have I been to Budapest?", None),
    ("did i spend more eating out in seoul or in budapest?", None),   # a comparison of places
    ("how many songs did I play in Rome?", None),              # no place stayed
])
def test_a_place_is_a_stay_only_where_the_person_stayed_and_the_question_asks_what_they_did(question, rest):
    stayed = away_clause(question, lambda: frozenset({"Seoul", "Budapest"}))
    assert (stayed.rest if stayed is not None else None) == rest


def test_the_away_rule_can_be_switched_off(trip_store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "away_clauses")
    llm = FakeLLM([' APPLY(l=QUD("my hikes in Zermatt"), fct=len)', ' RETRIEVE(query="I went hiking in Zermatt")'])
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many times did I hike while I was in Zermatt?", store, TODAY, llm=llm)
    assert 'QUD("How many times did I hike while I was in Zermatt?")' in llm.calls[0][0]
    assert "JOIN" not in {n.operator for n in answer.tree.walk()}


TRIP_COUNT = [' APPLY(l=QUD("I went on a trip"), fct=len)', ' RETRIEVE(query="I went on a trip")']


def test_trips_are_counted_by_their_own_entries(trip_store):
    trace = Trace()
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many trips did I take?", store, TODAY, llm=FakeLLM(list(TRIP_COUNT)), trace=trace)
        trip_id = next(e.id for e in store.events(source="calendar") if e.title == "Trip to Zermatt")
    # the booking mail says "trip" too, but is not a trip
    assert answer.value == 1 and answer.evidence_ids == (trip_id,) and "trip_entries" in trace.acted
    entries = answer.tree.children[0]
    assert entries.operator == "FILTER" and entries.question == "I went on a trip"
    # a search that names nothing but trips reads every entry of the calendar: the trip's and the flight's
    assert entries.children[0].step == 'RETRIEVE(query="my calendar entries")' and entries.children[0].size == 2
    assert answer.text == "You went on a trip once."


def _calendar_of_stays(tmp_path):
    """A year's calendar as people write one: trips named by their place alone or marked out of office, weekends
    at Mama's, a birthday, Christmas with the family and a day's meeting."""
    def entry(title, month, day, days):
        start = datetime(2023, month, day, tzinfo=BERLIN)
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(days=days), title=title,
                     text=title, data={"summary": title, "all_day": True}, position=title,
                     key=content_key("c", f"{title} {month}"), tz="Europe/Berlin")

    return write_store(tmp_path / "events.sqlite", [
        entry("Funchal 🇵🇹", 9, 22, 7), entry("OOO - Chamonix", 2, 10, 4), entry("Kyoto", 4, 1, 6),
        entry("Mama 🚆", 6, 23, 2), entry("Weihnachten bei Mama", 12, 23, 3), entry("Christmas w/ Mam", 12, 27, 2),
        entry("🎂 Jonas", 1, 29, 1), entry("my bday 🎉", 6, 8, 1),
        Event(source="calendar", type="ics", start=datetime(2023, 5, 4, 10, tzinfo=BERLIN),
              end=datetime(2023, 5, 4, 11, tzinfo=BERLIN), title="Dentist", text="Dentist", data={"summary": "Dentist"},
              position="Dentist", key=content_key("c", "Dentist"), tz="Europe/Berlin"),
    ])


@pytest.mark.parametrize("question, steps, value", [
    ("How many trips did I take in 2023?", TRIP_COUNT, 3),
    ("how many nights was i away on trips in 2023", [], 14),    # 6 + 3 + 5
    ("what's the fewest nights I've been away on a trip?", [], 3),
    ("which of my trips was the longest", [], "Funchal"),   # the place its entry's title names
    ("where did I travel in 2023?", [], ["Chamonix", "Funchal", "Kyoto"]),
])
def test_every_trip_is_counted_whatever_its_entry_says_and_a_stay_with_family_is_none(tmp_path, question, steps,
                                                                                     value):
    with EventStore.open(_calendar_of_stays(tmp_path), read_only=True) as store:
        answer = ask(question, store, TODAY, llm=FakeLLM(list(steps)), extractor=operator_models(store, "small")[1])
    assert answer.value == value


def test_the_trip_entries_rule_can_be_switched_off(trip_store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "trip_entries")
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many trips did I take?", store, TODAY, llm=FakeLLM(list(TRIP_COUNT)))
    assert answer.value == 2 and [n.operator for n in answer.tree.walk()] == ["APPLY", "RETRIEVE"]


# --- a day ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, rest, query", [
    ("did I work out on my birthday this year?", "did I work out this year?", "my birthday"),
    ("who joined us for dinner on Maria's birthday this year?", "who joined us for dinner this year?",
     "Maria's birthday"),
    ("How many Boygenius tracks did I play on the day of the Malahide Castle gig?",
     "How many Boygenius tracks did I play?", "the Malahide Castle gig"),
])
def test_a_day_named_by_what_happened_is_taken_out_of_the_question(question, rest, query):
    day = day_clause(question)
    assert (day.rest, day.query, day.condition) == (rest, query, "i1.start_date == i2.start_date")


@pytest.mark.parametrize("question", [
    "When is Johanna's birthday?",                     # the day is what it asks about
    "was I with Mam on her birthday this year?",       # whose birthday is said elsewhere
    "how many songs did i play on the day of the gig",  # which gig is not said
    "How many runs did I do in 2023?",
])
def test_other_questions_name_no_day(question):
    assert day_clause(question) is None


def test_each_retrieve_is_joined_with_the_entries_of_the_day(tmp_path):
    from tests.qud.test_pipeline import song

    def birthday(title: str, day: int) -> Event:
        start = datetime(2024, 4, day, tzinfo=BERLIN)
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(days=1), title=title,
                     text=title, data={}, position=title, key=content_key("c", title), tz="Europe/Berlin")

    path = write_store(tmp_path / "events.sqlite", (
        song(3, 10, "Mitski"), song(10, 5, "Lorde"), song(10, 20, "Lorde"), song(11, 0, "Lorde"),
        birthday("My birthday", 10), birthday("Maria's birthday", 3)))
    trace = Trace()
    steps = [' APPLY(l=QUD("songs I played"), fct=len)', ' RETRIEVE(query="I listened to music")']
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many songs did I play on my birthday?", store, TODAY, llm=FakeLLM(list(steps)), trace=trace)
        mine = ask("How many songs did I play on Maria's birthday?", store, TODAY, llm=FakeLLM(list(steps)))
    assert answer.value == 2 and "occasion_days" in trace.acted     # the two songs of 10 April
    assert answer.tree.children[0].step.endswith('condition="i1.start_date == i2.start_date")')
    assert answer.tree.children[0].children[1].size == 1              # "My birthday", not Maria's
    assert mine.value == 1


# --- a meeting ----------------------------------------------------------------------------------------------

def meeting_events() -> list[Event]:
    """Two evenings with Nina and a lunch with Kevin in the calendar, Nina's birthday as an all-day entry, and a
    mail that plans the second evening with her."""
    def calendar(title: str, start: datetime, hours: float, all_day: bool = False) -> Event:
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(hours=hours), title=title,
                     text=title, data={"summary": title, "all_day": all_day}, position=title + start.isoformat(),
                     key=content_key("c", title, start.isoformat()), tz="Europe/Berlin")

    evening = datetime(2024, 3, 8, 19, 0, tzinfo=BERLIN)
    return [
        calendar("Dinner w/ Nina", evening, 2.5),
        calendar("Drinks with Nina", evening + timedelta(days=14), 2),
        calendar("Nina's birthday", datetime(2024, 3, 30, tzinfo=BERLIN), 24, all_day=True),
        calendar("Lunch with Kevin", evening + timedelta(days=3, hours=-6), 1),
        Event(source="mail", type="mbox", start=evening + timedelta(days=10), end=None, title="Drinks?",
              text="Nina, drinks on Friday? Met with Kevin today, he says hi", data={"subject": "Drinks?"},
              position="mail 1", key=content_key("m", "1"), tz="Europe/Berlin"),
    ]


MEETING_COUNT = [' APPLY(l=QUD("I met with Nina"), fct=len)', ' RETRIEVE(query="I met with Nina")']


def test_meetings_are_counted_by_the_calendar_entries_that_name_them(tmp_path):
    path = write_store(tmp_path / "events.sqlite", meeting_events())
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many times did I meet up with Nina?", store, TODAY, llm=FakeLLM(list(MEETING_COUNT)),
                     trace=trace)
        evenings = {e.id for e in store.events(source="calendar") if e.title in ("Dinner w/ Nina", "Drinks with Nina")}
    # the mail that plans an evening and her birthday's entry name her too, but are no meeting
    assert answer.value == 2 and set(answer.evidence_ids) == evenings and "meeting_entries" in trace.acted
    entries = answer.tree.children[0]
    assert entries.operator == "FILTER" and entries.question == "I met with Nina"
    assert entries.children[0].step == 'RETRIEVE(query="I met with Nina")'


def test_the_meeting_entries_rule_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "meeting_entries")
    path = write_store(tmp_path / "events.sqlite", meeting_events())
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many times did I meet up with Nina?", store, TODAY, llm=FakeLLM(list(MEETING_COUNT)))
    assert answer.value >= 3 and [n.operator for n in answer.tree.walk()] == ["APPLY", "RETRIEVE"]


@pytest.mark.parametrize("query, names", [
    ("I met with Nina", ["Nina"]),
    ("I met with Kevin and Andre in 2023", ["Kevin", "Andre"]),
    ("I had a call with my parents", []),       # no name to test: the calendar's entries only
    ("I had a 1:1 with Sara", ["Sara"]),
    ("I visited Mama's place", ["Mama"]),
    ("I met with a book club", []),
])
def test_a_search_for_meeting_someone_keeps_the_calendar_entries_naming_them(query, names):
    from app.engine.tree import Node
    from app.qud.occasions import meeting_entries

    tree = meeting_entries(Node.from_step("q", f'RETRIEVE(query="{query}")'))
    test = tree.call.get("filter").source
    assert tree.operator == "FILTER" and 'attr["source"] == "calendar"' in test
    assert [n for n in names if f'"{n.lower()}" in str(attr["text"]).lower()' in test] == names
    assert test.count(" in str(attr[\"text\"]).lower()") == len(names) + 3   # the three birthday marks


@pytest.mark.parametrize("query", ["I went running", "I listened to a podcast", "I sent an email to Nina"])
def test_other_searches_are_no_meeting(query):
    from app.engine.tree import Node
    from app.qud.occasions import meeting_entries

    assert meeting_entries(Node.from_step("q", f'RETRIEVE(query="{query}")')) is None


# --- a visit to a place ---

def visit_events(with_calendar: bool = True) -> list[Event]:
    """Three lunches at Meson del Mar and one at Da Enzo in the calendar, a friend's mail that suggests Meson del Mar
    and one that books it; without the calendar, a diary of mails the owner wrote to themselves."""
    def calendar(title: str, start: datetime) -> Event:
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(hours=1.5), title=title,
                     text=title, data={"summary": title}, position=title + start.isoformat(),
                     key=content_key("c", title, start.isoformat()), tz="Europe/Berlin")

    def mail(n: int, subject: str, body: str, start: datetime) -> Event:
        return Event(source="mail", type="mbox", start=start, end=None, title=subject, text=body,
                     data={"subject": subject, "from": f"friend{n}@example.org"}, position=f"mail {n}",
                     key=content_key("m", str(n)), tz="Europe/Berlin")

    noon = datetime(2024, 3, 1, 12, 30, tzinfo=BERLIN)
    lunches = [calendar(title, noon + timedelta(days=d))
               for d, title in ((0, "Lunch - Meson del Mar"), (7, "Lunch - Mesón del Mar"), (21, "Paella, Meson del Mar"))]
    diary = [mail(10 + d, "today", "Friday. Lunch at Meson del Mar, had the paella.", noon + timedelta(days=d, hours=9))
             for d in (0, 7)]
    return [
        *(lunches if with_calendar else diary),
        calendar("Lunch - Da Enzo", noon + timedelta(days=3)),
        mail(1, "Long time no see!", "Dinner this Friday? Maybe Meson del Mar?", noon + timedelta(days=5)),
        mail(2, "Reservation", "Booked Meson del Mar for tomorrow at 12:30, table for 2.", noon + timedelta(days=20)),
    ]


VISIT_COUNT = [' APPLY(l=QUD("I ate at meson del mar"), fct=len)', ' RETRIEVE(query="I ate at meson del mar")']


def test_visits_to_a_place_are_the_calendar_entries_that_name_it(tmp_path, monkeypatch):
    path = write_store(tmp_path / "events.sqlite", visit_events())
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("how many times have i been to meson del mar?", store, TODAY, llm=FakeLLM(list(VISIT_COUNT)),
                     trace=trace)
        lunches = {e.id for e in store.events(source="calendar") if "del Mar" in e.title}
        assert answer.value == 3 and set(answer.evidence_ids) == lunches and "visit_entries" in trace.acted
        assert answer.tree.children[0].children[0].step == 'RETRIEVE(query="I went to meson del mar")'
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "visit_entries")
        off = ask("how many times have i been to meson del mar?", store, TODAY, llm=FakeLLM(list(VISIT_COUNT)))
    assert off.value == 5   # the two mails about it too


def test_a_place_the_calendar_does_not_name_is_searched_as_it_was(tmp_path):
    path = write_store(tmp_path / "events.sqlite", visit_events(with_calendar=False))
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("how many times have i been to meson del mar?", store, TODAY, llm=FakeLLM(list(VISIT_COUNT)),
                     trace=trace)
    assert "visit_entries" not in trace.acted and [n.operator for n in answer.tree.walk()] == ["APPLY", "RETRIEVE"]


@pytest.mark.parametrize("query, place", [
    ("I went to meson del mar", "meson del mar"),
    ("I ate at the restaurant da enzo", "da enzo"),
    ("I went to The Old Fox in 2023", "The Old Fox"),
    ("I ate at Blue Nile", "Blue Nile"),
    ("I went to the dentist", None),        # a kind of place
    ("I ate at a restaurant", None),
    ("I went to work", None),               # one word in lower case: a kind more often than a name
    ("I listened to Blue Nile", None),      # no visit
])
def test_the_place_a_search_visits(query, place):
    assert visited_place(query) == place


# --- an appointment ---

def appointment_events() -> list[Event]:
    """Two dentist's check-ups in the calendar and the practice's reminder of a third, a GP's check-up and the
    children's clinic's appointment."""
    def calendar(title: str, day: int) -> Event:
        start = datetime(2024, 3, day, 10, 0, tzinfo=BERLIN)
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(hours=1), title=title,
                     text=title, data={"summary": title}, position=title, key=content_key("c", title, str(day)),
                     tz="Europe/Berlin")

    def mail(n: int, sender: str, subject: str, body: str, day: int) -> Event:
        start = datetime(2024, 3, day, 9, 0, tzinfo=BERLIN)
        return Event(source="mail", type="mbox", start=start, end=None, title=subject, text=f"{sender}\n{body}",
                     data={"subject": subject, "from_name": sender}, position=f"mail {n}",
                     key=content_key("m", str(n)), tz="Europe/Berlin")

    return [
        calendar("Dr. Zimmermann (dentist)", 4), calendar("Dental check-up", 18),
        mail(1, "Smile Dental Practice", "Appointment reminder", "Your appointment is on 28 March, 10:30.", 25),
        calendar("Doctor - annual check-up", 11),
        mail(2, "Sendling Kids Clinic", "Your appointment", "Your appointment is on 14 March.", 12),
    ]


APPOINTMENT_COUNT = [' APPLY(l=QUD("I went to the dentist"), fct=len)', ' RETRIEVE(query="I went to the dentist")']


class EveryEvent:   # a search that finds every event: every appointment, as the small cross-encoder did
    def retrieve(self, query, store, reference_date):
        from app.engine.values import Item
        return [Item.from_event(e) for e in store.events()]


def test_appointments_of_a_kind_are_the_events_that_name_it(tmp_path, monkeypatch):
    path = write_store(tmp_path / "events.sqlite", appointment_events())
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many dentist appointments did I have?", store, TODAY, llm=FakeLLM(list(APPOINTMENT_COUNT)),
                     trace=trace, retriever=EveryEvent())
        named = {e.id for e in store.events() if "ental" in e.title + e.text or "dentist" in e.title + e.text}
        assert "appointment_records" in trace.acted and set(answer.evidence_ids) == named and answer.value == 3
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "appointment_records")
        off = ask("How many dentist appointments did I have?", store, TODAY, llm=FakeLLM(list(APPOINTMENT_COUNT)),
                  retriever=EveryEvent())
    assert off.value == 5   # the GP's and the children's clinic's too


@pytest.mark.parametrize("query, words", [
    ("I went to the dentist", {"dentist", "dental"}),
    ("I took Hoppel to the vet", {"vet", "veterinary"}),
    ("I got a haircut", {"haircut", "barber", "hairdresser"}),
    ("I went to the physio in 2023", {"physio", "physiotherapy"}),
])
def test_a_search_for_an_appointment_keeps_the_events_naming_its_kind(query, words):
    from app.engine.tree import Node
    from app.qud.occasions import appointment_records

    tree = appointment_records(Node.from_step("q", f'RETRIEVE(query="{query}")'))
    assert tree.operator == "FILTER" and all(f'"{w}"' in tree.call.get("filter").source for w in words)


@pytest.mark.parametrize("query", ["I went running", "I went to the doctor", "I ate at a restaurant", "I hung out"])
def test_other_searches_are_no_appointment_of_a_kind(query):
    from app.engine.tree import Node
    from app.qud.occasions import appointment_records

    assert appointment_records(Node.from_step("q", f'RETRIEVE(query="{query}")')) is None


# --- a birthday ---------------------------------------------------------------------------------------------

def birthday_events() -> list[Event]:
    """Chiamaka's birthday as a cake in the calendar on 15 July (two years), Elin's as words on 20 September,
    a dinner with Chiamaka and a mail from her."""
    def calendar(title: str, start: datetime, all_day: bool) -> Event:
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(days=1 if all_day else 0.1),
                     title=title, text=title, data={"summary": title, "all_day": all_day},
                     position=title + start.isoformat(), key=content_key("c", title, start.isoformat()),
                     tz="Europe/Berlin")

    return [
        calendar("\U0001f382 Chiamaka", datetime(2023, 7, 15, tzinfo=BERLIN), True),
        calendar("\U0001f382 Chiamaka", datetime(2024, 7, 15, tzinfo=BERLIN), True),
        calendar("Elin's birthday", datetime(2023, 9, 20, tzinfo=BERLIN), True),
        calendar("Dinner with Chiamaka", datetime(2024, 2, 2, 19, tzinfo=BERLIN), False),
        Event(source="mail", type="mbox", start=datetime(2024, 3, 1, 9, tzinfo=BERLIN), end=None, title="hi",
              text="Chiamaka here: see you at my birthday?", data={"subject": "hi"}, position="mail 1",
              key=content_key("m", "1"), tz="Europe/Berlin"),
    ]


BIRTHDAY_DATE = [' MAX(l=QUD("Chiamaka\'s birthday with date"), attr_name="start_date")',
                 ' EXTRACT(l=QUD("Chiamaka\'s birthday"), attr_names=["start_date"], attr_types=[date.fromisoformat])',
                 ' RETRIEVE(query="Chiamaka\'s birthday")']


def test_a_birthday_is_the_entries_that_name_the_person_and_mark_a_birthday(tmp_path):
    path = write_store(tmp_path / "events.sqlite", birthday_events())
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("When is Chiamaka's birthday?", store, TODAY, llm=FakeLLM(list(BIRTHDAY_DATE)), trace=trace)
        cakes = {e.id for e in store.events(source="calendar") if e.title.startswith("\U0001f382")}
    assert "birthday_entries" in trace.acted and str(answer.value) == "2024-07-15"
    entries = answer.tree.children[0].children[0]
    assert entries.operator == "FILTER" and entries.question == "Chiamaka's birthday"
    # the dinner with her names her but marks no birthday; her mail says "birthday" but is no day's entry
    assert set(entries.event_ids) == cakes
    assert entries.children[0].step == 'RETRIEVE(query="Chiamaka")'


def test_the_persons_own_birthday_a_relations_and_a_birthday_dinner_are_left_alone():
    from app.engine.tree import Node
    from app.qud.occasions import birthday_entries

    for query in ("my birthday", "Andrea's birthday dinner", "I went to Elin's birthday party", "my dad's birthday",
                  "Mum's birthday"):
        assert birthday_entries(Node.from_step("q", f'RETRIEVE(query="{query}")')) is None


# --- whose birthday -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, month, count", [
    ("whose birthdays are in November 2023", 11, False),
    ("who's got a birthday in January 2024?", 1, False),
    ("Whose birthday is in august?", 8, False),
    ("How many of my friends have a birthday in October 2023?", 10, True),
    ("whose birthday is coming up next?", None, False),
    ("who has the next birthday", None, False),
])
def test_a_question_for_whose_birthdays_is_read(question, month, count):
    from app.qud.occasions import Birthdays, birthdays_asked

    assert birthdays_asked(question) == Birthdays(month, count)


@pytest.mark.parametrize("question", ["When is Anna's birthday?", "whose birthday party did I go to in May 2023?",
                                      "did I go out on my birthday?", "how many birthdays did I celebrate?"])
def test_other_questions_ask_for_no_ones_birthday(question):
    from app.qud.occasions import birthdays_asked

    assert birthdays_asked(question) is None


def test_whose_birthdays_are_the_people_of_the_days_entries_of_that_month(tmp_path):
    events = birthday_events() + [
        Event(source="calendar", type="ics", start=datetime(2022, 9, 2, tzinfo=BERLIN),
              end=datetime(2022, 9, 3, tzinfo=BERLIN), title="Noor's birthday", text="Noor's birthday",
              data={"summary": "Noor's birthday", "all_day": True}, position="noor", key=content_key("c", "noor"),
              tz="Europe/Berlin"),
        Event(source="calendar", type="ics", start=datetime(2023, 9, 9, 19, tzinfo=BERLIN),
              end=datetime(2023, 9, 9, 22, tzinfo=BERLIN), title="Birthday dinner for Sam",
              text="Birthday dinner for Sam", data={"summary": "Birthday dinner for Sam", "all_day": False},
              position="sam", key=content_key("c", "sam"), tz="Europe/Berlin"),
    ]
    path = write_store(tmp_path / "events.sqlite", events)
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        llm = FakeLLM([])
        extractor = operator_models(store, "small")[1]   # the shipped extractor reads the name off the entry
        answer = ask("Whose birthdays are in September?", store, TODAY, llm=llm, trace=trace, extractor=extractor)
        counted = ask("How many of my friends have a birthday in September?", store, TODAY, llm=llm,
                      extractor=extractor)
    assert "birthdays_frame" in trace.acted and not llm.calls   # the frame writes the whole tree
    # Elin's in 2023 and Noor's in 2022 (a birthday comes back each year); Sam's dinner is an evening, not the day
    assert answer.value == ["Elin", "Noor"] and counted.value == 2
    assert answer.tree.children[0].operator == "GROUP_BY"


def test_the_birthdays_frame_can_be_switched_off(tmp_path, monkeypatch):
    from app.qud.decompose import RULES

    assert "birthdays_frame" in RULES and "company_frame" in RULES
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "birthdays_frame")
    llm = FakeLLM([' APPLY(l=QUD("birthdays in September"), fct=len)', ' RETRIEVE(query="birthday")'])
    with EventStore.open(write_store(tmp_path / "events.sqlite", birthday_events()), read_only=True) as store:
        ask("Whose birthdays are in September?", store, TODAY, llm=llm)
    assert llm.calls   # the model decomposes the question


# --- who was with me ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, query, period, place", [
    ("who came with me to Berlin?", "my trip to Berlin", None, "Berlin"),
    ("Who came with me on the Amsterdam trip?", "my Amsterdam trip", None, "Amsterdam"),
    ("who did I go to Porto with", "my trip to Porto", None, "Porto"),
    ("Who came along on my trip to Singapore?", "my trip to Singapore", None, "Singapore"),
    ("Who went to Innsbruck with me in 2024?", "my trip to Innsbruck", 'attr["start_datetime"].year == 2024', None),
    ("Who came with me to Seoul in January 2024?", "my trip to Seoul",
     'attr["start_datetime"].year == 2024 and attr["start_datetime"].month == 1', None),
])
def test_a_question_for_who_came_along_is_read_as_the_trips_entries(question, query, period, place):
    from app.qud.occasions import company_trip

    asked = company_trip(question)
    trip = asked.entries
    assert asked.place == place   # the place whose bookings name travellers; a dated trip's are mailed before it
    entries = trip if period is None else trip.children[0]
    assert entries.step == 'FILTER(l=QUD("' + query + ': every event about it"), filter=lambda attr: ' \
                           'attr.get("duration", 0) >= 86400)'
    assert entries.children[0].step == f'RETRIEVE(query="{query}")'
    if period is not None:
        assert trip.step.endswith(f"filter=lambda attr: {period})")


@pytest.mark.parametrize("question", ["Who joined me on a run?", "who came with me to the cinema",
                                      "Who did I meet in Berlin?", "who came with me to Berlin the most"])
def test_other_questions_ask_for_no_company(question):
    from app.qud.occasions import company_trip

    assert company_trip(question) is None


def test_who_came_along_is_every_person_of_the_trips_entries_but_the_owner(tmp_path):
    def calendar(title, start, end, attendees):
        return Event(source="calendar", type="ics", start=start, end=end, title=title, text=title,
                     data={"summary": title, "attendees": attendees}, position=title, key=content_key("c", title),
                     tz="Europe/Berlin")

    day = datetime(2024, 4, 9, tzinfo=BERLIN)
    events = [
        calendar("Trip to Zermatt", day, day + timedelta(days=3), ["Ana Lima", "Ben Ode", "Me Myself"]),
        calendar("Trip to Zermatt: ski day", day + timedelta(days=1), day + timedelta(days=2),
                 ["Cleo Park", "Me Myself"]),
        calendar("Dinner in Zermatt", day + timedelta(hours=19), day + timedelta(hours=22), ["Dan Roe"]),
        Event(source="mail", type="mbox", start=day - timedelta(days=9), end=None, title="Zermatt?",
              text="Ski in April?", data={"from": "me@example.org", "from_name": "Me Myself",
                                          "to": ["Ana Lima <ana@example.org>"], "subject": "Zermatt?"},
              position="mail 1", key=content_key("m", "1"), tz="Europe/Berlin"),
    ]
    path = write_store(tmp_path / "events.sqlite", events)
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        llm = FakeLLM([])
        answer = ask("Who came with me to Zermatt?", store, TODAY, llm=llm, trace=trace)
    assert "company_frame" in trace.acted and not llm.calls
    # the dinner is an evening of the trip, not one of its days; the owner is no one who came along
    assert answer.value == ["Ana Lima", "Ben Ode", "Cleo Park"]


# --- where I travelled ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, period", [
    ("where did i go on holiday in May 2024?", ' and attr["start_datetime"].year == 2024 and '
                                               'attr["start_datetime"].month == 5'),
    ("Where did I travel in 2023?", ' and attr["start_datetime"].year == 2023'),
    ("Where was I in May 2023?", ' and attr["start_datetime"].year == 2023 and attr["start_datetime"].month == 5'),
    ("what city did I go to in October 2023", ' and attr["start_datetime"].year == 2023 and '
                                              'attr["start_datetime"].month == 10'),
    ("which cities did i travel to?", ""),
    ("where all have i traveled in 2024", ' and attr["start_datetime"].year == 2024'),
    ("which countries did I visit in 2023?", ' and attr["start_datetime"].year == 2023'),
])
def test_a_question_for_where_i_travelled_is_read_as_the_trips_entries(question, period):
    from app.qud.occasions import travels_asked

    trips = travels_asked(question)
    assert trips.children[0].step == 'RETRIEVE(query="my calendar entries")'
    assert trips.step.startswith('FILTER(l=QUD("every trip: my calendar entries"), filter=lambda attr: '
                                 'attr.get("duration", 0) >= 86400 and not ("birthday" in ')
    assert trips.step.endswith(f"{period})")


@pytest.mark.parametrize("question", ["which countries did I visit most?", "where did I go on vacation this fall",
                                      "where did I have dinner on my birthday", "Where did I stay in Kraków?",
                                      "where did I go running most", "where was I"])
def test_other_questions_ask_for_no_travels(question):
    from app.qud.occasions import travels_asked

    assert travels_asked(question) is None


def test_where_i_travelled_is_the_cities_of_the_trips_entries(tmp_path):
    def calendar(title, start, end, location):
        return Event(source="calendar", type="ics", start=start, end=end, title=title, text=f"{title}\n{location}",
                     data={"summary": title, "location": location}, position=title, key=content_key("c", title),
                     tz="Europe/Berlin")

    day = datetime(2024, 4, 9, tzinfo=BERLIN)
    path = write_store(tmp_path / "events.sqlite", [
        calendar("Trip to Zermatt", day, day + timedelta(days=3), "Zermatt, Switzerland"),
        calendar("Flight to Zermatt", day + timedelta(hours=7), day + timedelta(hours=11), "Zurich Airport"),
        calendar("Trip to Lyon", day - timedelta(days=40), day - timedelta(days=37), "Lyon, France"),
        calendar("Trip: OOO", day + timedelta(days=30), day + timedelta(days=34), "Split, Croatia"),
        calendar("Trip to Lisbon", day + timedelta(days=60), day + timedelta(days=63), ""),
    ])
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        llm = FakeLLM([])
        extractor = operator_models(store, "small")[1]
        answer = ask("Where did I travel in April 2024?", store, TODAY, llm=llm, trace=trace, extractor=extractor)
        cities = ask("which cities did I travel to?", store, TODAY, llm=llm, extractor=extractor)
        countries = ask("which countries have I travelled to?", store, TODAY, llm=llm, extractor=extractor)
    assert "travels_frame" in trace.acted and not llm.calls
    # the trip's entry, not its flight (hours); a place "City, Country" names the city first
    assert answer.value == ["Zermatt"] and {"Lyon", "Split", "Zermatt"} <= set(cities.value)
    assert "Croatia" not in cities.value and len(cities.value) == 4
    # and the country last; the entry that writes no country names none
    assert countries.value == ["Croatia", "France", "Switzerland"]


# --- a recurring entry ------------------------------------------------------------------------------------------

def _weeks(tmp_path):
    from tests.stores import workout

    def entry(title, start):
        return Event(source="calendar", type="ics", start=start, end=start + timedelta(minutes=45), title=title,
                     text=title, data={"summary": title}, position=f"{title} {start}",
                     key=content_key("c", f"{title} {start}"), tz="Europe/Berlin")

    monday = datetime(2024, 1, 1, 10, tzinfo=BERLIN)
    return write_store(tmp_path / "events.sqlite", [
        *(entry("Weekly team sync", monday + timedelta(weeks=n)) for n in range(12)),
        *(entry("Sprint planning", monday + timedelta(weeks=2 * n, hours=3)) for n in range(3)),   # three: not
        entry("Team lunch", monday + timedelta(days=2)),                                          # recurring
        workout(3, "running", 8.0), workout(10, "running", 5.0),
    ])


@pytest.mark.parametrize("question, value", [
    ("How many weekly team syncs did I have?", 12),
    ("how many sprint plannings did I have?", 2),    # held three times: the model's search stays (the workouts)
])
def test_entries_named_by_their_recurring_title_are_those_entries(tmp_path, question, value):
    trace = Trace()
    with EventStore.open(_weeks(tmp_path), read_only=True) as store:
        llm = FakeLLM([' APPLY(l=QUD("I did a workout"), fct=len)', ' RETRIEVE(query="I did a workout")'])
        assert ask(question, store, TODAY, llm=llm, trace=trace).value == value
    assert ("recurring_entries" in trace.acted) == (value == 12)


def test_a_recurring_title_is_its_entries_whatever_the_search_said_of_them(tmp_path):
    # the model searched mails ("I sent an email" for "call Mum and Dad"); the entries are no mails
    with EventStore.open(_weeks(tmp_path), read_only=True) as store:
        llm = FakeLLM([' APPLY(l=QUD("I sent an email"), fct=len)', ' RETRIEVE(query="I sent an email")'])
        assert ask("How many weekly team syncs did I have?", store, TODAY, llm=llm).value == 12


def test_the_recurring_entries_rule_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "recurring_entries")
    with EventStore.open(_weeks(tmp_path), read_only=True) as store:
        llm = FakeLLM([' APPLY(l=QUD("I did a workout"), fct=len)', ' RETRIEVE(query="I did a workout")'])
        assert ask("How many weekly team syncs did I have?", store, TODAY, llm=llm).value == 2


def test_the_day_of_a_recurring_entry_is_the_weekday_of_its_latest(tmp_path, monkeypatch):
    trace = Trace()
    with EventStore.open(_weeks(tmp_path), read_only=True) as store:
        llm = FakeLLM([])
        answer = ask("what day is the weekly team sync on", store, TODAY, llm=llm, trace=trace)
        assert answer.value == "Monday" and "recurring_weekday_frame" in trace.acted and not llm.calls
        # switched off, the question is the model's
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "recurring_weekday_frame,recurring_entries")
        llm = FakeLLM([' APPLY(l=QUD("I did a workout"), fct=len)', ' RETRIEVE(query="I did a workout")'])
        assert ask("what day is the weekly team sync on", store, TODAY, llm=llm).value == 2 and llm.calls
    # a title held three times is no recurring entry's
    from app.qud.occasions import recurring_weekday
    assert recurring_weekday("what day is the sprint planning on",
                             lambda: {"calendar": frozenset({"weekly team sync"})}) is None


def test_a_recurring_title_is_read_as_a_question_writes_it():
    from app.engine.tree import Node
    from app.qud.occasions import recurring_entries

    search = Node.from_step("q", 'RETRIEVE(query="I did a workout")')
    titles = {"calendar": frozenset({"weekly team sync", "1:1 with samuel", "football training", "call mum & dad"})}
    for question in ("how many 1:1s with Samuel have I had?", "what day is the weekly team sync on",
                     "How many times did I call Mum and Dad in 2024?"):   # "&" written "and"
        assert recurring_entries(search, question, titles) is not None
    for question in ("how many football trainings did I skip?",   # a sport's: activity_records
                     "how many team syncs did I have?"):          # not the whole title
        assert recurring_entries(search, question, titles) is None


# --- how long a stay lasted --------------------------------------------------------------------------------------

def _stays(tmp_path):
    def entry(title, day, days, location="", all_day=True):
        start = datetime(2024, 4, day, tzinfo=BERLIN)
        end = start + (timedelta(days=days) if all_day else timedelta(hours=days))
        return Event(source="calendar", type="ics", start=start, end=end, title=title, text=f"{title}\n{location}",
                     data={"summary": title, "location": location, "all_day": all_day}, position=title,
                     key=content_key("c", title), tz="Europe/Berlin")

    return write_store(tmp_path / "events.sqlite", [
        entry("Trip to Vienna", 1, 6, "Vienna, Austria"),            # the 1st to the 6th: five nights
        entry("Flight to Vienna", 1, 3, "Munich Airport", all_day=False),
        entry("Trip to Berlin", 20, 3, "Berlin, Germany"),            # two nights
        entry("Trip to Lyon", 12, 1, "Lyon, France"),                 # a day trip: no night
        entry("🎂 Jonas", 15, 1),
    ])


@pytest.mark.parametrize("question, value", [
    ("How many nights did I stay in Vienna?", 5),
    ("how many nights was the Berlin trip", 2),
    ("how many nights was i away on trips in 2024", 7),
    ("on average how many nights were my trips in 2024", 3.5),
    ("what's the fewest nights I've been away on a trip?", 2),   # not the day trip
    ("which of my trips was the longest", "Vienna"),
    ("did I spend more nights in Vienna or in Berlin?", "Vienna"),
])
def test_the_nights_of_a_trip_are_its_entrys(tmp_path, question, value):
    trace = Trace()
    with EventStore.open(_stays(tmp_path), read_only=True) as store:
        llm = FakeLLM([])
        answer = ask(question, store, TODAY, llm=llm, trace=trace, extractor=operator_models(store, "small")[1])
    assert "nights_frame" in trace.acted and not llm.calls
    assert answer.value == pytest.approx(value) if isinstance(value, float) else answer.value == value


@pytest.mark.parametrize("question", [
    "How many nights did I spend in hotels this year?",           # a hotel's nights are its booking's
    "how many nights did we stay at The Little Guesthouse?",
    "how many nights did I stay in Vienna last summer with Jonas",   # a time the frame does not read
    "How many trips did I take in 2024?",
])
def test_nights_of_a_lodging_or_of_no_trip_are_left_to_others(question):
    assert nights_asked(question) is None


# --- doing a sport ----------------------------------------------------------------------------------------------

def _runs_counted(tmp_path, events, question="How many runs did I do?") -> tuple[object, list[str], Trace]:
    """The answer of `question` over a store of `events`, and the titles of the events it counted."""
    tmp_path.mkdir(exist_ok=True)
    trace = Trace()
    with EventStore.open(write_store(tmp_path / "events.sqlite", events), read_only=True) as store:
        llm = FakeLLM([' APPLY(l=QUD("I went running"), fct=len)', ' RETRIEVE(query="I went running")'])
        answer = ask(question, store, TODAY, llm=llm, trace=trace)
        titles = {e.id: e.title for e in store.events()}
    return answer.value, sorted(titles[i] for i in answer.evidence_ids), trace


def _entry(source, title, day, data, hour=18):
    start = datetime(2024, 4, day, hour, tzinfo=BERLIN)
    return Event(source=source, type="x", start=start, end=start + timedelta(hours=1), title=title, text=title,
                 data=data, position=f"{title} {day}", key=content_key(source, f"{title} {day}"), tz="Europe/Berlin")


def test_a_sport_the_watch_records_is_counted_by_its_workouts_of_that_sport(tmp_path, monkeypatch):
    from tests.stores import workout

    events = [
        workout(3, "running", 8.0), workout(10, "running", 5.0), workout(11, "hiking", 12.0),
        _entry("calendar", "Run club", 10, {"summary": "Run club"}, hour=9),   # the run of the 10th
        _entry("calendar", "Run club", 12, {"summary": "Run club"}),           # no run recorded: skipped
        _entry("calendar", "Catan night", 13, {"summary": "Catan night"}),
        _entry("mail", "New challenge: run 50 km this month", 14, {"subject": "New challenge: run 50 km this month"}),
    ]
    value, counted, trace = _runs_counted(tmp_path, events)
    assert "activity_records" in trace.acted
    # the running app's mail mentions a run and is no run, nor is the hike; the watch records runs, so the run club
    # is counted where a run was recorded during it (one event with the run), not on the 12th
    assert value == 2 and counted == ["Running workout", "Running workout"]
    # asked about the calendar, its entries count too: the run club of the 12th
    _, counted, _ = _runs_counted(tmp_path / "calendar", events, "How many runs were on my calendar?")
    assert "Run club" in counted
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "activity_records")
    value_off, counted_off, _ = _runs_counted(tmp_path / "off", events)
    assert value_off > 2 and "New challenge: run 50 km this month" in counted_off


def test_a_sport_the_watch_does_not_record_is_counted_by_the_entries_naming_it(tmp_path):
    from tests.stores import workout

    value, counted, _ = _runs_counted(tmp_path, [
        workout(3, "hiking", 8.0),
        _entry("calendar", "Run club", 12, {"summary": "Run club"}),
        _entry("calendar", "Catan night", 13, {"summary": "Catan night"}),
        _entry("mail", "New challenge: run 50 km this month", 14, {"subject": "New challenge: run 50 km this month"}),
    ])
    assert value == 1 and counted == ["Run club"]


def _workouts_counted(tmp_path, events, question="How many workouts did I do?") -> tuple[object, list[str], Trace]:
    """The answer of `question` (searched as "I did a workout") over a store of `events`, and what it counted."""
    tmp_path.mkdir(exist_ok=True)
    trace = Trace()
    with EventStore.open(write_store(tmp_path / "events.sqlite", events), read_only=True) as store:
        llm = FakeLLM([' APPLY(l=QUD("I did a workout"), fct=len)', ' RETRIEVE(query="I did a workout")'])
        # a search that finds what mentions a workout, as the cross-encoders do: the plans and mails too
        answer = ask(question, store, TODAY, llm=llm, trace=trace, retriever=EveryEvent())
        titles = {e.id: e.title for e in store.events()}
    return answer.value, sorted(titles[i] for i in answer.evidence_ids), trace


WORKOUTS_AND_PLANS = [
    _entry("calendar", "Workout with Tom", 12, {"summary": "Workout with Tom"}),   # planned; none recorded
    _entry("mail", "Your workout plan for May", 14, {"subject": "Your workout plan for May"}),
]


def test_a_workout_of_any_sport_is_one_the_watch_recorded(tmp_path, monkeypatch):
    from tests.stores import hikes_and_a_run

    value, counted, trace = _workouts_counted(tmp_path, hikes_and_a_run() + WORKOUTS_AND_PLANS)
    assert "activity_records" in trace.acted
    assert value == 4 and counted == ["Hiking workout"] * 3 + ["Running workout"]
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "activity_records")
    value_off, counted_off, _ = _workouts_counted(tmp_path / "off", hikes_and_a_run() + WORKOUTS_AND_PLANS)
    assert value_off > 4 and "Workout with Tom" in counted_off


def test_without_recorded_workouts_the_entries_are_the_workouts(tmp_path):
    value, counted, trace = _workouts_counted(tmp_path, WORKOUTS_AND_PLANS)
    assert "activity_records" not in trace.acted and "Workout with Tom" in counted


def test_a_search_that_names_no_sport_is_left_alone():
    from app.engine.tree import Node
    from app.qud.occasions import activity_records

    for query in ("I listened to music", "I ate at a restaurant", "I met with Nina", "I bought running shoes online"):
        assert activity_records(Node.from_step("q", f'RETRIEVE(query="{query}")')) is None


# --- a span written as an instant -----------------------------------------------------------------------------

@pytest.mark.parametrize("condition, spanned", [
    ("i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.start_datetime",
     "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.end_datetime"),
    ("i1.start_datetime >= i2.start_datetime and i1.start_datetime <= i2.start_datetime",
     "i1.start_datetime >= i2.start_datetime and i1.start_datetime <= i2.end_datetime"),
    ("i2.start_date <= i1.start_date and i1.start_date < i2.start_date",
     "i2.start_date <= i1.start_date and i1.start_date < i2.end_date"),
    ('i1["start_datetime"] > i2["start_datetime"] and i1["start_datetime"] < i2["start_datetime"] and i1.x == i2.x',
     'i1["start_datetime"] > i2["start_datetime"] and i1["start_datetime"] < i2["end_datetime"] and i1.x == i2.x'),
])
def test_an_instant_no_event_falls_in_is_read_as_the_other_events_span(condition, spanned):
    assert spanned_condition(condition) == spanned


@pytest.mark.parametrize("condition", [
    "i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.end_datetime",              # already a span
    "i1.start_datetime >= i2.start_datetime - timedelta(days=7) and i1.start_datetime < i2.start_datetime",  # a week
    "i1.start_datetime > i2.start_datetime and i1.start_datetime < i2.start_datetime + timedelta(hours=2)",
    "i1.start_datetime == i2.start_datetime",
    "i1.duration >= i2.duration and i1.duration < i2.duration",      # no time with an end
    "i1.start_datetime >= i1.start_datetime and i1.start_datetime < i1.start_datetime",   # one side only
    "i1.start_datetime >=",
])
def test_other_conditions_are_left_as_they_are(condition):
    assert spanned_condition(condition) is None


INSTANT_JOIN = [
    ' APPLY(l=QUD("my hikes in the Zermatt trip"), fct=len)',
    ' JOIN(l1=QUD("I went hiking"), l2=QUD("my trip to Zermatt"), '
    'condition="i1.start_datetime >= i2.start_datetime and i1.start_datetime < i2.start_datetime")',
    ' RETRIEVE(query="I went hiking")',
    ' RETRIEVE(query="my trip to Zermatt")',
]


def test_a_join_written_with_an_instant_keeps_the_trips_span(trip_store):
    trace = Trace()
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many hikes fell in the Zermatt trip?", store, TODAY, llm=FakeLLM(list(INSTANT_JOIN)),
                     trace=trace)
    assert answer.value == 1 and "span_joins" in trace.acted     # the hike of 10 April, inside 9 to 12 April
    join = answer.tree.children[0]
    assert join.step.endswith('condition="i1.start_datetime >= i2.start_datetime and i1.start_datetime < '
                              'i2.end_datetime")')


def test_the_span_joins_rule_can_be_switched_off(trip_store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "span_joins")
    trace = Trace()
    with EventStore.open(trip_store, read_only=True) as store:
        answer = ask("How many hikes fell in the Zermatt trip?", store, TODAY, llm=FakeLLM(list(INSTANT_JOIN)),
                     trace=trace)
    assert answer.value == 0 and "span_joins" not in trace.acted


# --- a time of doing a sport ------------------------------------------------------------------------------------

@pytest.mark.parametrize("question, rest, words", [
    ("How many songs did I listen to during workouts in 2023?", "How many songs did I listen to in 2023?",
     "during workouts"),
    ("How many tracks did I play while working out in 2021?", "How many tracks did I play in 2021?",
     "while working out"),
    ("how many spotify plays happened during my bike rides in 2022?", "how many spotify plays happened in 2022?",
     "during my bike rides"),
    ("do i ever listen to spotify while playing tennis?", "do i ever listen to spotify?", "while playing tennis"),
    ("Which artist did I listen to most when I'm out running?", "Which artist did I listen to most?",
     "when I'm out running"),
])
def test_a_sport_named_as_a_time_is_taken_out_of_the_question(question, rest, words):
    from app.qud.occasions import activity_clause

    occasion = activity_clause(question)
    assert (occasion.rest, occasion.words, occasion.query) == (rest, words, "I did a workout")


@pytest.mark.parametrize("question", [
    "what's the highest heart rate my watch ever recorded during a workout?",   # asks about the workout itself
    "Maximum heart rate in my workouts during 2020?", "average heart rate on my runs this year",
    "total km on my walking workouts this year?", "have i been on my bike at all in the last 30 days?",
    "When did I first go running in 2021?", "How many runs did I do while I was in Seoul?",
    "How long did I run during my Lisbon trip?",
])
def test_other_questions_name_no_sport_as_a_time(question):
    from app.qud.occasions import activity_clause

    assert activity_clause(question) is None


def _songs_and_workouts(tmp_path):
    from tests.qud.test_pipeline import song

    # hikes 9:00-11:00 on 3, 10 and 17 April, a run on the 20th; songs at 9:10 on the 3rd, 9:05 and 9:20 on the 10th,
    # 9:00 on the 11th (no workout) and 9:30 on the 20th
    return write_store(tmp_path / "events.sqlite", [
        *hikes_and_a_run(), song(3, 10, "Mitski"), song(10, 5, "Lorde"), song(10, 20, "Lorde"), song(11, 0, "Lorde"),
        song(20, 30, "Opeth")])


SONG_COUNT = [' APPLY(l=QUD("songs I played"), fct=len)', ' RETRIEVE(query="I listened to music")']


def test_each_retrieve_is_joined_with_the_workouts_of_the_sport(tmp_path):
    path = _songs_and_workouts(tmp_path)
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        during = ask("How many songs did I listen to during workouts?", store, TODAY, llm=FakeLLM(list(SONG_COUNT)),
                     trace=trace)
        hiking = ask("How many songs did I play while hiking?", store, TODAY, llm=FakeLLM(list(SONG_COUNT)))
        runs = ask("How many songs did I play during my runs?", store, TODAY, llm=FakeLLM(list(SONG_COUNT)))
    assert during.value == 4 and "activity_clauses" in trace.acted    # not the song of the 11th
    assert during.tree.children[0].step.startswith("JOIN(")
    assert (hiking.value, runs.value) == (3, 1)


def test_the_activity_rule_can_be_switched_off(tmp_path, monkeypatch):
    path = _songs_and_workouts(tmp_path)
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "activity_clauses")
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many songs did I listen to during workouts?", store, TODAY, llm=FakeLLM(list(SONG_COUNT)))
    assert answer.value == 5


ARTIST_TOP = [' ARGMAX(l=QUD("number of songs per artist"), arg_attr_name="count", val_attr_name="artist")',
              ' MAP(l=QUD("my songs grouped by artist"), fct=len, res_name="count")',
              ' GROUP_BY(l=QUD("my songs with artist"), attr_names=["artist"])',
              ' EXTRACT(l=QUD("my songs"), attr_names=["artist"])',
              ' RETRIEVE(query="I listened to music")']


def test_the_artist_heard_most_while_running_is_of_the_songs_during_runs(tmp_path):
    from tests.qud.test_pipeline import song
    from tests.stores import workout

    path = write_store(tmp_path / "events.sqlite", (
        workout(3, "running", 10.0), workout(10, "running", 12.0),
        song(3, 10, "Mitski"), song(3, 20, "Mitski"), song(10, 5, "Lorde"), song(10, 50, "Mitski"),
        song(11, 0, "Lorde"), song(12, 0, "Lorde"), song(13, 0, "Lorde")))   # the last three: no run
    with EventStore.open(path, read_only=True) as store:
        answer = ask("Which artist did I listen to most when running?", store, TODAY, llm=FakeLLM(list(ARTIST_TOP)))
    assert answer.value == "Mitski"      # Lorde, counting every song


# --- a sport the search dropped --------------------------------------------------------------------------------

ROWED = [' SUM(l=QUD("I went for a workout with distance"), attr_name="distance_km")',
         ' EXTRACT(l=QUD("I went for a workout"), attr_names=["distance_km"], attr_types=[float])',
         ' RETRIEVE(query="I went for a workout")']


def test_a_sport_the_search_dropped_is_searched_again(tmp_path, monkeypatch):
    from tests.stores import workout

    path = write_store(tmp_path / "events.sqlite", hikes_and_a_run() + [workout(5, "rowing", 9.5),
                                                                         workout(12, "rowing", 7.25)])
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        rowed = ask("how many km did i row in April 2024?", store, TODAY, llm=FakeLLM(list(ROWED)), trace=trace)
        assert rowed.value == pytest.approx(16.75) and "sport_restored" in trace.acted
        # switched off: every workout's distance
        monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "sport_restored")
        assert ask("how many km did i row in April 2024?", store, TODAY, llm=FakeLLM(list(ROWED))).value \
            == pytest.approx(63.6)


def test_row_is_a_sport_but_not_in_a_row():
    from app.qud.occasions import sports_named

    assert sports_named("longest row I have ever done, in km?") == {frozenset({"rowing", "rowed"})}
    assert sports_named("did I listen to the same song three days in a row?") == set()
    assert sports_named("did i run or row more km last year") == {frozenset({"rowing", "rowed"}),
                                                                 frozenset("run runs running ran jog jogging".split())}


def test_the_places_stayed_are_the_day_long_entries_locations(tmp_path):
    with EventStore.open(_stays(tmp_path), read_only=True) as store:
        # not the flight's airport (hours long) nor the birthday (no place)
        assert store.stay_places() == {"Vienna", "Berlin", "Lyon"}
