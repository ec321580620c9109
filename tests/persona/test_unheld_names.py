"""A search that calls a name a kind where p13's data holds no such name keeps the events that write it
(app.qud.kinds, unheld_names): none, where it had found every podcast played."""

from __future__ import annotations

from datetime import date

from app.operators import operator_models
from app.qud.decompose import Trace
from app.qud.pipeline import ask
from app.sources import SOURCES
from tests.fakes import FakeLLM

TODAY = date(2024, 8, 1)


def _count(query: str) -> list[str]:
    return [f' APPLY(l=QUD("{query}"), fct=len)', f' RETRIEVE(query="{query}")']


def test_a_name_the_data_does_not_hold_is_searched_as_words_the_events_write(store):
    shows = store.name_values({"podcast_stream": SOURCES["podcast_stream"].name_keys})["podcast_stream"]
    assert "coldplay" not in " ".join(shows)
    trace = Trace()
    answer = ask("have i ever listened to coldplay", store, TODAY,
                 llm=FakeLLM(_count("I listened to the podcast coldplay")), trace=trace,
                 retriever=operator_models(store, "small")[0])
    # the yes/no question is asked as a count (yes_no_frame), whose search is kept to the events naming coldplay
    assert {"unheld_names", "yes_no_frame"} <= trace.acted and answer.value == "no"
    kept = answer.tree.children[0]
    assert kept.operator == "FILTER" and '"coldplay" in' in kept.step and kept.size == 0
    assert kept.children[0].size > 0   # the search itself found podcasts


def test_a_name_the_data_holds_is_left_to_the_search(store):
    show = next(e.data["show"] for e in store.events(source="podcast_stream"))
    trace = Trace()
    answer = ask(f"how many episodes of {show} did I play?", store, TODAY,
                 llm=FakeLLM(_count(f"I listened to the podcast {show}")), trace=trace)
    assert "unheld_names" not in trace.acted and answer.value > 0


def test_the_unheld_names_rule_can_be_switched_off(store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "unheld_names")
    answer = ask("have i ever listened to coldplay", store, TODAY,
                 llm=FakeLLM(_count("I listened to the podcast coldplay")),
                 retriever=operator_models(store, "small")[0])
    # the search finds the podcasts played, and the answer says yes for them
    assert answer.value == "yes" and answer.tree.children[0].operator == "RETRIEVE"
