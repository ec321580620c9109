"""Choosing the in-context examples for a step: BM25 (`bm25s`) over the path so far.

Eight step examples per step; a small model copies the example closest to the end of the prompt, so that
one must be the best:

* the last one is the best match for the current step: its sub-question (counted twice), the questions
  above it and the attributes it must deliver ("Needs"; an example that had to deliver attributes ranks
  above one that did not); the root step draws it from the examples' root steps, deeper steps from the
  deeper ones;
* the other seven depend on the mode:
  "step":     ranked like the last one, ascending (the most relevant to this step);
  "path":     the best matches for the whole path so far (every question from the root down), best first;
  "question": the best matches for the root question, best first: the same seven for every step of a
              question, so llama.cpp keeps their KV cache and evaluates only the last example and the
              current step (the fastest; the paper re-selects all eight per step).
  At most `per_example` come from one example, so that several shapes are shown. Examples of the previous
  step that are still among this step's best 2k keep their place at the front, and llama.cpp reuses the
  KV cache of the unchanged prompt prefix.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from app.lexicon import MONTH_PATTERN

from app.qud.examples import Example, StepExample, all_step_examples, load_examples

_WORD = re.compile(r"[a-z0-9]+")
# Only words that carry no hint of the plan; "with", "per", "most", "many", "much" do (EXTRACT, GROUP_BY, ...).
_STOP = frozenset("a an the of to in on at for and or by from my me i did do does was were is are".split())
_YEAR = re.compile(r"(19|20)\d\d")


def stem(word: str) -> str:
    """A tiny stemmer, enough to match runs/run, rides/ride, songs/song, skipped/skip, parties/party."""
    if _YEAR.fullmatch(word):
        return "YEAR"
    if word.isdigit():
        return "NUM"
    for suffix in ("ings", "ing", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            base = word[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix == "es" and not base.endswith(("s", "x", "ch", "sh")):
                base = word[:-1]  # rides -> ride, hikes -> hike
            if suffix in ("ing", "ings", "ed") and base[-1] == base[-2] and base[-1] not in "ls":
                base = base[:-1]  # running -> run, skipped -> skip
            word = base
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word  # ride/rid(ing), purchase/purchas(ed)


def terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP]


_SHAPES: tuple[tuple[str, str], ...] = (
    ("S_IN_YEAR", r"\b(in|during) (\w+ )?(19|20)\d\d\b"),
    ("S_RELATIVE", r"\b(this|last|past|previous) (\d+ )?(year|month|week|day)s?\b"),
    ("S_MONTH", rf"\b({MONTH_PATTERN})\b"),
    ("S_DAYTIME", r"\b(evening|morning|night|afternoon|weekends?|(mon|tues|wednes|thurs|fri|satur|sun)days?)\b|\b(after|before) \d"),
    ("S_WITH", r"\bwith\b"),
    ("S_GROUPED", r"\bgrouped by\b"),
    ("S_PER", r"\bper\b"),
    ("S_WHILE", r"\b(while|during|when i was|on days with|on the day of|on my)\b"),
)


def shape_terms(text: str) -> list[str]:
    """Words for the shape of a sub-question, which decides its step more than its topic does.

    "my online purchases in 2022 with total" -> S_IN_YEAR, S_WITH: a FILTER on the year, whatever was bought.
    """
    lowered = text.lower()
    return [name for name, pattern in _SHAPES if re.search(pattern, lowered)]


def needs_terms(needs: str) -> list[str]:
    """The attributes a step must deliver, as query terms: "distance_km" -> distance_km, plus a marker."""
    names = [n.strip() for n in needs.split(",") if n.strip()]
    return ["NEEDS"] + names if names else []


def step_document(step: StepExample) -> list[str]:
    return terms(step.question) * 2 + terms(step.root_question) + needs_terms(step.needs) + shape_terms(step.question)


SELECTION_MODES = ("step", "path", "question")


class ExampleSelector:
    """BM25 over step examples; `select(question, above)` returns `k` step examples, best last."""

    def __init__(
        self, examples: Sequence[Example] | None = None, *, k: int = 8, per_example: int = 2, mode: str = "question"
    ):
        import bm25s

        if mode not in SELECTION_MODES:
            raise ValueError(f"unknown selection mode {mode!r} ({', '.join(SELECTION_MODES)})")
        self.k = k
        self.per_example = per_example
        self.mode = mode
        steps = all_step_examples(tuple(examples) if examples is not None else None)
        self.all_steps = steps
        self.root_steps = [s for s in steps if s.depth == 0]
        self.deep_steps = [s for s in steps if s.depth > 0]
        self._indexes = {}
        for name, pool in (("root", self.root_steps), ("deep", self.deep_steps), ("all", self.all_steps)):
            index = bm25s.BM25()
            index.index([step_document(s) for s in pool], show_progress=False)
            self._indexes[name] = index

    def scores(
        self, question: str, above: Sequence[str] = (), *, root: bool, needs: str = ""
    ) -> list[tuple[float, StepExample]]:
        """Scores of the root (or deeper) step examples for the current step."""
        pool = self.root_steps if root else self.deep_steps
        query = terms(question) * 2 + [t for q in above for t in terms(q)] + needs_terms(needs) + shape_terms(question)
        scored = self._score("root" if root else "deep", pool, query, needs)
        # The same shape (a year, "with", "grouped by", ...) matters more than the same topic: a step about
        # "my swims in 2023" should look like one about "my bike rides in 2023", not like one about "my swims".
        # (Not for the root step: its shape is the whole question's, and the year goes to a step below.)
        if root:
            return scored
        shape = set(shape_terms(question))
        return [(v * (2.5 if set(shape_terms(s.question)) == shape else 1.0), s) for v, s in scored]

    def path_scores(self, path: Sequence[str]) -> list[tuple[float, StepExample]]:
        """Scores of all step examples for the whole path (root question first, current sub-question last)."""
        return self._score("all", self.all_steps, [t for q in path for t in terms(q)], None)

    def _score(self, name: str, pool: list[StepExample], query: list[str], needs: str | None):
        index = self._indexes[name]
        vocab = index.vocab_dict
        query = [t for t in query if t in vocab]
        if not query:
            return [(0.0, s) for s in pool]
        values = index.get_scores(query)
        if needs is None:
            return [(float(v), s) for v, s in zip(values, pool)]
        # A step that must deliver attributes is rarely answered like one that need not (RETRIEVE vs EXTRACT).
        return [(float(v) * (1.5 if bool(s.needs) == bool(needs) else 1.0), s) for v, s in zip(values, pool)]

    def ranked(
        self,
        question: str,
        above: Sequence[str] = (),
        limit: int | None = None,
        needs: str = "",
        per_example: int | None = None,
    ) -> list[StepExample]:
        """Step examples best first: no duplicate (question, step), at most `per_example` from one example."""
        per_example = self.per_example if per_example is None else per_example
        return _best(self.scores(question, above, root=not above, needs=needs), limit, per_example)

    def select(
        self,
        question: str,
        above: Sequence[str] = (),
        previous: Sequence[StepExample] | None = None,
        needs: str = "",
    ) -> list[StepExample]:
        """`k` step examples for a step answering `question` below the questions `above` (root first).

        The best match for this step is last. `previous` (the examples of the step before) keeps those still
        among this step's best 2k in place at the front, so consecutive prompts share a long prefix.
        """
        best_first = self.ranked(question, above, limit=2 * self.k, needs=needs)
        if not best_first:
            return []
        best = best_first[0]
        if self.mode == "step":
            pool = best_first
            relevant = {_key(c) for c in self.ranked(question, above, limit=2 * self.k, needs=needs, per_example=self.k)}
        else:
            scored = self.path_scores([*above, question] if self.mode == "path" else [above[0] if above else question])
            twin = {(best.question, best.step)}
            pool = _best(scored, 2 * self.k, self.per_example, exclude=twin)
            relevant = {_key(c) for c in _best(scored, 2 * self.k, self.k, exclude=twin)}
        keep: list[StepExample] = []
        for step in (previous or [])[: self.k - 1]:
            if _key(step) not in relevant or _key(step) == _key(best):
                break
            keep.append(step)
        kept = {_key(s) for s in keep} | {_key(best)}
        fill = [c for c in pool if _key(c) not in kept][: self.k - 1 - len(keep)]
        if self.mode == "step":
            fill.reverse()  # ascending: the more similar, the nearer the end
        # In path and question mode the best matches come first: they are the likeliest to stay relevant on
        # the next step, and a prompt prefix that stays the same is not evaluated again.
        return keep + fill + [best]

    def select_examples(self, question: str, k: int | None = None) -> list[Example]:
        """Whole examples for the one-shot variant: ranked by their root question, best last."""
        ranked = sorted(self.scores(question, root=True), key=lambda p: (-p[0], p[1].example.line))
        return [s.example for _, s in ranked[: k or self.k]][::-1]


def _key(step: StepExample) -> tuple[int, str, str]:
    return step.example.line, step.question, step.step


def _best(
    scored: list[tuple[float, StepExample]], limit: int | None, per_example: int, exclude: set | None = None
) -> list[StepExample]:
    """Best first; no duplicate (question, step); at most `per_example` steps of one example."""
    ordered = sorted(scored, key=lambda pair: (-pair[0], pair[1].example.line, pair[1].depth))
    chosen: list[StepExample] = []
    per: dict[int, int] = {}
    shown: set[tuple[str, str]] = set()
    for _, step in ordered:
        line = step.example.line
        if per.get(line, 0) >= per_example or (step.question, step.step) in shown:
            continue
        if exclude and (step.question, step.step) in exclude:
            continue
        shown.add((step.question, step.step))
        chosen.append(step)
        per[line] = per.get(line, 0) + 1
        if limit is not None and len(chosen) == limit:
            break
    return chosen


@lru_cache(maxsize=8)
def default_selector(mode: str = "question", k: int = 8) -> ExampleSelector:
    return ExampleSelector(load_examples(), k=k, mode=mode)
