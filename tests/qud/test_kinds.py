"""A search that calls a name of the data a kind it is not names the kind the data holds it as (rule named_kinds,
app.qud.kinds), and the store's names behind it (EventStore.name_values)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.engine.tree import Node
from app.qud.decompose import Trace
from app.qud.frames import titles_capitalised
from app.qud.kinds import named_kind, named_kinds, short_name
from app.operators import operator_models
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


def test_the_store_knows_its_names_as_written_too(streams):
    with EventStore.open(streams, read_only=True) as store:
        names = store.name_values({"tvseries_stream": ("series",), "podcast_stream": ("show",)}, lower=False)
    assert names == {"tvseries_stream": frozenset({"Friends"}),
                     "podcast_stream": frozenset({"Conan O'Brien Needs A Friend", "Huberman Lab"})}


def test_a_work_said_in_lower_case_is_written_as_the_data_writes_it_before_the_model_reads_it(streams, monkeypatch):
    steps = [' APPLY(l=QUD("I listened to Huberman Lab"), fct=len)', ' RETRIEVE(query="I listened to Huberman Lab")']
    question = "how many episodes of huberman lab did i hear"
    for switched_off in (False, True):
        if switched_off:
            monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "titles_capitalised")
        trace, llm = Trace(), FakeLLM(list(steps))
        with EventStore.open(streams, read_only=True) as store:
            ask(question, store, TODAY, llm=llm, trace=trace)
        prompt = llm.calls[0][0]
        assert ("titles_capitalised" in trace.acted) is not switched_off
        assert ("episodes of Huberman Lab did i hear" in prompt) is not switched_off
    works = ["Stranger Things", "Ozark", "Friends", "Wednesday", "The Office", "Fleetwood Mac"]
    assert titles_capitalised("how many stranger things episodes did i watch", works) \
        == "how many Stranger Things episodes did i watch"
    assert titles_capitalised("did i watch any ozark in 2021", works) == "did i watch any Ozark in 2021"
    # a word the questions use as a word, a weekday, a title of one word besides "the", and the first word stay
    assert titles_capitalised("how many friends did i meet on wednesday at the office", works) \
        == "how many friends did i meet on wednesday at the office"
    assert titles_capitalised("fleetwood mac songs?", works) == "fleetwood mac songs?"


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


def _framed(path, question: str, rule: str):
    """`question`'s answer, which the frame `rule` writes the whole tree of (the model is never asked)."""
    trace, llm = Trace(), FakeLLM([])
    answer = _asked(path, question, llm, trace)
    assert rule in trace.acted and not llm.calls
    return answer


def _asked(path, question: str, llm: FakeLLM, trace: Trace | None = None):
    """`question`'s answer over the store at `path` with the shipped operator models (the receipts' totals and the
    names' plays are read by them, not by the lexical baselines)."""
    with EventStore.open(path, read_only=True) as store:
        retriever, extractor = operator_models(store, "small")
        return ask(question, store, TODAY, llm=llm, trace=trace, retriever=retriever, extractor=extractor)


# --- a shop known by its mails -----------------------------------------------------------------------------------

def _shop_mail(n: int, when: datetime, sender: str, subject: str, body: str, to: str = "Siobhan Kelly") -> Event:
    domain = sender.lower().replace(" ", "")
    return Event(source="mail", type="mbox", start=when, end=None, title=subject, text=f"{sender}\n{subject}\n{body}",
                 data={"from": f"orders@{domain}.ie", "from_name": sender, "to": [f"{to} <siobhan@example.ie>"],
                       "subject": subject, "body": body}, position=f"mail {n}", key=content_key("m", f"{n}"))


def _orders(tmp_path):
    """Six Munchbox receipts (four in 2023), three Amazon purchases, a bank statement naming Munchbox and a friend
    who suggests it."""
    start = datetime(2022, 11, 4, 19, tzinfo=timezone.utc)
    totals = [20.0, 30.0, 12.5, 40.0, 25.0, 18.0]
    events = [_shop_mail(i, start + timedelta(days=40 * i), "Munchbox", "Your Munchbox order from Sprezzatura",
                         f"Your food from Sprezzatura is on its way.\n\n1x Burrata €9.00\n\nTotal €{total:.2f}")
              for i, total in enumerate(totals)]
    events += [Event(source="online_purchase", type="amazon", start=start + timedelta(days=50 * d), end=None,
                     title=product, text=product, data={"product": product, "quantity": 1, "total": price,
                                                        "currency": "EUR", "order_id": f"o{d}"},
                     position=f"row {d}", key=content_key("a", product))
               for d, (product, price) in enumerate([("Travel adapter", 19.99), ("Kindle case", 24.0),
                                                     ("Fairy lights", 15.5)])]
    events += [_shop_mail(20, datetime(2023, 6, 2, 8, tzinfo=timezone.utc), "Liffey Bank", "Your statement",
                          "02/05/2023 MUNCHBOX*SPREZZATURA -€40.00\nTotal card spending: -€412.10"),
               _shop_mail(21, datetime(2023, 6, 3, 8, tzinfo=timezone.utc), "Aoife Murphy", "tonight?",
                          "Munchbox and a film at mine? Total chill night.")]
    events += [_shop_mail(30 + n, datetime(2023, 6, 4 + n, 8, tzinfo=timezone.utc), "Siobhan Kelly", "hi",
                          "See you soon", to="Aoife Murphy") for n in range(2)]
    return write_store(tmp_path / "events.sqlite", events)


ORDERS_2023 = [' APPLY(l=QUD("I bought something online in 2023"), fct=len)',
               ' FILTER(l=QUD("I bought something online with date"), filter=lambda attr: '
               'attr["start_datetime"].year == 2023)',
               ' EXTRACT(l=QUD("I bought something online"), attr_names=["start_datetime"], '
               'attr_types=[datetime.fromisoformat])',
               ' RETRIEVE(query="I bought something online")']
SPENT = [' SUM(l=QUD("I bought something online with amount paid"), attr_name="total")',
         ' EXTRACT(l=QUD("I bought something online"), attr_names=["total"], attr_types=[float])',
         ' RETRIEVE(query="I bought something online")']


@pytest.mark.parametrize("question, steps, value", [
    ("How many Munchbox orders did I make in 2023?", ORDERS_2023, 4),
    ("total spent on munchbox ever?", SPENT, 145.5),
    # the shop whose purchases the data holds: its purchases, not the receipts of another the search finds too
    ("how much did I spend on Amazon?", SPENT, 59.49),
])
def test_a_shop_the_purchases_do_not_hold_is_its_mails(tmp_path, question, steps, value):
    trace = Trace()
    answer = _asked(_orders(tmp_path), question, FakeLLM(steps), trace)
    assert answer.value == pytest.approx(value) and "shop_mails" in trace.acted


def test_the_shop_mails_rule_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "shop_mails")
    answer = _asked(_orders(tmp_path), "How many Munchbox orders did I make in 2023?", FakeLLM(ORDERS_2023))
    assert answer.value == 0   # the search finds the purchases, and none of them writes the name


def test_a_shop_is_a_sender_never_written_to_whose_name_no_purchase_or_source_has(tmp_path):
    from app.people import mailing_services
    from app.qud.kinds import SHOP_MAILS_AT_LEAST, shops_of

    with EventStore.open(_orders(tmp_path), read_only=True) as store:
        services = mailing_services(store, SHOP_MAILS_AT_LEAST)
    assert services == {"munchbox": "Munchbox"}   # Aoife is written to; the bank mailed once
    assert shops_of({**services, "amazon.de": "Amazon.de", "anker": "Anker"}, frozenset({"anker usb-c charger"})) \
        == {"munchbox": "Munchbox"}


def test_a_search_other_than_for_purchases_or_meals_is_left_alone():
    from app.qud.kinds import shop_mails

    asked = []

    def shops():
        asked.append(1)
        return {"munchbox": "Munchbox", "duolingo": "Duolingo"}

    mails = Node.from_step("q", 'APPLY(l=QUD("emails from Duolingo"), fct=len)',
                           (Node.from_step("emails from Duolingo", 'RETRIEVE(query="emails from Duolingo")'),))
    assert shop_mails(mails, "How many mails did Duolingo send me?", shops) is None and not asked
    search = Node.from_step("I bought something online", 'RETRIEVE(query="I bought something online")')
    bought = Node.from_step("q", 'APPLY(l=QUD("I bought something online"), fct=len)', (search,))
    assert shop_mails(bought, "How many things did I buy online?", shops) is None   # no shop named
    assert shop_mails(bought, "Did I order more on Munchbox or on Duolingo?", shops) is None   # two
    meals = Node.from_step("q", 'APPLY(l=QUD("I ate at a restaurant"), fct=len)',
                           (Node.from_step("I ate at a restaurant", 'RETRIEVE(query="I ate at a restaurant")'),))
    assert "my Munchbox orders" in shop_mails(meals, "how many times did i order takeaway on munchbox?", shops) \
        .children[0].children[0].step


# --- the time spent on a named thing --------------------------------------------------------------------------------

def _listening(tmp_path):
    start = datetime(2024, 2, 1, 20, tzinfo=timezone.utc)
    chapters = [Event(source="audiobook_stream", type="spotify", start=start + timedelta(days=n),
                      end=start + timedelta(days=n, minutes=45), title=f"Project Hail Mary - Chapter {n + 1}",
                      text=f"Project Hail Mary - Chapter {n + 1}",
                      data={"audiobook": "Project Hail Mary", "chapter": f"Chapter {n + 1}", "ms_played": 2_700_000},
                      position=f"a {n}", key=content_key("a", str(n))) for n in range(4)]   # 3 hours
    episodes = [Event(source="podcast_stream", type="spotify", start=start + timedelta(days=n, hours=2),
                      end=start + timedelta(days=n, hours=3), title=f"Huberman Lab - Episode {n}",
                      text=f"Huberman Lab - Episode {n}",
                      data={"show": "Huberman Lab", "episode": f"Episode {n}", "ms_played": 3_600_000},
                      position=f"p {n}", key=content_key("p", str(n))) for n in range(2)]
    return write_store(tmp_path / "events.sqlite", chapters + episodes)


@pytest.mark.parametrize("question, hours", [
    ("total hours i've spent on the project hail mary audiobook?", 3.0),
    ("How many hours of Project Hail Mary have I listened to in 2024?", 3.0),
    ("how many hours have I spent listening to Huberman Lab in total?", 2.0),
])
def test_the_time_on_a_named_thing_is_its_plays_durations(tmp_path, question, hours):
    trace, llm = Trace(), FakeLLM([])
    answer = _asked(_listening(tmp_path), question, llm, trace)
    assert answer.value == pytest.approx(hours) and "named_time_frame" in trace.acted and not llm.calls


def test_the_time_of_what_is_no_one_named_thing_is_the_models():
    from app.qud.kinds import time_on_named

    names = lambda: {"podcast_stream": frozenset({"huberman lab"}), "audiobook_stream": frozenset()}  # noqa: E731
    for question in ("how many hours of podcasts did I listen to in 2023?",      # a kind, no name
                     "how many hours of netflix did i watch last week?",
                     "how many hours have I spent listening to Hidden Brain?",   # a name the data does not hold
                     "how many hours of Huberman Lab did I listen to on Sundays?"):   # a time other than a period
        assert time_on_named(question, names) is None


# --- how far into a series ------------------------------------------------------------------------------------------

def _episodes(tmp_path):
    start = datetime(2024, 1, 5, 20, tzinfo=timezone.utc)
    rows = [("Formula 1: Drive to Survive", season, episode) for season in (1, 2, 3) for episode in (1, 2)]
    rows += [("Queer Eye", 1, 1), ("Queer Eye", 5, 3)]
    return write_store(tmp_path / "events.sqlite", [
        Event(source="tvseries_stream", type="netflix", start=start + timedelta(days=n), end=None,
              title=f"{series}: Season {season}: Episode {episode}",
              text=f"{series}: Season {season}: Episode {episode}",
              data={"series": series, "season": f"Season {season}", "season_number": season, "episode_number": episode,
                    "title": f"{series}: Season {season}: Episode {episode}", "duration_s": 1800.0},
              position=f"row {n}", key=content_key("n", str(n)))
        for n, (series, season, episode) in enumerate(rows)])


@pytest.mark.parametrize("question, season", [
    ("what season of drive to survive did i make it to", 3),      # whole words of one series' name
    ("what season did i get up to in queer eye?", 5),
])
def test_the_season_reached_is_the_highest_played(tmp_path, question, season):
    trace, llm = Trace(), FakeLLM([])
    answer = _asked(_episodes(tmp_path), question, llm, trace)
    assert answer.value == season and "season_frame" in trace.acted and not llm.calls
    from app.qud.kinds import season_reached
    assert season_reached("what season of Ozark did I get to", lambda: {"tvseries_stream": frozenset({"queer eye"})}) \
        is None


def test_each_side_of_a_comparison_of_times_is_the_time_on_its_named_thing(tmp_path):
    trace = Trace()
    answer = _asked(_listening(tmp_path), "Project Hail Mary or Huberman Lab, which did I put more hours into?",
                    FakeLLM([]), trace)
    assert answer.value == "Project Hail Mary" and {"two_way_frame", "named_time_frame"} <= trace.acted
    from app.qud.kinds import time_on_named

    names = lambda: {"podcast_stream": frozenset({"huberman lab"})}  # noqa: E731
    assert time_on_named("how much time have I spent on Huberman Lab?", names) is None   # no unit to answer in
    assert time_on_named("how much time have I spent on Huberman Lab?", names, compared=True) is not None


# --- takeaway orders -----------------------------------------------------------------------------------------------

def _takeaways(tmp_path):
    """Five Gobble orders from two restaurants (three in 2023), a diary's meal eaten out and a shop's order mail."""
    orders = [("Saigon Kitchen", 2023, 14.5), ("Sushi Kaito", 2023, 20.0), ("Saigon Kitchen", 2023, 11.0),
              ("Saigon Kitchen", 2022, 9.5), ("Sushi Kaito", 2022, 18.0)]
    events = [_shop_mail(i, datetime(year, 3 + i, 2, 19, tzinfo=timezone.utc), "Gobble",
                         f"Your Gobble order from {place}",
                         f"Your food from {place} is on its way.\n\nTotal €{total:.2f}")
              for i, (place, year, total) in enumerate(orders)]
    events += [_shop_mail(10, datetime(2023, 5, 5, 21, tzinfo=timezone.utc), "Siobhan Kelly", "diary",
                          "Lunch with Aoife at Saigon Kitchen, I had the pho.", to="Siobhan Kelly"),
               _shop_mail(11, datetime(2023, 6, 1, 9, tzinfo=timezone.utc), "Bookshop Ltd", "Your order from Bookshop",
                          "Thanks for your order from Bookshop.\n\nTotal €30.00")]
    return write_store(tmp_path / "events.sqlite", events)


@pytest.mark.parametrize("question, value", [
    ("Which takeaway place do I order from the most?", "Saigon Kitchen"),
    ("How many times have I ordered from Sushi Kaito?", 2),
    ("how many times did I order food from Gobble in 2023", 3),     # the app, not a restaurant
    ("how much have I spent on food delivery in 2023?", 45.5),
])
def test_a_takeaway_is_the_mail_that_says_where_food_was_ordered_from(tmp_path, question, value):
    answer = _framed(_takeaways(tmp_path), question, "takeaway_frame")
    assert answer.value == pytest.approx(value) if isinstance(value, float) else answer.value == value


def test_the_takeaway_frame_can_be_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "takeaway_frame")
    trace = Trace()
    answer = _asked(_takeaways(tmp_path), "How many times have I ordered from Sushi Kaito?",
                    FakeLLM([' APPLY(l=QUD("I ate at Sushi Kaito"), fct=len)',
                             ' RETRIEVE(query="I ate at Sushi Kaito")']),
                    trace)
    assert "takeaway_frame" not in trace.acted and answer.tree.step == 'APPLY(l=QUD("I ate at Sushi Kaito"), fct=len)'


@pytest.mark.parametrize("question", [
    "how many times did i order from Sushi Kaito while away on a trip?",   # a time the frame does not read
    "did I spend more on restaurants or on food delivery in 2023?",        # a comparison: each side on its own
    "what day of the week do I usually get takeaway",
    "how many times have I ordered from Amazon?",                          # a shop whose purchases the data holds
])
def test_other_questions_about_takeaways_are_left_to_other_readings(question):
    from app.qud.kinds import takeaway_asked

    assert takeaway_asked(question) is None


# --- books finished ------------------------------------------------------------------------------------------------

def _diary(tmp_path):
    notes = [((2023, 3, 26), "Sunday. Finished “Tomorrow, and Tomorrow, and Tomorrow” by Gabrielle Zevin."),
             ((2023, 11, 12), "Sunday. Finished “Yellowface” by R. F. Kuang. Early night."),
             ((2024, 1, 21), "Sunday. I finished reading Tom Lake, then lunch with Jonas."),
             ((2024, 1, 28), "Finished “The Crown” on Netflix, what a show."),   # a series: no author, no "reading"
             ((2023, 12, 15), "The Bee Sting is out in paperback, 20% off!")]          # a shop's mail naming a book
    events = [_shop_mail(i, datetime(*day, 21, tzinfo=timezone.utc), "Siobhan Kelly", "diary", text, to="Siobhan Kelly")
              for i, (day, text) in enumerate(notes)]
    return write_store(tmp_path / "events.sqlite", events)


@pytest.mark.parametrize("question, value", [
    ("how many books did I finish in 2023", 2),
    ("What book did I finish in January 2024?", "Tom Lake"),
    ("which books have I read?", ["Tom Lake", "Tomorrow, and Tomorrow, and Tomorrow", "Yellowface"]),
])
def test_a_book_finished_is_one_the_persons_notes_say_they_finished(tmp_path, question, value):
    answer = _framed(_diary(tmp_path), question, "books_frame")
    assert answer.value == value


# --- concerts ----------------------------------------------------------------------------------------------------

def _tickets(tmp_path):
    """Three concerts' tickets (mailed weeks before each), a bank statement and a friend's mail about a gig."""
    gigs = [((2023, 5, 18), "Khruangbin", "Stadtpark Open Air", "Wednesday 16 August 2023", 68.4),
            ((2023, 9, 10), "Nils Frahm", "Elbphilharmonie", "Tuesday 28 November 2023", 82.0),
            ((2023, 12, 30), "Arlo Parks", "Mojo Club", "Saturday 09 March 2024", 39.9)]
    events = [_shop_mail(i, datetime(*sent, 10, tzinfo=timezone.utc), "TicketBox", f"Your tickets: {act} – {venue}",
                         f"Your e-tickets\n\n{act}\n{venue}, Hamburg\n{day}, doors 19:00\n\n"
                         f"2 x Standing – total €{paid:.2f}")
              for i, (sent, act, venue, day, paid) in enumerate(gigs)]
    events += [_shop_mail(10, datetime(2023, 11, 2, 9, tzinfo=timezone.utc), "Aoife Murphy", "gig tickets?",
                          "Are you getting tickets for the Lankum gig? Total bargain at €20"),
               _shop_mail(11, datetime(2023, 12, 3, 9, tzinfo=timezone.utc), "Nordbank", "Ihr Kontoauszug",
                          "28.11.2023  ELBPHILHARMONIE   Freizeit   -82,00 EUR\n\nSumme Kartenumsätze: -82,00 EUR")]
    return write_store(tmp_path / "events.sqlite", events)


@pytest.mark.parametrize("question, value", [
    ("how many concerts did i go to", 3),
    ("which concert did i go to in November 2023?", "Nils Frahm"),   # the concert's day, not the mail's
    ("how many gigs did I go to in 2023?", 2),
    ("who did I see at the Mojo Club?", "Arlo Parks"),
    ("How much have I spent on concert tickets altogether?", 190.3),
    ("which concert tickets cost me the most", "Nils Frahm"),
])
def test_a_concert_is_a_tickets_mail_dated_by_the_concerts_day(tmp_path, question, value):
    answer = _framed(_tickets(tmp_path), question, "concerts_frame")
    assert answer.value == pytest.approx(value) if isinstance(value, float) else answer.value == value


# --- card payments -----------------------------------------------------------------------------------------------

def _statements(tmp_path, with_statements: bool = True):
    """Two monthly statements by mail (one with columns two spaces apart, one with single spaces) and a diary's meal."""
    march = ("Ihr Kontoauszug für März 2024.\n\nDatum       Empfänger              Kategorie              Betrag\n"
             "02.03.2024  ALDI NORD              Groceries              -80,56 EUR\n"
             "03.03.2024  LOTUS GARDEN HAMBURG   Restaurants & cafés    -19,71 EUR\n"
             "06.03.2024  LOTUS GARDEN HAMBURG   Restaurants & cafés    -15,06 EUR\n"
             "09.03.2024  REWE MARKT             Groceries              -94,92 EUR\n\nSumme Kartenumsätze: -210,25 EUR")
    april = ("Your statement for April 2024 is ready.\n\nDate Description Category Amount\n\n"
             "02/04/2024 TESCO RATHMINES Groceries -€70.32\n\n"
             "04/04/2024 BASTIBLE RESTAURANT Restaurants & cafés -€22.10\n\n"
             "05/04/2024 CAFE ODE Refund 5.00 EUR\n\n09/04/2024 LIDL RANELAGH Groceries -€55.38\n\n"
             "Total card spending: -€142.80")
    events = [_shop_mail(20, datetime(2024, 4, 3, 5, tzinfo=timezone.utc), "Nordbank", "Ihr Kontoauszug März 2024",
                         march),
              _shop_mail(21, datetime(2024, 5, 3, 5, tzinfo=timezone.utc), "Liffey Bank", "Your statement", april)]
    events = events if with_statements else []
    events += [_shop_mail(22, datetime(2024, 3, 3, 21, tzinfo=timezone.utc), "Siobhan Kelly", "diary",
                          "Lunch with Aoife at Lotus Garden, I had the pho.", to="Siobhan Kelly")]
    return write_store(tmp_path / "events.sqlite", events)


@pytest.mark.parametrize("question, value", [
    ("how many times did I eat out in March 2024?", 2),            # the lines' days, not the statement's
    ("How many times have I eaten at Lotus Garden?", 2),
    ("How much did I spend eating out in April 2024?", 22.1),
    ("how much did I spend on groceries in 2024?", 301.18),
    ("how much did I spend on my card in April 2024", 142.8),      # the refund less
])
def test_where_statements_come_by_mail_a_payment_is_a_line_of_one(tmp_path, question, value):
    answer = _framed(_statements(tmp_path), question, "card_payments_frame")
    assert answer.value == pytest.approx(value)


def test_without_statements_payments_are_left_to_the_model(tmp_path):
    trace = Trace()
    llm = FakeLLM([' APPLY(l=QUD("I ate at a restaurant"), fct=len)', ' RETRIEVE(query="I ate at a restaurant")'])
    _asked(_statements(tmp_path, with_statements=False), "how many times did I eat out?", llm, trace)
    assert "card_payments_frame" not in trace.acted and llm.calls


def test_a_statements_lines_are_its_payments():
    from app.extract.statements import statement_lines

    text = ("Datum       Empfänger              Kategorie              Betrag\n"
            "02.03.2024  ALDI NORD              Groceries              -80,56 EUR\n"
            "03.03.2024  LOTUS GARDEN HAMBURG   Restaurants & cafés    -19,71 EUR\n"
            "2024-03-04 AMAZON EU SARL Shopping -€15.67\n")
    lines = statement_lines({"source": "mail", "text": text})
    assert [(line["payee"], line["category"], line["spent"]) for line in lines] == [
        ("ALDI NORD", "Groceries", 80.56), ("LOTUS GARDEN HAMBURG", "Restaurants & cafés", 19.71),
        ("AMAZON EU SARL", "Shopping", 15.67)]
    assert statement_lines({"source": "mail", "text": "03.03.2024 we paid LOTUS GARDEN -19,71 EUR"}) is None  # one line
