"""Words for answers and events: plain Python, no Qt."""

from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from types import MappingProxyType, SimpleNamespace

from app.answer import Answer, AnswerStatus, NodeReport
import pytest

from app.ui import presenting
from app.ui.presenting import (
    NumberStyle, answer_headline, answer_warnings, chart_series, event_document, event_value, evidence_line,
    format_bytes,
    format_number, format_seconds, format_value, key_fields, original_location, pairs_of, parse_reference_date,
    preview_text, progress_words, reimport_paths, way_on,
)

TZ = timezone(timedelta(hours=2))


def answer(**kw):
    base = dict(question="How often did I run in 1990?", value=None, text="", tree=None, evidence_ids=())
    base.update(kw)
    return Answer(**base)


def test_no_evidence_means_i_could_not_find_never_a_value():
    made_up = answer(value=42, text="You ran 42 times.")
    assert answer_headline(made_up) == "I could not find anything in your data about “How often did I run in 1990?”."
    engine_said = answer(text="I could not find any runs in 1990.")
    assert answer_headline(engine_said) == "I could not find any runs in 1990."
    assert evidence_line(engine_said) == ""
    assert chart_series(answer(value=[["a", 1], ["b", 2]])) is None


def test_cancel_time_limit_and_failure_never_read_as_nothing_found():
    cancelled = answer(text="The question was cancelled.", error="cancelled", status=AnswerStatus.CANCELLED)
    assert answer_headline(cancelled) == "Cancelled: “How often did I run in 1990?” was not answered."
    late = answer(text="The question ran past its time limit (120 s): RETRIEVE failed", error="RETRIEVE failed",
                  status=AnswerStatus.TIMED_OUT)
    assert answer_headline(late).startswith("“How often did I run in 1990?” ran past its time limit")
    failed = answer(text="I could not answer this: FILTER failed", error="FILTER failed", status=AnswerStatus.FAILED)
    assert answer_headline(failed) == "I could not answer this: FILTER failed"
    for a in (cancelled, late, failed):
        assert "could not find" not in answer_headline(a)


def test_a_count_of_zero_from_a_tree_that_ran_is_an_answer():
    ran = NodeReport("APPLY", "How often did I run in 1990?", 'APPLY(l=QUD("runs in 1990"), fct=len)', 1, 0.1, None)
    zero = answer(value=0, text="0. No events matched “runs in 1990”.", tree=ran)
    assert answer_headline(zero) == "0. No events matched “runs in 1990”."


def test_headline_and_evidence_line_with_evidence():
    a = answer(value=7, text="You ate Italian food after football 7 times.", evidence_ids=("a", "b", "c"),
               timings={"total": 2.345})
    assert answer_headline(a) == "You ate Italian food after football 7 times."
    assert evidence_line(a) == "Based on 3 events. Answered in 2.3 s."
    one = answer(value=1, text="Once.", evidence_ids=("a",), error="2 of 40 items failed")
    assert evidence_line(one) == "Based on 1 event. Problem: 2 of 40 items failed"
    assert answer_headline(answer(value=12.5, text="", evidence_ids=("a",))) == "The answer is 12.5."


def test_pairs_of_accepts_pairs_mappings_and_two_field_dicts():
    assert pairs_of([["2023-01", 4], ["2023-02", 7]]) == [("2023-01", 4.0), ("2023-02", 7.0)]
    assert pairs_of({"Daft Punk": 12, "Air": 3}) == [("Daft Punk", 12.0), ("Air", 3.0)]
    assert pairs_of([{"artist": "Air", "count": 3}, {"artist": "Can", "count": 1}]) == [("Air", 3.0), ("Can", 1.0)]
    assert pairs_of([{"month": "2024-01", "total": 12.5, "event_ids": ["x"]},
                     {"month": "2024-02", "total": 3, "event_ids": ["y"]}]) == [("2024-01", 12.5), ("2024-02", 3.0)]
    # The engine's group items: "ids" is provenance; "size" counts only when nothing else is a number.
    assert pairs_of([{"artist": "Air", "size": 3, "ids": ["a", "b", "c"]},
                     {"artist": "Can", "size": 1, "ids": ["d"]}]) == [("Air", 3.0), ("Can", 1.0)]
    assert pairs_of([{"artist": "Air", "minutes": 12.5, "size": 3, "ids": ["a"]},
                     {"artist": "Can", "minutes": 2, "size": 1, "ids": ["d"]}]) == [("Air", 12.5), ("Can", 2.0)]
    # Not pairs: a single pair, scalars, numbers as keys, dicts with two numbers, booleans.
    for value in ([["a", 1]], 7, "x", [1, 2], [[1, 2], [3, 4]], [{"a": 1, "b": 2}, {"a": 3, "b": 4}],
                  [["a", True], ["b", False]], None):
        assert pairs_of(value) is None, value


def test_chart_series_orders_time_keys_by_time_and_others_by_value():
    months = answer(value=[["2024-02", 5], ["2024-01", 2], ["2023-12", 9]], text="x", evidence_ids=("a",))
    assert chart_series(months) == [("2023-12", 9.0), ("2024-01", 2.0), ("2024-02", 5.0)]
    artists = answer(value={"Air": 3, "Can": 9, "Abba": 3}, text="x", evidence_ids=("a",))
    assert chart_series(artists) == [("Can", 9.0), ("Air", 3.0), ("Abba", 3.0)]


def test_chart_series_of_an_argmax_shows_the_groups_when_all_are_in_the_preview():
    groups = tuple({"artist": a, "count": n, "size": n, "ids": ["x"]} for a, n in (("Air", 3), ("Can", 5)))
    counts = NodeReport("MAP", "counts", "MAP(...)", 2, 0.1, None, preview=groups)
    top = NodeReport("ARGMAX", "q", "ARGMAX(...)", 1, 0.1, None, children=(counts,),
                     preview=({"value": "Can", "unit": None, "ids": ["x"], "arg_attr_name": "count", "arg_value": 5,
                               "val_attr_name": "artist", "ties": 1},))
    assert chart_series(answer(value="Can", text="Can.", tree=top, evidence_ids=("x",))) == [("Can", 5.0), ("Air", 3.0)]
    # 120 groups with 2 in the preview: a chart of those two would mislead.
    partial = NodeReport("ARGMAX", "q", "ARGMAX(...)", 1, 0.1, None,
                         children=(NodeReport("MAP", "counts", "MAP(...)", 120, 0.1, None, preview=groups),))
    assert chart_series(answer(value="Can", text="Can.", tree=partial, evidence_ids=("x",))) is None
    assert chart_series(answer(value="Can", text="Can.", tree=NodeReport("MAP", "q", "MAP(...)", 120, 0.1, None,
                                                                          preview=groups), evidence_ids=("x",))) is None


def test_chart_series_falls_back_to_the_root_preview():
    root = NodeReport("GROUP_BY", "q", "GROUP_BY(...)", 2, 0.1, None,
                      preview=({"artist": "Air", "count": 3}, {"artist": "Can", "count": 1}))
    a = answer(value="Air", text="Air.", tree=root, evidence_ids=("a",))
    assert chart_series(a) == [("Air", 3.0), ("Can", 1.0)]
    flat = NodeReport("RETRIEVE", "q", "RETRIEVE(...)", 1, 0.1, None, preview=({"title": "x", "start": "2024"},))
    assert chart_series(answer(value=3, text="3.", tree=flat, evidence_ids=("a",))) is None


def test_formatting():
    assert [format_value(v) for v in (None, 3, 1234567, 2.50, 1 / 3, [1, "a"], True)] == \
        ["nothing", "3", "1,234,567", "2.5", "0.33", "1, a", "True"]
    assert [format_seconds(s) for s in (0.0001, 0.0123, 2.0, 75.2)] == ["<1 ms", "12 ms", "2.0 s", "1 min 15 s"]
    assert [format_bytes(n) for n in (12, 2048, 5 * 1024**2, 3 * 1024**3)] == ["12 B", "2.0 KB", "5.0 MB", "3.0 GB"]
    assert preview_text([{"a": 1, "ids": ["x"]}, {"b": "ü"}], size=5) == "a: 1\nb: ü\n… and 3 more"
    # The engine's float noise and its provenance never reach the detail view.
    assert preview_text([{"month": "2024-01", "total": 16512.989999999987, "tags": ["a"], "ids": ["x"],
                          "ids_total": 210}]) == 'month: 2024-01 · total: 16,512.99 · tags: ["a"]'
    assert preview_text([]) == "(empty result)"
    assert parse_reference_date("2024-05-01") == date(2024, 5, 1)
    assert parse_reference_date("2024-05-01T10:00:00") == date(2024, 5, 1)
    assert parse_reference_date("soon") is None and parse_reference_date(None) is None


def event(source, data, title="t", text="t", end=None, tz=None):
    return SimpleNamespace(source=source, type="x", start=datetime(2024, 5, 1, 18, 30, tzinfo=TZ), end=end, tz=tz,
                           title=title, text=text, data=MappingProxyType(data), file="/f", position="row 1")


def test_key_fields_per_source():
    assert key_fields(event("mail", {"from": "a@x.org", "from_name": "Ann", "to": ["me@x.org", "b@x.org", "c@x"]})) == \
        "Ann · to me@x.org, b@x.org"
    assert key_fields(event("calendar", {"location": "Luigi's", "all_day": True, "calendar": "Home"})) == \
        "Luigi's · all day · Home"
    # The measure in the Value column (the total, the time played) is not said twice.
    assert key_fields(event("online_purchase", {"total": 9.99, "currency": "EUR", "quantity": 3})) == "× 3"
    assert key_fields(event("tvseries_stream", {"series": "Dark", "profile": "Kim", "duration_s": 2700.0})) == \
        "Dark · Kim"
    assert key_fields(event("podcast_stream", {"show": "Radiolab", "ms_played": 90000})) == "Radiolab"
    run = event("workout", {"workout_type": "running", "duration_s": 1800.0, "distance_km": 5.2})
    assert key_fields(run) == "running · 30 min"  # the distance is the run's value
    assert key_fields(run, "duration_s") == "running · 5.2 km"  # a question about time: the time is
    assert key_fields(event("something_new", {"a": 1, "b": 2, "c": 3, "d": 4})) == "a: 1 · b: 2 · c: 3"


def test_event_document_of_a_mail_has_headers_then_body():
    mail = event("mail", {"from": "ann@x.org", "from_name": "Ann", "to": ["me@x.org"], "cc": [], "subject": "Pizza?",
                          "body": "Luigi's at 8?\n-- Ann", "labels": ["Inbox", "Friends"], "message_id": "<1@x>"},
                 title="Pizza?", tz="Europe/Berlin")
    title, fields, body = event_document(mail)
    assert title == "Pizza?"
    assert fields == [("Source", "Mail (x)"), ("Start", "2024-05-01 18:30:00+02:00"), ("Time zone", "Europe/Berlin"),
                      ("From name", "Ann"), ("From", "ann@x.org"), ("To", "me@x.org"), ("Subject", "Pizza?"),
                      ("Labels", "Inbox, Friends"), ("Message id", "<1@x>")]
    assert body == "Luigi's at 8?\n-- Ann"


def test_event_document_of_a_calendar_entry_has_location_and_description():
    end = datetime(2024, 5, 1, 20, 0, tzinfo=TZ)
    entry = event("calendar", {"summary": "Dinner", "location": "Luigi's", "description": "Table for 4",
                               "all_day": False, "attendees": ["a@x", "b@x"]}, title="Dinner", end=end)
    _, fields, body = event_document(entry)
    assert fields[2:] == [("End", "2024-05-01 20:00:00+02:00"), ("Summary", "Dinner"), ("Location", "Luigi's"),
                          ("Attendees", "a@x, b@x"), ("All day", "no")]
    assert body == "Table for 4"


def test_original_location_and_reimport_paths():
    assert original_location("/home/a/takeout.zip!Takeout/Mail/All.mbox") == (Path("/home/a/takeout.zip"), "Takeout/Mail/All.mbox")
    assert original_location("/home/a/cal.ics") == (Path("/home/a/cal.ics"), None)
    labels = ["/d/t.zip!a.json", "/d/t.zip!b.json", "/d/x.ics", "/d/t.zip!inner.zip!c.json"]
    assert reimport_paths(labels) == [Path("/d/t.zip"), Path("/d/x.ics")]


def test_no_state_but_an_answer_reads_as_found_and_each_says_what_to_do_next():
    cancelled = answer(text="The question was cancelled.", error="cancelled", status=AnswerStatus.CANCELLED,
                       timings={"total": 3.2})
    assert evidence_line(cancelled) == "Stopped after 3.2 s."  # not "Problem: cancelled"
    assert way_on(cancelled) == "Press Ask again to run it once more."
    late = answer(text="The question ran past its time limit (120 s)", error="RETRIEVE: time limit",
                  status=AnswerStatus.TIMED_OUT, timings={"total": 120.4})
    assert evidence_line(late) == "Stopped after 2 min 0 s. Problem: RETRIEVE: time limit"
    assert way_on(late).startswith("Try a narrower question")
    broken = NodeReport("FILTER", "runs in May", "FILTER(...)", None, 0.1, "FILTER: lambda failed on every item")
    failed = answer(text="I could not answer this: FILTER failed", error="FILTER failed", tree=broken,
                    status=AnswerStatus.FAILED)
    assert way_on(failed) == ("Try rephrasing the question, or press Ask again. The step that failed is marked in "
                              "red under “How it was answered”: select it and press Edit this step… to change it.")
    assert way_on(answer(text="I could not understand the question: x", status=AnswerStatus.NOT_UNDERSTOOD)) \
        .startswith("Try rephrasing it")
    ran = NodeReport("APPLY", "q", "APPLY(...)", 1, 0.1, None)
    assert way_on(answer(value=0, text="0.", tree=ran, status=AnswerStatus.NONE_FOUND)) == ""
    assert way_on(answer(value=3, text="3.", tree=ran, evidence_ids=("a",))) == ""


def test_group_previews_cut_to_100_ids_still_chart():
    """Groups of more than 100 events carry "ids_total" (app.engine.values.preview_row): provenance, not a value."""
    days = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    counts = (120, 95, 178, 101, 88, 140, 60)
    groups = tuple({"weekday": d, "count": n, "size": n, "ids": [f"{d}{i}" for i in range(min(n, 100))],
                    **({"ids_total": n} if n > 100 else {})} for d, n in zip(days, counts))
    per_day = NodeReport("MAP", "runs per weekday", "MAP(...)", 7, 0.1, None, preview=groups)
    top = NodeReport("ARGMAX", "On which weekday did I go running most?", "ARGMAX(...)", 1, 0.1, None,
                     children=(per_day,))
    a = answer(question=top.question, value="Wednesday", text="Wednesday (count: 178).", tree=top,
               evidence_ids=tuple(f"w{i}" for i in range(178)))
    series = chart_series(a)
    assert series is not None and series[:3] == [("Wednesday", 178.0), ("Saturday", 140.0), ("Monday", 120.0)]
    assert len(series) == 7
    grouped = answer(question="runs per weekday", value=list(days), text="7 groups", tree=per_day,
                     evidence_ids=("w0",))
    assert chart_series(grouped)[0] == ("Wednesday", 178.0)


def test_warnings_of_every_node_are_collected_once():
    leaf = NodeReport("RETRIEVE", "orders", "RETRIEVE(...)", 210, 0.1, None)
    total = NodeReport("SUM", "q", "SUM(...)", 1, 0.1, None, children=(leaf,),
                       warnings=("SUM: 3 of 210 items have no value for 'total'",))
    again = NodeReport("MAP", "q", "MAP(...)", 1, 0.1, None, children=(total,),
                       warnings=("SUM: 3 of 210 items have no value for 'total'", " "))
    assert answer_warnings(answer(value=1.0, text="x", tree=again, evidence_ids=("a",))) == [
        "SUM: 3 of 210 items have no value for 'total'"]
    assert answer_warnings(answer(text="x")) == []


def test_progress_of_the_question_model_reads_as_sub_questions():
    assert progress_words('    MAP(l=QUD("runs, grouped by weekday"), fct=lambda group: len(group), res_name="count")') \
        == "Breaking the question down: “runs, grouped by weekday” …"
    assert progress_words('JOIN(l1=QUD("my runs"), l2=QUD("songs I played"), cond=lambda a, b: a.start <= b.start)') \
        == "Breaking the question down: “my runs” and “songs I played” …"
    assert progress_words('RETRIEVE(query="runs in 2023")') == "Breaking the question down: “runs in 2023” …"
    assert progress_words('FILTER(l=QUD("x"), fct=lambda e: e.a)  (rejected: syntax: bad lambda)') == \
        "Breaking the question down: a step did not check out, writing it again …"
    for words in ("Understanding the question …", "Running the operator tree …", "Loading the question model …"):
        assert progress_words(words) == words


@pytest.fixture
def german_numbers():
    presenting.set_number_style(NumberStyle(group=".", decimal=","))
    yield
    presenting.set_number_style(NumberStyle())


def test_numbers_follow_the_locale(german_numbers):
    assert [format_number(v) for v in (1234567, 16512.989999999987, 2.5, 3.0, -0.001)] == \
        ["1.234.567", "16.512,99", "2,5", "3", "0"]
    assert format_value([1234, 0.5]) == "1.234, 0,5"
    assert (format_seconds(2.0), format_bytes(5 * 1024**2)) == ("2,0 s", "5,0 MB")
    assert event_value(event("online_purchase", {"total": 1299.9, "currency": "EUR"})) == ("1.299,90 EUR", 1299.9)
    assert key_fields(event("workout", {"workout_type": "run", "duration_s": 600.0, "distance_km": 2.25})) == \
        "run · 10 min"
    assert preview_text([{"total": 16512.989999999987}], size=1200) == "total: 16.512,99\n… and 1.199 more"


def test_the_headline_writes_the_engines_numbers_in_the_locale(german_numbers):
    """The engine writes "1,234.50" (app.engine.phrasing); the window says it as the person's locale does. Years,
    dates and times stay as they are."""
    bought = answer(value=1234.5, text="In total 1,234.50 EUR for 17 Amazon purchases in 2023.", tree=None,
                    evidence_ids=("a",))
    assert answer_headline(bought) == "In total 1.234,50 EUR for 17 Amazon purchases in 2023."
    day = answer(value="2024-03-03", text="The day with the most songs was 2024-03-03 (5), then 2024-03-01 (4).",
                 tree=None, evidence_ids=("a",))
    assert answer_headline(day) == day.text
    run = answer(value=12.5, text="On average 12.5 km over 1,204 runs since 1 March 2024 at 07:30.", tree=None,
                 evidence_ids=("a",))
    assert answer_headline(run) == "On average 12,5 km over 1.204 runs since 1 March 2024 at 07:30."
