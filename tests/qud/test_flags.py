"""Events the data marks with a flag the texts do not write: a skipped song, an indoor ride (app.qud.flags, rule
flagged_events)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.engine.tree import Node
from app.qud.decompose import Trace
from app.qud.flags import flagged_events, flags_asked
from app.qud.pipeline import ask
from app.store import EventStore
from importers.base import Event, content_key
from tests.fakes import FakeLLM
from tests.stores import BERLIN, write_store

from .test_pipeline import TODAY


@pytest.mark.parametrize("question, flags", [
    ("how many songs did i skip in october", {"music_stream": ("skipped",)}),
    ("how many indoor rides did I do in 2023?", {"workout": ("indoor",)}),
    ("how many treadmill runs have I done?", {"workout": ("indoor",)}),
    ("which of my amazon orders got cancelled", {"online_purchase": ("status=cancelled",)}),
    ("how many songs did I play in October?", {}),
])
def test_the_flags_a_question_asks_for(question, flags):
    assert flags_asked(question) == flags


def play(minute: int, track: str, skipped: bool) -> Event:
    start = datetime(2024, 3, 2, 18, minute, tzinfo=BERLIN)
    return Event(source="music_stream", type="spotify", start=start, end=start + timedelta(minutes=1),
                 title=f"Air - {track}", text=f"Air - {track}",
                 data={"artist": "Air", "track": track, "ms_played": 60000, "skipped": skipped},
                 position=f"play {minute}", key=content_key("s", track, str(minute)), tz="Europe/Berlin")


SKIP_COUNT = [' APPLY(l=QUD("I skipped music"), fct=len)', ' RETRIEVE(query="I skipped music")']


def test_skipped_songs_are_the_plays_marked_skipped(tmp_path):
    path = write_store(tmp_path / "events.sqlite", [play(1, "La femme d'argent", False), play(3, "Sexy Boy", True),
                                                    play(5, "Kelly Watch the Stars", True),
                                                    play(7, "Talisman", False)])
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        answer = ask("How many songs did I skip?", store, TODAY, llm=FakeLLM(list(SKIP_COUNT)), trace=trace)
        skipped = {e.id for e in store.events(source="music_stream") if e.data["skipped"]}
    assert answer.value == 2 and set(answer.evidence_ids) == skipped and "flagged_events" in trace.acted
    flagged = answer.tree.children[0]
    assert flagged.step == ('FILTER(l=QUD("I skipped music: every event about it"), '
                            'filter=lambda attr: attr.get("skipped", False) == True)')
    # no text says "skipped": the plays are searched as plays
    assert flagged.children[0].step == 'RETRIEVE(query="I listened to music")' and flagged.children[0].size == 4


def test_a_flag_keeps_the_rest_of_the_query_and_leaves_other_sources_alone():
    tree = Node.from_step("q", 'APPLY(l=QUD("rides"), fct=len)',
                          (Node.from_step("rides", 'RETRIEVE(query="I went cycling in the Alps")'),))
    flagged = flagged_events(tree, "How many indoor rides did I do?").children[0]
    assert flagged.children[0].step == 'RETRIEVE(query="I went cycling in the Alps")'
    assert 'attr.get("indoor", False) == True' in flagged.step
    plays = Node.from_step("q", 'RETRIEVE(query="I listened to a podcast")')
    assert flagged_events(plays, "How many indoor rides did I do?") is None
    # "skip" a training is to miss it: the search means workouts, which have no such flag
    missed = Node.from_step("q", 'RETRIEVE(query="I skipped football training")')
    assert flagged_events(missed, "how many football trainings did I skip this year?") is None


def order(day: int, product: str, status: str) -> Event:
    start = datetime(2024, 3, day, 10, tzinfo=BERLIN)
    return Event(source="online_purchase", type="amazon", start=start, end=None, title=product,
                 text=f"{product} order {day} {status}", data={"product": product, "quantity": 1, "total": 10.0 * day,
                                                               "order_id": f"{day}", "status": status},
                 position=f"row {day}", key=content_key("a", product), tz="Europe/Berlin")


CANCELLED = [' ARGMAX(l=QUD("I cancelled an order with product"), arg_attr_name="start_datetime", '
             'val_attr_name="product")',
             ' EXTRACT(l=QUD("I cancelled an order"), attr_names=["start_datetime", "product"], '
             'attr_types=[datetime.fromisoformat, str])',
             ' RETRIEVE(query="I cancelled an order")']
SPENT = [' SUM(l=QUD("I bought something online with amount paid"), attr_name="total")',
         ' EXTRACT(l=QUD("I bought something online"), attr_names=["total"], attr_types=[float])',
         ' RETRIEVE(query="I bought something online")']


def test_a_cancelled_order_is_one_its_status_says_so_and_a_denial_keeps_the_others(tmp_path):
    path = write_store(tmp_path / "events.sqlite", [order(2, "Fairy lights", "Cancelled"), order(5, "Kettle", "Closed"),
                                                    order(9, "Tea towel", "Closed")])
    trace = Trace()
    with EventStore.open(path, read_only=True) as store:
        which = ask("what amazon order did I cancel?", store, TODAY, llm=FakeLLM(list(CANCELLED)), trace=trace)
        spent = ask("how much did I spend on amazon, not counting the cancelled one?", store, TODAY,
                    llm=FakeLLM(list(SPENT)))
    assert which.value == "Fairy lights" and "flagged_events" in trace.acted
    assert spent.value == 140.0   # 50 + 90, not the 20 of the cancelled order
