"""Choosing the in-context examples for a step: BM25 (`bm25s`) over the path so far.

The query is the current sub-question (counted twice), the questions above it and the attributes the step
must deliver ("Needs"; examples that needed attributes rank above those that did not). The root step chooses
among the examples' root steps (whole questions: which operator ends the plan), deeper steps among the
deeper step examples (phrases such as "my runs with distance"), at most `per_example` from one example so
that the prompt shows several shapes. The result is ordered from least to most similar: small models
copy the example closest to the end of the prompt, so that one should be the best.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

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


def needs_terms(needs: str) -> list[str]:
    """The attributes a step must deliver, as query terms: "distance_km" -> distance_km, plus a marker."""
    names = [n.strip() for n in needs.split(",") if n.strip()]
    return ["NEEDS"] + names if names else []


def step_document(step: StepExample) -> list[str]:
    return terms(step.question) * 2 + terms(step.root_question) + needs_terms(step.needs)


class ExampleSelector:
    """BM25 over step examples; `select(question, above)` returns `k` step examples, best last."""

    def __init__(self, examples: Sequence[Example] | None = None, *, k: int = 8, per_example: int = 2):
        import bm25s

        self.k = k
        self.per_example = per_example
        steps = all_step_examples(tuple(examples) if examples is not None else None)
        self.root_steps = [s for s in steps if s.depth == 0]
        self.deep_steps = [s for s in steps if s.depth > 0]
        self._indexes = {}
        for name, pool in (("root", self.root_steps), ("deep", self.deep_steps)):
            index = bm25s.BM25()
            index.index([step_document(s) for s in pool], show_progress=False)
            self._indexes[name] = index

    def scores(
        self, question: str, above: Sequence[str] = (), *, root: bool, needs: str = ""
    ) -> list[tuple[float, StepExample]]:
        pool = self.root_steps if root else self.deep_steps
        query = terms(question) * 2 + [t for q in above for t in terms(q)] + needs_terms(needs)
        index = self._indexes["root" if root else "deep"]
        vocab = index.vocab_dict
        query = [t for t in query if t in vocab]
        if not query:
            return [(0.0, s) for s in pool]
        values = index.get_scores(query)
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
        scored = sorted(
            self.scores(question, above, root=not above, needs=needs),
            key=lambda pair: (-pair[0], pair[1].example.line, pair[1].depth),
        )
        chosen: list[StepExample] = []
        per: dict[int, int] = {}
        shown: set[tuple[str, str]] = set()
        for _, step in scored:
            line = step.example.line
            if per.get(line, 0) >= per_example or (step.question, step.step) in shown:
                continue
            shown.add((step.question, step.step))
            chosen.append(step)
            per[line] = per.get(line, 0) + 1
            if limit is not None and len(chosen) == limit:
                break
        return chosen

    def select(
        self,
        question: str,
        above: Sequence[str] = (),
        previous: Sequence[StepExample] | None = None,
        needs: str = "",
    ) -> list[StepExample]:
        """`k` step examples for a step answering `question` below the questions `above` (root first).

        Ordered from least to most similar. With `previous` (the examples of the step before), examples
        that are still among this step's best 2k keep their place at the front, so the prompt shares a
        longer prefix with the previous one and llama.cpp reuses more of its KV cache; the best example
        is always last.
        """
        candidates = self.ranked(question, above, limit=2 * self.k, needs=needs)
        top = candidates[: self.k]
        if not top:
            return []
        best = top[0]
        if not previous:
            return list(reversed(top))
        # "Still relevant": among this step's best 2k by score alone (the per-example cap is for fresh picks).
        relevant = {_key(c) for c in self.ranked(question, above, limit=2 * self.k, needs=needs, per_example=self.k)}
        keep: list[StepExample] = []
        for step in previous:
            if _key(step) not in relevant or _key(step) == _key(best) or len(keep) >= self.k - 1:
                break
            keep.append(step)
        kept = {_key(s) for s in keep} | {_key(best)}
        fill = [c for c in top[1:] if _key(c) not in kept][: self.k - 1 - len(keep)]
        return keep + list(reversed(fill)) + [best]

    def select_examples(self, question: str, k: int | None = None) -> list[Example]:
        """Whole examples for the one-shot variant: ranked by their root question, best last."""
        ranked = sorted(self.scores(question, root=True), key=lambda p: (-p[0], p[1].example.line))
        return [s.example for _, s in ranked[: k or self.k]][::-1]


def _key(step: StepExample) -> tuple[int, str, str]:
    return step.example.line, step.question, step.step


@lru_cache(maxsize=1)
def default_selector() -> ExampleSelector:
    return ExampleSelector(load_examples())
