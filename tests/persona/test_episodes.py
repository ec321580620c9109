"""'How many different episodes of <a series> have I watched?' counts the titles of the plays (app.qud.items,
episodes_by_title): p13's generator names episodes of other seasons alike, as real series do."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from app.qud.decompose import Trace
from app.qud.pipeline import ask
from tests.fakes import FakeLLM

TODAY = date(2024, 8, 1)


def _by_name_tree(series: str) -> list[str]:
    asked = f"I watched {series}"
    return [f' APPLY(l=QUD("{asked} grouped by episode"), fct=len)',
            f' GROUP_BY(l=QUD("{asked} with episode"), attr_names=["episode"])',
            f' EXTRACT(l=QUD("{asked}"), attr_names=["episode"], attr_types=[str])',
            f' RETRIEVE(query="{asked}")']


def _a_series_whose_episode_names_repeat(store):
    titles, names = defaultdict(set), defaultdict(set)
    for event in store.events(source="tvseries_stream"):
        titles[event.data["series"]].add(event.title)
        names[event.data["series"]].add(event.data["episode"])
    series = max(titles, key=lambda s: len(titles[s]) - len(names[s]))
    assert len(titles[series]) > len(names[series])
    return series, len(titles[series])


def test_different_episodes_are_counted_by_the_titles_of_their_plays(store):
    series, episodes = _a_series_whose_episode_names_repeat(store)
    trace = Trace()
    answer = ask(f"How many different episodes of {series} have I watched?", store, TODAY,
                 llm=FakeLLM(_by_name_tree(series)), trace=trace)
    assert "episodes_by_title" in trace.acted
    assert answer.tree.children[0].step.endswith('attr_names=["title"])')
    assert answer.value == episodes


def test_the_episodes_rule_can_be_switched_off(store, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "episodes_by_title")
    series, episodes = _a_series_whose_episode_names_repeat(store)
    answer = ask(f"How many different episodes of {series} have I watched?", store, TODAY,
                 llm=FakeLLM(_by_name_tree(series)))
    assert answer.tree.children[0].step.endswith('attr_names=["episode"])') and answer.value < episodes
