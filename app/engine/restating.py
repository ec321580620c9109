"""What an answer was worked out over, in the person's words: the sub-question under the root, said to them.

The tree's sub-questions are written in the first person ("my runs in 2023 with distance", "I went running"); an
answer speaks to the person ("your runs in 2023", "you went running"). A `Subject` is the root's sub-question
restated so: first person to second, the attributes the steps below read ("with distance") left out, and the
period of a FILTER below added when the words name none. General English only, never a rule per question.

    subject = subject_of(report.children[0])      # the root's sub-question, as executed
    subject.text                                   # 'your runs in 2023'
    counted(subject, "123")                        # '123 runs in 2023'
    counted(subject_of(went_running), "123")       # 'You went running 123 times in 2023'
    period_of_filter('lambda attr: attr["year"] == 2024 and attr["month"] == 3')   # 'in March 2024'
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any, Iterable

from app.engine.syntax import Lambda, StepSyntaxError, parse_call
from app.engine.values import DERIVED, FIXED
from app.lexicon import MONTH_NAMES, WEEKDAY_NAMES

# --- the person's words --------------------------------------------------------------------------------------

_SECOND_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're",
                  "i've": "you've", "i'd": "you'd", "i'll": "you'll", "am": "are"}
_WORD = re.compile(r"[A-Za-z']+")


def second_person(text: str) -> str:
    """'songs I listened to with my sister' -> 'songs you listened to with your sister'; 'I was' -> 'you were'."""
    text = re.sub(r"\bI was\b", "you were", text)

    def swap(match: re.Match) -> str:
        word = match.group(0)
        said = _SECOND_PERSON.get(word.lower())
        if said is None or (word.lower() == "am" and not re.search(r"\bI\s+$", text[:match.start()])):
            return word
        return said
    return _WORD.sub(swap, text)


_QUESTION_WORDS = {"how", "what", "which", "when", "who", "whom", "whose", "where", "why", "did", "do", "does", "is",
                   "are", "was", "were", "have", "has", "had", "can", "could", "will", "would", "should", "number"}
_SUBJECT_PRONOUNS = {"i", "we", "you", "he", "she", "they"}
_TIME_WORDS = (set(MONTH_NAMES) | set(WEEKDAY_NAMES) | {f"{d}s" for d in WEEKDAY_NAMES}
               | {"last", "past", "first", "previous", "this", "weekend", "weekends", "weekday", "weekdays", "morning",
                  "mornings", "afternoon", "afternoons", "evening", "evenings", "night", "nights", "summer", "winter",
                  "spring", "autumn", "year", "month", "week", "day"})
# A period at the end of a clause: "in 2023", "in March 2024", "on Mondays", "in the last month", "since May".
_PERIOD_START = re.compile(r"\s(?:in|on|during|since|from|between|over|at|before|after|until|throughout)\s+(?:the\s+)?"
                           r"(\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class Subject:
    """What was counted or added up, said to the person.

    text:  'your runs in 2023', 'you went running in 2023'
    kind:  "noun" (a noun phrase: 'runs in 2023'), "clause" ('you went running'), or "question" (a question or
           a phrase the words cannot be fitted around: the answer quotes it)
    """

    text: str
    kind: str

    @property
    def bare(self) -> str:
        """A noun phrase without its possessive, for a count in front: 'your runs' -> 'runs'."""
        return re.sub(r"^(?:your|the|all(?: of)?(?: your| the)?)\s+", "", self.text, flags=re.IGNORECASE)


def subject_of(report: Any, above: Iterable[Any] = ()) -> Subject | None:
    """The root's sub-question `report` (a NodeReport) as a Subject: its words in the second person, without the
    attributes its steps (and those of the nodes `above` it) read, with the period of a FILTER below it when the
    words name none."""
    if report is None or not report.question.strip():
        return None
    attributes = attribute_words(report) | {w for node in above for w in attribute_words(node, walk=False)}
    text = _without_attributes(report.question.strip().rstrip(" ?.!"), attributes)
    text = re.sub(r",?\s+grouped by\s+.+$", "", text, flags=re.IGNORECASE)
    first = text.split()[0].lower() if text.split() else ""
    if not text or first in _QUESTION_WORDS or report.question.strip().endswith("?"):
        return Subject(report.question.strip(), "question")
    period = period_of(report)
    if period and not _names_a_period(text):
        text = f"{text} {period}"
    kind = "clause" if first in _SUBJECT_PRONOUNS else "noun"
    return Subject(second_person(text), kind)


def _names_a_period(text: str) -> bool:
    return bool(re.search(r"\b(?:19|20)\d\d\b", text)) or any(
        m.group(1).lower() in _TIME_WORDS for m in _PERIOD_START.finditer(" " + text))


_ATTRIBUTE_ARGS = re.compile(r"\b(?:attr_names?|arg_attr_name|val_attr_name|res_name|nested_attr_name|"
                             r"unnested_attr_name)\s*=\s*(\[[^\]]*\]|\"[^\"]*\")")
_SUBSCRIPT = re.compile(r"""\[\s*["']([A-Za-z_][\w ]*)["']\s*\]""")
_DEFAULT_ATTRIBUTES = {*DERIVED, *FIXED, "datetime", "date", "amount", "amounts"}


def attribute_words(report: Any, walk: bool = True) -> set[str]:
    """Every word of an attribute name the steps of `report`'s subtree (or, without `walk`, its own step) read or
    write, and of the fixed columns ('distance_km' -> distance, km), singular: what a sub-question's 'with ...'
    may name."""
    names = set(_DEFAULT_ATTRIBUTES)
    for node in report.walk() if walk else (report,):
        for found in _ATTRIBUTE_ARGS.findall(node.step):
            names.update(re.findall(r"\"([^\"]*)\"", found))
        names.update(_SUBSCRIPT.findall(node.step))
    return {_singular_word(w) for name in names for w in re.split(r"[_\s]+", name.lower()) if w}


def _without_attributes(text: str, attributes: set[str]) -> str:
    """'my purchases in 2023 with total' -> 'my purchases in 2023'; 'podcasts in 2023 in hours' -> 'podcasts in
    2023'; 'meetings with Anna' stays (Anna is no attribute), and so does 'runs in 2023'."""
    starts = list(re.finditer(r"\s+(?:with|in)\s+", text, re.IGNORECASE))
    if not starts:
        return text
    last = starts[-1]
    tail = re.findall(r"[\w']+", text[last.end():].lower())
    words = [w for w in tail if w not in ("its", "their", "the", "and")]
    if words and all(_singular_word(w) in attributes for w in words):
        return _without_attributes(text[:last.start()], attributes)
    return text


# --- counting ------------------------------------------------------------------------------------------------

_NOT_HEAD = {"in", "on", "at", "of", "for", "from", "with", "by", "to", "during", "while", "since", "after",
             "before", "that", "which", "who", "where", "when", "you", "your", "we", "i", "per", "between", "over"}


def _singular_word(word: str) -> str:
    """'runs' -> 'run', 'classes' -> 'class', 'purchases' -> 'purchase'; a word without a plural 's' stays."""
    lower = word.lower()
    if len(word) < 4 or not lower.endswith("s") or lower.endswith(("ss", "us", "is")):
        return word
    if lower.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    return word[:-1]


def singular(phrase: str) -> str:
    """The noun phrase for one: its head (the last word before a preposition or a clause) made singular.
    'runs in 2023' -> 'run in 2023'; 'episodes of Dark you watched' -> 'episode of Dark you watched'."""
    words = phrase.split(" ")
    head = 0
    for i, word in enumerate(words):
        if word.lower() in _NOT_HEAD:
            break
        head = i
    words[head] = _singular_word(words[head])
    return " ".join(words)


def counted(subject: Subject, n: int, number: str) -> str:
    """How many of `subject` there were, as a clause: '123 runs in 2023', '1 run in 2023', 'You went running
    123 times in 2023', 'You went running once'. `number` is `n` as written. A question subject is quoted:
    '123 for “How often ...?”'."""
    if subject.kind == "noun":
        return f"{number} {singular(subject.bare) if n == 1 else subject.bare}"
    if subject.kind == "clause":
        times = "once" if n == 1 else "twice" if n == 2 else f"{number} times"
        text = _with_before_period(subject.text, times)
        return text[:1].upper() + text[1:]
    return f"{number} for “{subject.text}”"


def _with_before_period(clause: str, words: str) -> str:
    """`words` put before the period that ends `clause` ('you went running in 2023' -> 'you went running 5 times
    in 2023'), else at its end."""
    for match in _PERIOD_START.finditer(clause):
        if match.group(1).lower() in _TIME_WORDS or re.fullmatch(r"(?:19|20)\d\d", match.group(1)):
            return f"{clause[:match.start()]} {words}{clause[match.start():]}"
    return f"{clause} {words}"


def of_them(subject: Subject, n: int, number: str) -> str:
    """`n` of the subject after a preposition: '17 Amazon purchases in 2023', 'the 17 times you went running'."""
    if subject.kind == "noun":
        return counted(subject, n, number)
    if subject.kind == "clause":
        return f"the {number} time{'' if n == 1 else 's'} {subject.text}"
    return f"{number} item{'' if n == 1 else 's'} of “{subject.text}”"


def many(subject: Subject) -> str:
    """The subject after 'the most' / 'the fewest': 'songs you listened to', 'times you went running'."""
    if subject.kind == "noun":
        return subject.bare
    if subject.kind == "clause":
        return f"times {subject.text}"
    return f"items of “{subject.text}”"


def among(subject: Subject) -> str:
    """The subject after 'among' / 'of': 'your runs in 2023', 'the times you went running', '“...?”'."""
    if subject.kind == "noun":
        return subject.text
    if subject.kind == "clause":
        return f"the times {subject.text}"
    return f"“{subject.text}”"


# --- the period of a FILTER ---------------------------------------------------------------------------------

_DATE_ATTRIBUTES = {"year", "month", "weekday", "start_date", "start_datetime", "date", "datetime", "day", "end_date",
                    "end_datetime", "timestamp"}
_UNIT_WORDS = {"years": "year", "months": "month", "weeks": "week", "days": "day"}


def period_of(report: Any) -> str | None:
    """The period the first FILTER in `report`'s subtree keeps, in words ('in 2023'), if it keeps one."""
    for node in report.walk():
        if node.operator != "FILTER":
            continue
        try:
            condition = parse_call(node.step).get("filter")
        except StepSyntaxError:
            continue
        if isinstance(condition, Lambda):
            period = period_of_filter(condition.source)
            if period:
                return period
    return None


def period_of_filter(source: str) -> str | None:
    """A lambda's period in words, for the conditions people write most: a year, a month of a year, a span of
    dates, the last N days/weeks/months/years, a weekday. None for any other condition.

    >>> period_of_filter('lambda attr: attr["start_date"].year == 2023')
    'in 2023'
    >>> period_of_filter('lambda attr: attr["date"] >= date.today() - relativedelta(months=3)')
    'in the last 3 months'
    """
    try:
        body = ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(body, ast.Lambda):
        return None
    parts = body.body.values if isinstance(body.body, ast.BoolOp) and isinstance(body.body.op, ast.And) else [body.body]
    found: dict[str, Any] = {}
    for part in parts:
        _read_condition(part, found)
    return _period_words(found)


def _attribute(node: ast.AST) -> str | None:
    """'year' for attr["year"], attr["start_date"].year; 'start_date' for attr["start_date"]."""
    if isinstance(node, ast.Attribute) and node.attr in ("year", "month") and _attribute(node.value):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value if node.slice.value in _DATE_ATTRIBUTES else None
    return None


def _read_condition(node: ast.AST, found: dict[str, Any]) -> None:
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return
    name, op, value = _attribute(node.left), node.ops[0], node.comparators[0]
    if name is None:
        return
    if isinstance(op, ast.Eq) and isinstance(value, ast.Constant):
        if name in ("year", "month") and isinstance(value.value, int):
            found[name] = value.value
        elif name == "weekday" and isinstance(value.value, str):
            found["weekday"] = value.value
    elif isinstance(op, (ast.GtE, ast.Gt)):
        span = _recent_span(value)
        if span:
            found["recent"] = span
        elif _date_of(value):
            found["from"] = _date_of(value)
    elif isinstance(op, (ast.LtE, ast.Lt)) and _date_of(value):
        found["until"] = ("until" if isinstance(op, ast.LtE) else "before", _date_of(value))


def _recent_span(node: ast.AST) -> tuple[int, str] | None:
    """(3, "month") for date.today() - relativedelta(months=3) (or timedelta(days=...))."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Call)):
        return None
    call = node.right
    if len(call.keywords) != 1 or not isinstance(call.keywords[0].value, ast.Constant):
        return None
    unit, amount = call.keywords[0].arg, call.keywords[0].value.value
    if unit not in _UNIT_WORDS or not isinstance(amount, int) or amount < 1:
        return None
    return amount, _UNIT_WORDS[unit]


def _date_of(node: ast.AST) -> str | None:
    """'1 March 2024' for date(2024, 3, 1), date.fromisoformat("2024-03-01") or "2024-03-01"."""
    numbers: list[int] = []
    if isinstance(node, ast.Call) and all(isinstance(a, ast.Constant) and isinstance(a.value, int) for a in node.args):
        numbers = [a.value for a in node.args]
    text = node.args[0].value if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(
        node.args[0], ast.Constant) else getattr(node, "value", None)
    if isinstance(text, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}.*", text):
        numbers = [int(text[:4]), int(text[5:7]), int(text[8:10])]
    if len(numbers) < 3 or not 1 <= numbers[1] <= 12:
        return None
    return f"{numbers[2]} {MONTH_NAMES[numbers[1] - 1].capitalize()} {numbers[0]}"


def _period_words(found: dict[str, Any]) -> str | None:
    words = []
    if "year" in found and "month" in found and 1 <= found["month"] <= 12:
        words.append(f"in {MONTH_NAMES[found['month'] - 1].capitalize()} {found['year']}")
    elif "year" in found:
        words.append(f"in {found['year']}")
    if "recent" in found:
        amount, unit = found["recent"]
        words.append(f"in the last {unit}" if amount == 1 else f"in the last {amount} {unit}s")
    elif "from" in found and "until" in found:
        word, day = found["until"]
        words.append(f"from {found['from']} to {day}" if word == "until" else f"between {found['from']} and {day}")
    elif "from" in found:
        words.append(f"since {found['from']}")
    elif "until" in found:
        words.append(" ".join(found["until"]))
    if "weekday" in found:
        words.append(f"on {found['weekday'].capitalize()}s")
    return " ".join(words) or None
