"""Each operator's documented semantics and edge cases, on items built in memory."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.engine.expr import EvalContext, compile_condition, compile_converter, compile_function
from app.engine.operators import REGISTRY, MissingAttribute, OpContext, OperatorError
from app.engine.syntax import FuncRef, Lambda
from app.engine.values import Group, Item, Scalar

BERLIN = ZoneInfo("Europe/Berlin")
REF = date(2024, 5, 1)


def ctx() -> OpContext:
    return OpContext(store=None, reference_date=REF, eval=EvalContext(reference_date=REF), retriever=None, extractor=None)


def fn(source: str):
    value = FuncRef(source) if not source.startswith("lambda") else Lambda(source)
    return compile_function(value).bind(EvalContext(reference_date=REF))


def run(name: str, **args):
    c = ctx()
    return REGISTRY[name](c, args), c.warnings


def item(i: int, **attrs) -> Item:
    return Item({"id": f"e{i}", **attrs}, [f"e{i}"])


SONGS = (
    item(1, artist="Air", ms_played=180_000, start=datetime(2024, 3, 1, 7, 0, tzinfo=BERLIN)),
    item(2, artist="Daft Punk", ms_played=240_000, start=datetime(2024, 3, 1, 20, 0, tzinfo=BERLIN)),
    item(3, artist="Air", ms_played=120_000, start=datetime(2024, 3, 2, 21, 0, tzinfo=BERLIN)),
    item(4, artist="Daft Punk", start=datetime(2024, 3, 2, 9, 0, tzinfo=BERLIN)),
)


# --- FILTER ---------------------------------------------------------------------------------


def test_filter_keeps_true_rows_in_order():
    rows, warnings = run("FILTER", l=SONGS, filter=fn('lambda attr: attr["start_time"].hour >= 18'))
    assert [r.ids for r in rows] == [("e2",), ("e3",)]
    assert warnings == []


def test_filter_reports_failed_items_with_count():
    rows, warnings = run("FILTER", l=SONGS, filter=fn('lambda attr: attr["ms_played"] > 150000'))
    assert [r.ids for r in rows] == [("e1",), ("e2",)]
    assert warnings == [
        "the filter failed on 1 of 4 items, which were left out: the event has no attribute 'ms_played' (first: event e4)"
    ]


def test_filter_failing_on_every_item_fails_the_node():
    with pytest.raises(OperatorError, match="the filter failed on all 4 items: the event has no attribute 'location'"):
        run("FILTER", l=SONGS, filter=fn('lambda attr: "park" in attr["location"]'))


def test_filter_on_empty_input_is_empty_without_error():
    assert run("FILTER", l=(), filter=fn('lambda attr: attr["x"]')) == ((), [])


def test_filter_needs_rows():
    with pytest.raises(OperatorError, match="FILTER needs a list of events or groups"):
        run("FILTER", l=Scalar(3, ["e1"]), filter=fn("lambda a: True"))


# --- MAP ------------------------------------------------------------------------------------


def test_map_stores_values_and_leaves_inputs_alone():
    rows, warnings = run("MAP", l=SONGS, fct=fn('lambda attr: attr["ms_played"] / 60000'), res_name="minutes")
    assert [r.get("minutes") for r in rows] == [3.0, 4.0, 2.0, None]
    assert warnings == ["the function failed on 1 of 4 items, which got minutes=None: the event has no attribute 'ms_played' (first: event e4)"]
    assert all("minutes" not in s.attrs for s in SONGS)
    assert [r.ids for r in rows] == [s.ids for s in SONGS]


def test_map_default_name_and_groups():
    groups = (Group({"artist": "Air"}, SONGS[:1]), Group({"artist": "Daft Punk"}, SONGS[1:]))
    rows, _ = run("MAP", l=groups, fct=fn("len"))
    assert [(g.get("artist"), g.get("map_result"), g.ids) for g in rows] == [
        ("Air", 1, ("e1",)), ("Daft Punk", 3, ("e2", "e3", "e4"))
    ]


# --- APPLY ----------------------------------------------------------------------------------


def test_apply_len_counts_with_provenance():
    value, _ = run("APPLY", l=SONGS, fct=fn("len"))
    assert (value.value, value.ids) == (4, ("e1", "e2", "e3", "e4"))


def test_apply_on_empty_list_never_raises():
    value, warnings = run("APPLY", l=(), fct=fn("len"))
    assert (value.value, value.ids, warnings) == (0, (), [])
    value, warnings = run("APPLY", l=(), fct=fn('lambda l: l[0]["ms_played"]'))
    assert (value.value, value.ids) == (None, ())
    assert warnings == ["APPLY on an empty list: IndexError: tuple index out of range; the value is None"]
    value, warnings = run("APPLY", l=(), fct=fn('lambda l: max(i["ms_played"] for i in l)'))
    assert (value.value, warnings) == (None, [])


def test_apply_can_return_rows():
    rows, _ = run("APPLY", l=SONGS, fct=fn("lambda l: l[:2]"))
    assert rows == SONGS[:2]


def test_apply_failure_on_data_fails_the_node():
    with pytest.raises(OperatorError, match="the function failed: cannot add up"):
        run("APPLY", l=SONGS, fct=fn('lambda l: sum(i["artist"] for i in l)'))


# --- UNNEST ---------------------------------------------------------------------------------


def test_unnest_lists_scalars_and_empties():
    rows = (
        item(1, artists=["Air", "Beck"]), item(2, artists="Daft Punk"), item(3, artists=[]),
        item(4, artists=None), item(5),
    )
    out, warnings = run("UNNEST", l=rows, nested_attr_name="artists", unnested_attr_name="artist")
    assert [(r.get("artist"), r.ids) for r in out] == [("Air", ("e1",)), ("Beck", ("e1",)), ("Daft Punk", ("e2",))]
    assert warnings == ["UNNEST: 3 of 5 items have no values in 'artists' and produce no rows"]
    with pytest.raises(OperatorError, match="no item has values in 'nope'"):
        run("UNNEST", l=rows, nested_attr_name="nope", unnested_attr_name="x")


# --- GROUP_BY -------------------------------------------------------------------------------


def test_group_by_keeps_key_types_and_first_appearance_order():
    groups, warnings = run("GROUP_BY", l=SONGS, attr_names=("start_date",))
    assert [g.get("start_date") for g in groups] == [date(2024, 3, 1), date(2024, 3, 2)]
    assert all(type(g.get("start_date")) is date for g in groups)
    assert [g.ids for g in groups] == [("e1", "e2"), ("e3", "e4")]
    assert warnings == []


def test_group_by_several_keys_and_distinct_types():
    rows = (
        item(1, year=2024, month=3, flag=True), item(2, year=2024, month=3, flag=1), item(3, year=2024, month=4, flag=True),
        item(4, year="2024", month=3, flag=True),
    )
    groups, _ = run("GROUP_BY", l=rows, attr_names=("year", "month"))
    assert [(g.get("year"), g.get("month"), len(g)) for g in groups] == [(2024, 3, 2), (2024, 4, 1), ("2024", 3, 1)]
    by_flag, _ = run("GROUP_BY", l=rows, attr_names=("flag",))
    assert [(g.get("flag"), g.ids) for g in by_flag] == [(True, ("e1", "e3", "e4")), (1, ("e2",))]


def test_group_by_missing_values_form_a_none_group():
    rows = (item(1, artist="Air"), item(2), item(3, artist=None), item(4, artist="Air"))
    groups, warnings = run("GROUP_BY", l=rows, attr_names=("artist",))
    assert [(g.get("artist"), g.ids) for g in groups] == [("Air", ("e1", "e4")), (None, ("e2", "e3"))]
    assert warnings == ["GROUP_BY: 2 of 4 items have no value for 'artist'; they form the group artist=None"]
    with pytest.raises(OperatorError, match="no item has a value for 'genre'"):
        run("GROUP_BY", l=rows, attr_names=("genre",))


def test_group_by_list_values_are_keys():
    rows = (item(1, tags=["a", "b"]), item(2, tags=["a", "b"]), item(3, tags=["b"]))
    groups, _ = run("GROUP_BY", l=rows, attr_names=("tags",))
    assert [(g.get("tags"), len(g)) for g in groups] == [(["a", "b"], 2), (["b"], 1)]


# --- ARGMIN / ARGMAX --------------------------------------------------------------------------


COUNTS = (
    Group({"artist": "Air", "count": 5}, SONGS[:1]),
    Group({"artist": "Daft Punk", "count": 5}, SONGS[1:2]),
    Group({"artist": "Beck", "count": 2}, SONGS[2:3]),
)


def test_argmax_returns_all_tied_values():
    value, _ = run("ARGMAX", l=COUNTS, arg_attr_name="count", val_attr_name="artist")
    assert (value.value, value.ids, value.details["ties"], value.details["arg_value"]) == (["Air", "Daft Punk"], ("e1", "e2"), 2, 5)
    value, _ = run("ARGMIN", l=COUNTS, arg_attr_name="count", val_attr_name="artist")
    assert (value.value, value.ids) == ("Beck", ("e3",))


def test_argmax_without_val_attr_returns_the_rows():
    rows, _ = run("ARGMAX", l=SONGS, arg_attr_name="ms_played")
    assert rows == (SONGS[1],)


def test_the_group_of_items_with_no_value_is_no_answer():
    groups = (Group({"series": None, "count": 40}, SONGS[:1]), Group({"series": "The Crown", "count": 12}, SONGS[1:2]),
              Group({"series": "Bluey", "count": 3}, SONGS[2:3]))
    value, warnings = run("ARGMAX", l=groups, arg_attr_name="count", val_attr_name="series")
    assert (value.value, value.ids) == ("The Crown", ("e2",))
    assert warnings == ["ARGMAX: the group of the items with no value for 'series' is not among the answers"]
    value, _ = run("ARGMAX", l=groups[:1], arg_attr_name="count", val_attr_name="series")   # none has one
    assert value.value is None
    trips = (item(1, destination="Lisbon", start=datetime(2024, 3, 1, tzinfo=BERLIN)),
             item(2, destination=None, start=datetime(2024, 4, 1, tzinfo=BERLIN)))
    value, _ = run("ARGMAX", l=trips, arg_attr_name="start", val_attr_name="destination")   # the latest trip's
    assert (value.value, value.ids) == (None, ("e2",))


def test_argmax_on_empty_input_is_none():
    value, _ = run("ARGMAX", l=(), arg_attr_name="count", val_attr_name="artist")
    assert (value.value, value.ids) == (None, ())


def test_argmin_over_times_of_day():
    rows = (item(1, start_time=time(10, 30), what="A"), item(2, start_time=time(8, 15), what="B"))
    value, _ = run("ARGMIN", l=rows, arg_attr_name="start_time", val_attr_name="what")
    assert value.value == "B"


# --- MIN / MAX / SUM / AVG -----------------------------------------------------------------------


def test_min_max_skip_missing_values_and_keep_ties():
    value, warnings = run("MAX", l=SONGS, attr_name="ms_played")
    assert (value.value, value.ids, value.unit) == (240_000, ("e2",), "ms")
    assert warnings == ["MAX: 1 of 4 items have no value for 'ms_played'; they were skipped"]
    tied = (item(1, n=3), item(2, n=1), item(3, n=1))
    value, _ = run("MIN", l=tied, attr_name="n")
    assert (value.value, value.ids) == (1, ("e2", "e3"))


def test_min_over_mixed_dates_and_datetimes():
    rows = (item(1, when=datetime(2024, 3, 1, 23, 0, tzinfo=BERLIN)), item(2, when=date(2024, 3, 1)), item(3, when=date(2024, 2, 1)))
    value, _ = run("MIN", l=rows, attr_name="when")
    assert (value.value, value.ids) == (date(2024, 2, 1), ("e3",))


def test_max_refuses_incomparable_values():
    with pytest.raises(OperatorError, match="MAX: cannot order the values"):
        run("MAX", l=(item(1, v=3), item(2, v="x")), attr_name="v")


def test_sum_and_avg_on_empty_input():
    value, _ = run("SUM", l=(), attr_name="total")
    assert (value.value, value.ids) == (0, ())
    value, _ = run("AVG", l=(), attr_name="total")
    assert (value.value, value.ids) == (None, ())
    value, _ = run("MIN", l=(), attr_name="total")
    assert (value.value, value.ids) == (None, ())


def test_sum_units_and_currencies():
    rows = (item(1, total=10.5, currency="EUR"), item(2, total=2, currency="EUR"), item(3, currency="EUR"))
    value, warnings = run("SUM", l=rows, attr_name="total")
    assert (value.value, value.unit, value.ids) == (12.5, "EUR", ("e1", "e2"))
    assert warnings == ["SUM: 1 of 3 items have no value for 'total'; they were skipped"]
    mixed = (item(1, total=10, currency="EUR"), item(2, total=5, currency="USD"))
    value, warnings = run("SUM", l=mixed, attr_name="total")
    assert (value.value, value.unit) == (15, None)
    assert warnings == ["the values of 'total' mix currencies (EUR, USD); no unit is given"]


def test_sum_avg_of_durations_and_non_numbers():
    rows = (item(1, d=timedelta(minutes=30)), item(2, d=timedelta(minutes=45)))
    value, _ = run("SUM", l=rows, attr_name="d")
    assert value.value == timedelta(minutes=75)
    value, _ = run("AVG", l=rows, attr_name="d")
    assert value.value == timedelta(minutes=37, seconds=30)
    value, warnings = run("AVG", l=(item(1, x=2), item(2, x="3 km"), item(3, x=4)), attr_name="x")
    assert value.value == 3.0
    assert warnings == ["AVG: 1 of 3 values of 'x' are not numbers (str); they were skipped"]
    with pytest.raises(OperatorError, match="not numbers"):
        run("SUM", l=(item(1, x="a"),), attr_name="x")
    with pytest.raises(OperatorError, match="no item has a value for 'y'"):
        run("SUM", l=(item(1, x=1),), attr_name="y")


# --- JOIN -----------------------------------------------------------------------------------------


def test_join_merges_pairs_left_value_wins():
    left = (item(1, day=date(2024, 3, 1), who="mum", place="A"),)
    right = (item(2, day=date(2024, 3, 1), who="dad"), item(3, day=date(2024, 3, 2), who="dad"))
    out, _ = run("JOIN", l1=left, l2=right, condition=compile_condition("i1.day == i2.day"))
    assert [(r.get("who"), r.get("place"), r.ids) for r in out] == [("mum", "A", ("e1", "e2"))]


def test_join_refuses_groups():
    with pytest.raises(OperatorError, match="JOIN needs events for 'l1', got groups"):
        run("JOIN", l1=COUNTS, l2=SONGS, condition=compile_condition("i1.x == i2.x"))


# --- EXTRACT / RETRIEVE through the protocols -------------------------------------------------------


class FakeExtractor:
    def extract(self, items, attr_names, attr_types):
        return [i.with_attrs({n: ("x" if i.ids[0] != "e2" else None) for n in attr_names}) for i in items]


class DroppingExtractor:
    def extract(self, items, attr_names, attr_types):
        return list(items[:-1])


def test_extract_reports_missing_values_and_never_drops():
    c = ctx()
    c.extractor = FakeExtractor()
    out = REGISTRY["EXTRACT"](c, {"l": SONGS, "attr_names": ("genre",), "attr_types": None})
    assert [r.get("genre") for r in out] == ["x", None, "x", "x"]
    assert c.warnings == ["EXTRACT: no value for 'genre' in 1 of 4 events; they keep the value None"]
    c.extractor = DroppingExtractor()
    with pytest.raises(OperatorError, match="the extractor returned 3 items for 4 events"):
        REGISTRY["EXTRACT"](c, {"l": SONGS, "attr_names": ("genre",), "attr_types": None})


class ChunkedExtractor:
    """Reads one item per chunk and asks whether to go on before each, as the model extractor does."""

    def __init__(self):
        self.read = 0

    def extract(self, items, attr_names, attr_types, *, check=None):
        for _ in items:
            check()
            self.read += 1
        return [item.with_attrs({name: "rock" for name in attr_names}) for item in items]


class SlowExtractor(ChunkedExtractor):
    def __init__(self, seconds_per_item: float):
        super().__init__()
        self.seconds = seconds_per_item

    def extract(self, items, attr_names, attr_types, *, check=None):
        import time as clock

        for _ in items:
            check()
            clock.sleep(self.seconds)
            self.read += 1
        return list(items)


def test_a_long_extract_stops_when_the_question_is_cancelled_or_out_of_time():
    import time as clock

    from app.engine.operators import Cancelled

    args = {"l": SONGS, "attr_names": ("genre",), "attr_types": None}
    c = ctx()
    c.extractor = ChunkedExtractor()
    REGISTRY["EXTRACT"](c, args)
    assert c.extractor.read == 4  # nothing stops it: it reads everything
    asked: list[int] = []
    c.extractor = ChunkedExtractor()
    c.cancel = lambda: asked.append(1) or len(asked) > 3  # once by the operator, then once per item
    with pytest.raises(Cancelled):
        REGISTRY["EXTRACT"](c, args)
    assert c.extractor.read == 2  # stopped in the middle, not after all items
    c.extractor, c.cancel, c.deadline = SlowExtractor(0.03), None, clock.monotonic() + 0.05
    with pytest.raises(OperatorError, match="time limit reached"):
        REGISTRY["EXTRACT"](c, args)
    assert 1 <= c.extractor.read < 4  # the question's time ran out while it read


def test_an_attribute_found_on_none_of_the_events_fails_the_extract():
    from app.engine.extract import KeyAliasExtractor

    c = ctx()
    c.extractor = KeyAliasExtractor()
    out = REGISTRY["EXTRACT"](c, {"l": SONGS, "attr_names": ("ms_played",), "attr_types": None})
    assert len(out) == len(SONGS)   # found on some: the others keep None, with a warning
    with pytest.raises(MissingAttribute, match=r"no value for 'heart_rate_max' in any of the 4 events") as failed:
        REGISTRY["EXTRACT"](c, {"l": SONGS, "attr_names": ("heart_rate_max",), "attr_types": None})
    assert REGISTRY["EXTRACT"](c, {"l": (), "attr_names": ("heart_rate_max",), "attr_types": None}) == ()
    # what the QUD acts on to join the events that do carry it: the attribute and the sources, as values
    assert (failed.value.attribute, failed.value.sources) == ("heart_rate_max", ("None",))  # these items name no source
    assert isinstance(failed.value, OperatorError)   # an operator failure like any other for the executor


def test_another_sources_attribute_found_only_in_passing_fails_the_extract():
    """The artist of 2 of 60 runs (two songs called "Running" among them): the runs are the wrong events for it."""
    from app.engine.extract import KeyAliasExtractor

    runs = tuple(Item({"id": f"w{i}", "source": "workout", "activity": "running"}, [f"w{i}"]) for i in range(58))
    mails = tuple(Item({"id": f"m{i}", "source": "mail", "artist": "Moderat"}, [f"m{i}"]) for i in range(2))
    c = ctx()
    c.extractor = KeyAliasExtractor()
    with pytest.raises(MissingAttribute, match=r"no value for 'artist' in 58 of the 60 events \(workout\)") as failed:
        REGISTRY["EXTRACT"](c, {"l": runs + mails, "attr_names": ("artist",), "attr_types": None})
    assert failed.value.sources == ("workout",)   # the events that lack it: these are joined with the songs
    songs = tuple(Item({"id": f"s{i}", "source": "music_stream", "artist": "Moderat"}, [f"s{i}"]) for i in range(2))
    with pytest.raises(MissingAttribute, match=r"in 58 of the 60 events \(workout\)"):
        REGISTRY["EXTRACT"](c, {"l": runs + songs, "attr_names": ("artist",), "attr_types": None})
    # the same share among songs (the source that carries artists) is a partial result, not the wrong events
    songs = tuple(Item({"id": f"s{i}", "source": "music_stream"}, [f"s{i}"]) for i in range(58))
    assert len(REGISTRY["EXTRACT"](c, {"l": songs + mails, "attr_names": ("artist",), "attr_types": None})) == 60
    # and a value found on many of the runs stands (a calendar's concerts name their artists in the title)
    named = tuple(Item({"id": f"c{i}", "source": "calendar", "artist": "Air"}, [f"c{i}"]) for i in range(10))
    assert len(REGISTRY["EXTRACT"](c, {"l": runs + named, "attr_names": ("artist",), "attr_types": None})) == 68
    # an attribute no source carries (a cuisine is read from text) is never stray
    cuisine = tuple(Item({"id": f"d{i}", "source": "calendar", "cuisine": "Italian"}, [f"d{i}"]) for i in range(2))
    assert len(REGISTRY["EXTRACT"](c, {"l": runs + cuisine, "attr_names": ("cuisine",), "attr_types": None})) == 60


def test_extract_with_converters():
    from app.engine.extract import KeyAliasExtractor

    c = ctx()
    c.extractor = KeyAliasExtractor()
    conv = [compile_converter(FuncRef("date.fromisoformat")).bind(c.eval), compile_converter(FuncRef("float")).bind(c.eval)]
    out = REGISTRY["EXTRACT"](c, {"l": SONGS, "attr_names": ("purchase_date", "ms_played"), "attr_types": conv})
    assert [(r.get("purchase_date"), r.get("ms_played")) for r in out] == [
        (date(2024, 3, 1), 180000.0), (date(2024, 3, 1), 240000.0), (date(2024, 3, 2), 120000.0), (date(2024, 3, 2), None)
    ]
    assert c.warnings == ["EXTRACT: no value for 'ms_played' in 1 of 4 events (not found in 1); they keep the value None"]


def test_every_signature_has_an_implementation():
    from app.engine.signatures import SIGNATURES

    assert set(REGISTRY) == set(SIGNATURES)
    assert all(REGISTRY[name].__doc__ for name in REGISTRY)
