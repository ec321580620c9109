"""A search that calls a name of the data a kind it is not names the kind the data holds it as (rule named_kinds,
app.qud.kinds), and the store's names behind it (EventStore.name_values)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.engine.tree import Node
from app.qud.decompose import Trace
from app.qud.kinds import named_kind, named_kinds, short_name
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import write_store

from .test_pipeline import TODAY

NAMES = {"tvseries_stream": frozenset({"friends", "narcos"}), "podcast_stream": frozenset({"the daily", "serial"}),
         "music_stream": frozenset({"fleetwood mac", "dreams"}), "movie_stream": frozenset({"heat"}),
         "audiobook_stream": frozenset()}


@pytest.mark.parametrize("query, question, better", [
    ("I watched the podcast Friends", "How many episodes of Friends have I watched?", "I watched the series Friends"),
    ("I listened to the audiobook fleetwood mac", "more fleetwood mac or abba last year?",
     "I listened to fleetwood mac"),                    # songs are found without a kind
    ("I listened to the podcast The Daily?", "did I hear the daily?", None),          # it is a podcast
    ("I watched the movie narcos on Netflix", "narcos episodes on Netflix", "I watched the series narcos on Netflix"),
])
def test_a_name_is_searched_as_the_kind_the_data_holds_it_as(query, question, better):
    assert named_kind(query, question, NAMES) == better


@pytest.mark.parametrize("query, question", [
    ("I watched the podcast Friends", "Did I watch the podcast Friends?"),   # the person said the kind
    ("I listened to the podcast Coldplay", "have i ever listened to coldplay"),  # a name the data does not hold
    ("I listened to the podcast Friends", "how often did I hear Friends?"),  # a series is watched, not heard
    ("I listened to the podcast", "How many podcasts did I hear?"),          # no name
    ("I listened to music", "How much music did I play?"),
])
def test_a_search_is_left_alone_where_the_data_does_not_say_otherwise(query, question):
    assert named_kind(query, question, NAMES) is None


def test_the_store_is_read_only_where_a_search_writes_a_kind_before_a_name():
    asked = []

    def names():
        asked.append(1)
        return NAMES

    plain = Node.from_step("q", 'APPLY(l=QUD("I listened to music"), fct=len)',
                           (Node.from_step("I listened to music", 'RETRIEVE(query="I listened to music")'),))
    assert named_kinds(plain, "How many songs did I play?", names) is None and not asked
    claimed = Node.from_step("q", 'APPLY(l=QUD("I watched the podcast Friends"), fct=len)',
                             (Node.from_step("I watched the podcast Friends",
                                             'RETRIEVE(query="I watched the podcast Friends")'),))
    renamed = named_kinds(claimed, "How many episodes of Friends did I watch?", names)
    assert [n.call.get("query") for n in renamed.walk() if n.operator == "RETRIEVE"] == ["I watched the series Friends"]


def _play(day: int, source: str, data: dict) -> Event:
    start = datetime(2024, 4, day, 20, tzinfo=timezone.utc)
    title = " - ".join(str(v) for v in data.values())
    return Event(source=source, type="test", start=start, end=start + timedelta(minutes=30), title=title, text=title,
                 data=data, position=f"{source} {day}", key=content_key(source, day))


@pytest.fixture
def streams(tmp_path):
    return write_store(tmp_path / "streams.sqlite", [
        *(_play(day, "tvseries_stream", {"series": "Friends", "title": f"Friends: Season 1: Episode {day}"})
          for day in (1, 2, 3)),
        _play(4, "podcast_stream", {"show": "Conan O'Brien Needs A Friend", "episode": "Tina Fey"}),
        _play(6, "podcast_stream", {"show": "Huberman Lab", "episode": "Sleep"}),
        _play(5, "music_stream", {"artist": "Fleetwood Mac", "track": "Dreams", "album": "Rumours"}),
    ])


def test_the_store_knows_its_names_in_lower_case(streams):
    with EventStore.open(streams, read_only=True) as store:
        names = store.name_values({"tvseries_stream": ("series",), "music_stream": ("artist", "track"),
                                   "movie_stream": ("title",)})
    assert names == {"tvseries_stream": frozenset({"friends"}), "music_stream": frozenset({"fleetwood mac", "dreams"}),
                     "movie_stream": frozenset()}


PODCAST_FRIENDS = [' APPLY(l=QUD("I watched the podcast Friends"), fct=len)',
                   ' RETRIEVE(query="I watched the podcast Friends")']


def test_episodes_of_a_series_the_model_called_a_podcast_are_counted(streams):
    trace = Trace()
    with EventStore.open(streams, read_only=True) as store:
        answer = ask("How many episodes of Friends have I watched?", store, TODAY, llm=FakeLLM(list(PODCAST_FRIENDS)),
                     trace=trace)
    assert "named_kinds" in trace.acted
    assert [n.step for n in answer.tree.walk() if n.operator == "RETRIEVE"] == [
        'RETRIEVE(query="I watched the series Friends")']
    assert answer.value == 3   # the three episodes of the series, not the podcast that names a friend


def test_the_named_kinds_rule_can_be_switched_off(streams, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "named_kinds")
    trace = Trace()
    with EventStore.open(streams, read_only=True) as store:
        answer = ask("How many episodes of Friends have I watched?", store, TODAY, llm=FakeLLM(list(PODCAST_FRIENDS)),
                     trace=trace)
    assert "named_kinds" not in trace.acted
    assert [n.step for n in answer.tree.walk() if n.operator == "RETRIEVE"] == [
        'RETRIEVE(query="I watched the podcast Friends")']


# --- a name said short ---

SHOWS = {"podcast_stream": frozenset({"huberman lab", "conan o'brien needs a friend", "the tim ferriss show",
                                      "football weekly"}),
         "tvseries_stream": frozenset({"the office", "friends"}), "music_stream": frozenset({"fleetwood mac"}),
         "movie_stream": frozenset(), "audiobook_stream": frozenset()}


@pytest.mark.parametrize("query, question, full", [
    ("I listened to the podcast huberman", "huberman or conan, which one have i listened to more",
     "I listened to the podcast huberman lab"),
    ("I listened to the audiobook by tim ferriss", "more tim ferriss or football weekly?",
     "I listened to the podcast the tim ferriss show"),       # the kind the data holds it as
    ("I listened to the artist fleetwood", "how often did I play fleetwood?", "I listened to fleetwood mac"),
    ("I watched the podcast office", "how many episodes of the office did I watch?", "I watched the series the office"),
])
def test_a_name_said_short_is_searched_in_full(query, question, full):
    assert short_name(query, question, SHOWS) == full


@pytest.mark.parametrize("query, question", [
    ("I listened to the podcast football weekly", "did I hear football weekly?"),   # the whole name
    ("I listened to the podcast the", "did I hear the podcast the?"),               # no name
    ("I listened to the podcast coldplay", "have i ever listened to coldplay"),     # part of no name
    ("I listened to the podcast huberman", "how often did I play it?"),             # the question does not say it
    ("I watched the podcast huberman", "how often did I watch huberman?"),          # a podcast is heard
    ("I listened to the podcast lab in 2023", "lab in 2023"),                       # more than a name
])
def test_a_search_is_left_alone_where_no_one_name_holds_its_words(query, question):
    assert short_name(query, question, SHOWS) is None


def test_plays_of_a_show_named_short_are_counted(streams, monkeypatch):
    tree = [' APPLY(l=QUD("I listened to the podcast conan"), fct=len)',
            ' RETRIEVE(query="I listened to the podcast conan")']
    trace = Trace()
    with EventStore.open(streams, read_only=True) as store:
        answer = ask("how many times did I listen to conan?", store, TODAY, llm=FakeLLM(list(tree)), trace=trace)
    assert "short_names" in trace.acted
    assert [n.step for n in answer.tree.walk() if n.operator == "RETRIEVE"] == [
        'RETRIEVE(query="I listened to the podcast conan o\'brien needs a friend")']
    assert answer.value == 1   # Conan's one play, not Huberman Lab's too
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "short_names")
    with EventStore.open(streams, read_only=True) as store:
        off = ask("how many times did I listen to conan?", store, TODAY, llm=FakeLLM(list(tree)))
    assert [n.step for n in off.tree.walk() if n.operator == "RETRIEVE"] == [
        'RETRIEVE(query="I listened to the podcast conan")']
