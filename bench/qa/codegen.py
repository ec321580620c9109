"""The paper's CodeGen baseline: the language model writes ONE SQLite SELECT over a documented, read-only view
of the event store, and the result is the answer (first cell; several rows: the list of their first column).

The model's output is a query, never code the app runs, and the sandbox makes sure it stays one:

- the store is opened read-only (`mode=ro` URI, a connection of its own);
- a TEMP view `events` (source, start, end_time, title, text, data) shadows the raw table; an sqlite3
  authorizer allows only SELECT, reads of that view (and of the raw columns behind it, through the view),
  columns of the statement's own sub-queries and CTEs, and a whitelist of functions; everything else is
  denied at prepare time: writes, ATTACH, PRAGMA, recursive CTEs, load_extension, other tables;
- one statement only, starting with SELECT or WITH;
- a progress handler aborts it after a time budget, at most `row_cap` rows are read, and no value it builds
  may pass MAX_VALUE_BYTES.

    with SqlSandbox(store.path) as sandbox:
        rows = sandbox.query("SELECT count(*) FROM events WHERE source = 'workout'")      # [(412,)]
    answer = codegen_answer("How many workouts did I do?", store, date(2024, 5, 1), llm)
"""

from __future__ import annotations

import re
import sqlite3
import textwrap
import time
from datetime import date
from pathlib import Path
from typing import Any

from app.answer import Answer
from app.sources import SOURCES as SOURCE_SPECS

VIEW = "events"
VIEW_SQL = f"""
CREATE TEMP VIEW {VIEW} AS SELECT
    id, source,
    datetime(start_utc + start_offset, 'unixepoch') AS start,
    datetime(end_utc + coalesce(end_offset, start_offset), 'unixepoch') AS end_time,
    title, text, data
FROM main.events
"""
ALLOWED_FUNCTIONS = frozenset({
    "json_extract", "json_array_length", "json_type", "strftime", "date", "time", "datetime", "julianday",
    "count", "sum", "total", "avg", "min", "max", "group_concat", "lower", "upper", "length", "substr",
    "substring", "trim", "ltrim", "rtrim", "replace", "instr", "like", "glob", "round", "abs", "coalesce",
    "ifnull", "nullif", "iif",
})
MAX_VALUE_BYTES = 2_000_000  # no string or blob the query builds may be longer (replace/group_concat bombs)
TIME_BUDGET_S = 5.0
ROW_CAP = 1000
MAX_SQL_CHARS = 2000

_OK = sqlite3.SQLITE_OK
_DENY = sqlite3.SQLITE_DENY
_SELECT = sqlite3.SQLITE_SELECT
_READ = sqlite3.SQLITE_READ
_FUNCTION = getattr(sqlite3, "SQLITE_FUNCTION", 31)
_ACTION_NAMES = {  # sqlite3's constants share values with error codes and limits: name the actions here
    1: "CREATE INDEX", 2: "CREATE TABLE", 3: "CREATE TEMP INDEX", 4: "CREATE TEMP TABLE", 5: "CREATE TEMP TRIGGER",
    6: "CREATE TEMP VIEW", 7: "CREATE TRIGGER", 8: "CREATE VIEW", 9: "DELETE", 10: "DROP INDEX", 11: "DROP TABLE",
    12: "DROP TEMP INDEX", 13: "DROP TEMP TABLE", 14: "DROP TEMP TRIGGER", 15: "DROP TEMP VIEW", 16: "DROP TRIGGER",
    17: "DROP VIEW", 18: "INSERT", 19: "PRAGMA", 20: "READ", 21: "SELECT", 22: "TRANSACTION", 23: "UPDATE",
    24: "ATTACH", 25: "DETACH", 26: "ALTER TABLE", 27: "REINDEX", 28: "ANALYZE", 29: "CREATE VTABLE",
    30: "DROP VTABLE", 31: "FUNCTION", 32: "SAVEPOINT", 33: "RECURSIVE",
}


class SqlRefused(ValueError):
    """The statement is not a single read-only SELECT over the events view, or it ran past its budget."""


def single_statement(sql: str) -> str:
    """The statement without surrounding space and one trailing `;`; refuses a second statement or anything
    that does not start with SELECT or WITH. Quotes and comments are skipped when looking for `;`.

    >>> single_statement("SELECT 1; ")
    'SELECT 1'
    """
    text = sql.strip()
    if len(text) > MAX_SQL_CHARS:
        raise SqlRefused(f"the statement is longer than {MAX_SQL_CHARS} characters")
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"`[":
            close = "]" if ch == "[" else ch
            end = text.find(close, i + 1)
            while end != -1 and close != "]" and end + 1 < n and text[end + 1] == close:  # doubled quote
                end = text.find(close, end + 2)
            if end == -1:
                raise SqlRefused("an unterminated quote")
            i = end + 1
            continue
        if text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end == -1 else end + 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end == -1 else end + 2
            continue
        if ch == ";":
            if text[i + 1:].strip():
                raise SqlRefused("more than one statement")
            text = text[:i].rstrip()
            break
        i += 1
    if not re.match(r"(?is)^\s*(select|with)\b", text):
        raise SqlRefused("only a SELECT (or WITH ... SELECT) is allowed")
    return text


class SqlSandbox:
    """A read-only connection to an event store that runs one vetted SELECT at a time."""

    def __init__(self, path: Path | str, *, time_budget_s: float = TIME_BUDGET_S, row_cap: int = ROW_CAP):
        self.path = Path(path)
        self.time_budget_s = time_budget_s
        self.row_cap = row_cap
        self.denied: list[str] = []
        self.truncated = False
        uri = self.path.resolve().as_uri() + "?mode=ro"
        self._conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self._conn.execute(VIEW_SQL)  # TEMP lives outside the read-only file
        self._conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
        self._conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        self._conn.set_authorizer(self._authorize)
        self._deadline = float("inf")
        self._conn.set_progress_handler(self._over_budget, 2000)

    def __enter__(self) -> "SqlSandbox":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    def _over_budget(self) -> int:
        return 1 if time.monotonic() > self._deadline else 0

    def _authorize(self, action: int, arg1: str | None, arg2: str | None, db: str | None, inner: str | None) -> int:
        if action == _SELECT:
            return _OK
        if action == _READ:
            if db == "temp" and arg1 == VIEW:
                return _OK
            if db == "main" and arg1 == "events" and (inner == VIEW or arg2 == ""):
                return _OK  # the raw columns behind the view; "" is a read of no column (count(*) of the view)
            if db is None:  # a column of this statement's own sub-query or CTE (its own reads are checked)
                return _OK
            self.denied.append(f"reading {db}.{arg1}")
            return _DENY
        if action == _FUNCTION and (arg2 or "").lower() in ALLOWED_FUNCTIONS:
            return _OK
        what = _ACTION_NAMES.get(action, str(action))
        self.denied.append(" ".join([what, *(a for a in (arg1, arg2) if a)]))
        return _DENY

    def query(self, sql: str) -> list[tuple]:
        """The rows of one SELECT (at most `row_cap`; `truncated` says whether more were left). Raises
        SqlRefused for anything else, for a statement past its time budget, or for invalid SQL."""
        statement = single_statement(sql)
        self.denied = []
        self.truncated = False
        self._deadline = time.monotonic() + self.time_budget_s
        try:
            cursor = self._conn.execute(statement)
            rows = cursor.fetchmany(self.row_cap + 1)
        except sqlite3.Error as exc:
            if self.denied:
                raise SqlRefused(f"not allowed: {', '.join(self.denied)}") from exc
            if "interrupt" in str(exc).lower():
                raise SqlRefused(f"the query ran past its {self.time_budget_s:g} s budget") from exc
            raise SqlRefused(f"invalid SQL: {exc}") from exc
        except sqlite3.Warning as exc:  # Python's own one-statement check
            raise SqlRefused(str(exc)) from exc
        finally:
            self._deadline = float("inf")
        if len(rows) > self.row_cap:
            rows = rows[: self.row_cap]
            self.truncated = True
        return rows


def _schema() -> str:
    """The events table as the model reads it, with each source's keys from its spec (app/sources.py).

    Wrapped as the prompt has always been (the baseline's figures were measured with it): the list of sources
    at 100 characters, a source's keys at 118.
    """
    names = list(SOURCE_SPECS)
    listing = textwrap.fill(", ".join(names[:-1]) + " or " + names[-1], width=100,
                            initial_indent="  source    TEXT  ", subsequent_indent=" " * 18)
    keys = [textwrap.fill(", ".join(key + (f" ({spec.sql_notes[key]})" if key in spec.sql_notes else "")
                                    for key in spec.sql_keys),
                          width=118, initial_indent=f"    {name}: ", subsequent_indent=" " * (len(name) + 6),
                          break_long_words=False, break_on_hyphens=False)
            for name, spec in SOURCE_SPECS.items()]
    return "\n".join([
        "SQLite table `events`, one row per event of my life:",
        listing,
        "  start     TEXT  local start time 'YYYY-MM-DD HH:MM:SS'",
        "  end_time  TEXT  local end time, or NULL",
        "  title     TEXT  a short title",
        "  text      TEXT  the whole event as text",
        "  data      JSON  keys per source, read with json_extract(data, '$.key'):",
        *keys,
        "Write ONE SELECT; the first column of its result is the answer.",
        "",
    ])


SCHEMA = _schema()

EXAMPLES = (
    ("How many times did I go running in 2023?",
     "SELECT count(*) FROM events WHERE source = 'workout' AND json_extract(data, '$.workout_type') = 'running' "
     "AND strftime('%Y', start) = '2023'"),
    ("Which artist did I listen to the most?",
     "SELECT json_extract(data, '$.artist') FROM events WHERE source = 'music_stream' GROUP BY 1 "
     "ORDER BY count(*) DESC LIMIT 1"),
    ("How much did I spend on Amazon last year?",
     "SELECT round(sum(json_extract(data, '$.total')), 2) FROM events WHERE source = 'online_purchase' "
     "AND strftime('%Y', start) = '2023'"),
    ("When did I last watch an episode of The Crown?",
     "SELECT date(max(start)) FROM events WHERE source = 'tvseries_stream' "
     "AND json_extract(data, '$.series') = 'The Crown'"),
    ("Which movies did I watch in March 2023?",
     "SELECT DISTINCT json_extract(data, '$.title') FROM events WHERE source = 'movie_stream' "
     "AND strftime('%Y-%m', start) = '2023-03'"),
    ("How many hours of podcasts did I listen to in 2022?",
     "SELECT round(sum(json_extract(data, '$.ms_played')) / 3600000.0, 1) FROM events "
     "WHERE source = 'podcast_stream' AND strftime('%Y', start) = '2022'"),
    ("How often did I have dinner with Anna?",
     "SELECT count(*) FROM events WHERE source = 'calendar' AND lower(text) LIKE '%dinner%' "
     "AND lower(text) LIKE '%anna%'"),
    ("What was my average heart rate when playing football?",
     "SELECT round(avg(json_extract(data, '$.heart_rate_avg')), 1) FROM events WHERE source = 'workout' "
     "AND json_extract(data, '$.workout_type') = 'soccer'"),
    ("In which month did I buy the most things online?",
     "SELECT strftime('%Y-%m', start) FROM events WHERE source = 'online_purchase' GROUP BY 1 "
     "ORDER BY count(*) DESC LIMIT 1"),
)
EXAMPLE_TODAY = "2024-06-15"


# What the grammar lets the model name: every source, and the keys the schema documents (in schema order).
SOURCES = tuple(SOURCE_SPECS)
KEYS = tuple(dict.fromkeys(key for spec in SOURCE_SPECS.values() for key in spec.sql_keys))


def _alternatives(words: tuple[str, ...]) -> str:
    return " | ".join(f'"{w}"' for w in words)


# What the model may write after "SQL: SELECT": one SELECT over the view, with the sources and data keys of
# the interface only (a 270M model otherwise invents `source = 'dental'`). Every example above matches it.
SQL_GRAMMAR = f"""
root ::= " " ("DISTINCT ")? sel " FROM events" wh? grp? ord? lim?
sel ::= "count(*)" | "count(DISTINCT " val ")" | "round(" agg (" / " number)? ", " [0-2] ")" | agg | "date(" ("max" | "min") "(start))" | val
agg ::= ("sum" | "avg" | "max" | "min") "(" field ")"
val ::= field | "title" | "date(start)" | "strftime('" fmt "', start)"
field ::= "json_extract(data, '$." key "')"
key ::= {_alternatives(KEYS)}
wh ::= " WHERE " cond (" AND " cond)? (" AND " cond)? (" AND " cond)?
cond ::= "source = '" src "'" | "source IN (" srcq (", " srcq)* ")" | field " = '" text "'" | field " " cmp " " number | "strftime('" fmt "', start) = '" text "'" | "start " cmp " '" text "'" | "lower(" ("text" | "title") ") LIKE '%" like "%'"
srcq ::= "'" src "'"
src ::= {_alternatives(SOURCES)}
cmp ::= ">=" | "<=" | ">" | "<"
text ::= [^'\n]+
like ::= [^'%\n]+
number ::= [0-9]+ ("." [0-9]+)?
fmt ::= "%Y" | "%Y-%m" | "%Y-%m-%d" | "%m" | "%w" | "%H"
grp ::= " GROUP BY 1"
ord ::= " ORDER BY " ("count(*)" | "start" | agg | "1") (" DESC" | " ASC")?
lim ::= " LIMIT " [0-9]+
"""


def codegen_prompt(question: str, reference_date: date) -> str:
    shots = "\n\n".join(f"Question: {q}\nSQL: {sql}" for q, sql in EXAMPLES)
    return (f"{SCHEMA}\nExamples (today is {EXAMPLE_TODAY}):\n\n{shots}\n\n"
            f"Today is {reference_date.isoformat()}.\nQuestion: {question}\nSQL: SELECT")


def statement_from(completion: str) -> str:
    """The model continues after "SQL: SELECT"; a completion that writes the whole statement is kept."""
    text = completion.strip()
    text = re.sub(r"^```(?:sql)?\s*|\s*```$", "", text, flags=re.IGNORECASE).strip()
    if re.match(r"(?is)^(select|with)\b", text):
        return text
    return "SELECT " + text


def value_of(rows: list[tuple]) -> Any:
    """The answer in the rows: the first cell of one row, the first column of several, None for nothing."""
    values = [row[0] for row in rows if row and row[0] is not None]
    if not values:
        return None
    return values[0] if len(rows) == 1 else values


def codegen_answer(question: str, store: Any, reference_date: date, llm: Any, *,
                   sandbox: SqlSandbox | None = None, grammar: str | None = SQL_GRAMMAR) -> Answer:
    """`grammar`: GBNF the model's SQL must match (SQL_GRAMMAR; None: free text). The sandbox checks the
    statement either way: the grammar helps the model, it is not the safety."""
    started = time.perf_counter()
    completion = llm.complete(codegen_prompt(question, reference_date), grammar=grammar, max_tokens=160,
                              stop=[";", "\n"])
    generated = time.perf_counter() - started
    sql = statement_from(completion.text)
    own = sandbox is None
    box = sandbox or SqlSandbox(store.path)
    clock = time.perf_counter()
    try:
        rows = box.query(sql)
        error = None
    except SqlRefused as exc:
        rows, error = [], f"{exc} [SQL: {sql}]"
    finally:
        if own:
            box.close()
    timings = {"codegen": generated, "sql": time.perf_counter() - clock, "total": time.perf_counter() - started}
    value = value_of(rows)
    if error:
        text = f"The generated query was refused: {error}"
    elif value is None:
        text = "I could not find an answer."
    else:
        text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return Answer(question, value, text, None, (), timings, error)
