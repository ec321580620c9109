"""The CodeGen baseline: the SQL sandbox refuses everything but one bounded SELECT; scripted SQL answers."""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import date

import pytest

from bench.qa.codegen import (EXAMPLES, KEYS, SOURCES, SQL_GRAMMAR, SqlRefused, SqlSandbox, codegen_answer,
                               codegen_prompt, single_statement, statement_from, value_of)
from bench.qa.runner import BenchReport, bench_records
from tests.fakes import FakeLLM

TODAY = date(2024, 4, 1)


@pytest.fixture
def sandbox(store):
    with SqlSandbox(store.path, time_budget_s=0.3) as box:
        yield box


def titles(store) -> list[str]:
    return sorted(e.title for e in store.events())


def test_the_view_documents_the_store(sandbox):
    assert sandbox.query("SELECT count(*) FROM events") == [(12,)]
    # local wall time (the events are at +01:00), the end, and JSON keys
    assert sandbox.query("SELECT start, end_time, json_extract(data, '$.duration_s') FROM events "
                         "WHERE title = 'Soccer, 90 min'") == [("2024-03-02 18:00:00", "2024-03-02 19:30:00", 5400.0)]
    assert sandbox.query("WITH w AS (SELECT title FROM events WHERE source = 'workout') SELECT count(*) FROM w") == [(2,)]


@pytest.mark.parametrize("sql, reason", [
    ("UPDATE events SET title = 'x'", "only a SELECT"),
    ("WITH c AS (SELECT 1) UPDATE main.events SET title = 'x'", "not allowed: UPDATE"),
    ("WITH c AS (SELECT 1) DELETE FROM main.events", "not allowed: DELETE"),
    ("ATTACH DATABASE ':memory:' AS other", "only a SELECT"),
    ("PRAGMA table_info(events)", "only a SELECT"),
    ("SELECT name FROM pragma_table_info('events')", "not allowed"),
    ("SELECT 1; DELETE FROM events", "more than one statement"),
    ("SELECT 1; SELECT 2", "more than one statement"),
    ("SELECT title FROM main.events", "not allowed: reading main"),
    ("SELECT key FROM meta", "not allowed: reading main"),
    ("SELECT load_extension('/tmp/evil.so')", "not allowed: FUNCTION load_extension"),
    ("SELECT zeroblob(1000000000)", "not allowed: FUNCTION zeroblob"),
    ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", "not allowed: RECURSIVE"),
])
def test_the_sandbox_refuses_anything_but_a_select_over_the_view(store, sandbox, sql, reason):
    before = titles(store)
    with pytest.raises(SqlRefused, match=reason):
        sandbox.query(sql)
    assert titles(store) == before
    assert sandbox.query("SELECT count(*) FROM events") == [(12,)]  # still usable after a refusal


def test_the_authorizer_denies_even_without_the_text_checks(sandbox):
    """Behind the one-SELECT check, the connection itself refuses writes, ATTACH and PRAGMA."""
    for sql in ("PRAGMA table_info(events)", "ATTACH DATABASE ':memory:' AS other", "DELETE FROM main.events",
                "CREATE TEMP TABLE t(x)"):
        with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
            sandbox._conn.execute(sql)


def test_the_store_is_opened_read_only(store):
    with SqlSandbox(store.path) as box:
        box._conn.set_authorizer(None)  # even with the authorizer gone, the file cannot be written
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            box._conn.execute("DELETE FROM main.events")
    assert len(titles(store)) == 12


def test_a_runaway_query_is_stopped_by_the_time_budget(sandbox):
    started = time.monotonic()
    with pytest.raises(SqlRefused, match="past its 0.3 s budget"):
        # 12^8 = 430 million rows
        sandbox.query("SELECT count(*) FROM events a, events b, events c, events d, events e, events f, events g, events h")
    assert time.monotonic() - started < 3.0
    with pytest.raises(SqlRefused, match="too big"):  # a value may not grow without bound either
        # each step replaces every "e" by the whole text: ~400 characters, then ~12,000, then ~10 million
        sandbox.query("WITH a AS (SELECT group_concat(text) AS s FROM events), b AS (SELECT replace(s, 'e', s) AS s FROM a), "
                      "c AS (SELECT replace(s, 'e', s) AS s FROM b) SELECT length(s) FROM c")


def test_rows_are_capped(store):
    with SqlSandbox(store.path, row_cap=3) as box:
        assert len(box.query("SELECT title FROM events")) == 3 and box.truncated
        assert len(box.query("SELECT title FROM events WHERE source = 'workout'")) == 2 and not box.truncated


def test_statement_helpers():
    assert single_statement("  SELECT 'a;b' AS x;  ") == "SELECT 'a;b' AS x"
    assert single_statement("SELECT 1 -- trailing; comment") == "SELECT 1 -- trailing; comment"
    with pytest.raises(SqlRefused, match="unterminated"):
        single_statement("SELECT 'oops")
    assert statement_from(" count(*) FROM events") == "SELECT count(*) FROM events"
    assert statement_from("```sql\nSELECT 1\n```") == "SELECT 1"
    assert value_of([]) is None and value_of([(None,)]) is None
    assert value_of([(3,)]) == 3 and value_of([("a",), ("b",)]) == ["a", "b"]


def test_scripted_sql_answers_on_a_real_store(store):
    llm = FakeLLM([
        "SELECT count(*) FROM events WHERE source = 'music_stream' AND json_extract(data, '$.artist') = 'Daft Punk'",
        " json_extract(data, '$.artist') FROM events WHERE source = 'music_stream' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
        "SELECT title FROM events WHERE source = 'workout' ORDER BY start",
        "SELECT date(max(start)) FROM events WHERE source = 'online_purchase'",
        "WITH gone AS (SELECT 1) DELETE FROM main.events",
    ])
    answers = [codegen_answer(q, store, TODAY, llm) for q in (
        "How many Daft Punk songs did I play?", "Who did I listen to most?", "Which workouts did I do?",
        "When did I last buy something?", "Forget everything")]
    assert [a.value for a in answers[:4]] == [5, "Daft Punk", ["Soccer, 90 min", "Running, 30 min"], "2024-03-05"]
    assert answers[0].text == "5" and answers[0].error is None and answers[0].tree is None
    assert answers[4].value is None and "not allowed: DELETE" in answers[4].error
    assert len(titles(store)) == 12
    prompt, grammar, _ = llm.calls[0]
    assert prompt.endswith("Today is 2024-04-01.\nQuestion: How many Daft Punk songs did I play?\nSQL: SELECT")
    assert grammar == SQL_GRAMMAR and prompt == codegen_prompt("How many Daft Punk songs did I play?", TODAY)


def test_the_prompt_examples_use_the_interface_and_run(sandbox):
    """Every example writes only sources and data keys the grammar allows, and runs in the sandbox."""
    for _, sql in EXAMPLES:
        assert set(re.findall(r"source = '(\w+)'", sql)) <= set(SOURCES)
        assert set(re.findall(r"'\$\.(\w+)'", sql)) <= set(KEYS)
        source = re.search(r"source = '(\w+)'", sql).group(1)
        assert f'"{source}"' in SQL_GRAMMAR
        sandbox.query(sql)  # valid SQL over the view (the small store may give no rows)


def test_the_bench_scores_codegen_answers(store):
    record = {"id": "q1", "categories": ["aggregation"], "question": "How many workouts?", "answer": 2,
              "answers": [2], "reference_date": TODAY.isoformat(), "tree": None}
    report = BenchReport(split="dev", mode="codegen")
    with SqlSandbox(store.path) as box:
        bench_records(report, "test", store, [record, dict(record, id="q2")], lambda r: (set(), set()),
                      llm=FakeLLM(["SELECT count(*) FROM events WHERE source = 'workout'", "SELECT 7"]), sandbox=box)
    assert [r.hit for r in report.results] == [1.0, 0.0]
    summary = report.summary()
    assert summary["hit_at_1"] == 0.5 and summary["tree_executes"] is None and summary["operators"] is None


def test_the_schema_lists_each_source_with_the_keys_of_its_spec():
    from app.sources import SOURCES as SOURCE_SPECS
    from bench.qa.codegen import SCHEMA

    for name, spec in SOURCE_SPECS.items():
        found = re.search(rf"^    {name}: (.*(?:\n {{{len(name) + 6}}}\S.*)*)", SCHEMA, re.M)
        assert found, name
        listed = re.sub(r" \([^)]*\)", "", " ".join(found.group(1).split())).split(", ")
        assert tuple(listed) == spec.sql_keys
    assert "workout_type (running, walking, cycling, swimming, soccer, tennis, yoga, hiking," in SCHEMA
