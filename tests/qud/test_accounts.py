"""Whose events on a shared account: "I" is the owner's profile (rule own_profile, app.qud.accounts)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.engine.tree import Node
from app.qud.accounts import own_profile, own_profile_test
from app.qud.decompose import Trace
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import write_store

from .test_pipeline import TODAY

PROFILES = {"tvseries_stream": frozenset({"siobhán", "conor", "guest"}), "movie_stream": frozenset({"siobhán"})}
MINE = 'str(attr.get("profile") or "siobhán").lower() == "siobhán"'


@pytest.mark.parametrize("question", [
    "how many hours of netflix have i watched this year?", "How many episodes of Narcos have I watched?",
    "what was the first thing I watched on Netflix this year?",
])
def test_a_question_about_my_viewing_keeps_my_profile(question):
    assert own_profile_test("Siobhán Kelly", PROFILES, question) == MINE


@pytest.mark.parametrize("owner, profiles, question", [
    ("Siobhán Kelly", PROFILES, "what does Conor watch most on netflix"),         # another profile
    ("Siobhán Kelly", PROFILES, "what did the guest profile watch on netflix"),
    ("Siobhán Kelly", PROFILES, "who's been watching netflix on the ipad?"),      # more than the owner
    ("Siobhán Kelly", PROFILES, "how much netflix did we watch in May?"),
    ("Anna Berg", PROFILES, "how much netflix have I watched?"),                  # no profile is the owner's
    ("Siobhán Kelly", {"tvseries_stream": frozenset({"siobhán"})}, "how much netflix have I watched?"),  # one profile
    (None, PROFILES, "how much netflix have I watched?"),                         # no owner known
])
def test_the_profiles_stay_as_they_are_where_the_question_or_the_data_says_so(owner, profiles, question):
    assert own_profile_test(owner, profiles, question) is None


def test_only_searches_for_a_shared_accounts_events_are_narrowed():
    looked: list[str] = []

    def owner():
        looked.append("owner")
        return "Siobhán Kelly"

    dinners = Node.from_step("q", 'APPLY(l=QUD("I had dinner"), fct=len)',
                             (Node.from_step("I had dinner", 'RETRIEVE(query="I had dinner")'),))
    assert own_profile(dinners, "how many dinners did I have?", owner, lambda: PROFILES) is None and not looked
    single = {"tvseries_stream": frozenset({"siobhán"})}
    watched = Node.from_step("q", 'APPLY(l=QUD("I watched Narcos"), fct=len)',
                             (Node.from_step("I watched Narcos", 'RETRIEVE(query="I watched Narcos")'),))
    assert own_profile(watched, "how much Narcos did I watch?", owner, lambda: single) is None and not looked
    mine = own_profile(watched, "how much Narcos did I watch?", owner, lambda: PROFILES)
    assert [n.step for n in mine.walk()][1] == f'FILTER(l=QUD("I watched Narcos: every event about it"), ' \
                                               f'filter=lambda attr: {MINE})'


def _episode(day: int, profile: str) -> Event:
    start = datetime(2024, 4, day, 20, tzinfo=timezone.utc)
    title = f"Narcos: Season 1: Episode {day}"
    return Event(source="tvseries_stream", type="netflix", start=start, end=start + timedelta(minutes=50),
                 title=title, text=title, position=f"row {day}", key=content_key("tv", day),
                 data={"series": "Narcos", "title": title, "profile": profile, "duration_s": 3000.0})


def _mail(day: int, sender: str, to: str) -> Event:
    start = datetime(2024, 3, day, 9, tzinfo=timezone.utc)
    return Event(source="mail", type="mbox", start=start, end=None, title=f"Hello {day}", text="a mail",
                 position=f"message {day}", key=content_key("mail", day),
                 data={"from_name": sender.split(" <")[0], "from": sender, "to": [to]})


@pytest.fixture
def household(tmp_path):
    me, conor = "Siobhán Kelly <siobhan@kelly.ie>", "Conor Byrne <conor@byrne.ie>"
    return write_store(tmp_path / "household.sqlite", [
        _episode(1, "Siobhán"), _episode(2, "Siobhán"), _episode(3, "Conor"), _episode(4, "Conor"),
        _episode(5, "Conor"), _mail(1, conor, me), _mail(2, me, conor), _mail(3, conor, me)])


NARCOS = [' APPLY(l=QUD("I watched Narcos"), fct=len)', ' RETRIEVE(query="I watched Narcos")']


def test_my_episodes_are_counted_not_the_households(household):
    trace = Trace()
    with EventStore.open(household, read_only=True) as store:
        answer = ask("How many episodes of Narcos have I watched?", store, TODAY, llm=FakeLLM(list(NARCOS)),
                     trace=trace)
    assert answer.value == 2 and "own_profile" in trace.acted


def test_the_own_profile_rule_can_be_switched_off(household, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "own_profile")
    with EventStore.open(household, read_only=True) as store:
        answer = ask("How many episodes of Narcos have I watched?", store, TODAY, llm=FakeLLM(list(NARCOS)))
    assert answer.value == 5
