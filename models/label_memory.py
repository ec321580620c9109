"""The label memory: a multinomial naive Bayes over the words of a verbalized event, per closed-set key.

The 2-layer extractor cannot remember that Noah Kahan plays folk, Dunkirk is a war film or Abyssinia serves
Ethiopian food; counting which words go with which label in the train personas' events does. The extractor
(models/extractor.py) answers a closed-set key with the memory's label where the memory is sure (posterior at
least `threshold`, chosen on DEV) and with its own label head elsewhere. It knows only names and words seen in
training: a real person's artists that no train persona plays get the extractor's own answer.

    memory = LabelMemory.load(artifact_dir("label-memory"))
    memory.predict("genre", ["music stream | Friday 2022-07-08 evening | Noah Kahan - Stick Season | ..."])
    # [("folk", 0.998)]

It also keeps, per span key (city, place, ...), the values that several train personas share: where the
extractor's span for a one-value key is no such value but the text writes one, the known value the model gives the
most weight wins ("your reservation at Hotel Central, New York": New York, not Central).

The artifact is one JSON file of counts (`python -m models.train label_memory`); no PyTorch, no ONNX.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

ALPHA = 0.1            # additive smoothing of the word counts
FILE = "memory.json"
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def features(text: str) -> list[str]:
    """Lower-cased words (no numbers) and pairs of neighbouring words of the event text, without the people
    list the extractor appends ("noah", "kahan", "noah kahan", ...)."""
    words = _WORD.findall(text.split(" | people: ")[0].lower())
    return words + [f"{a} {b}" for a, b in zip(words, words[1:])]


class LabelMemory:
    def __init__(self, keys: dict[str, dict], threshold: float = 1.0, values: dict[str, list[str]] | None = None):
        """keys: per key {"labels": [...], "counts": {feature: {label index: count}}, "docs": [events per label]};
        a key's table of log-likelihoods is built on its first prediction. values: per span key, the values
        several train personas share (cities, restaurants: the world's names, not a person's friends)."""
        self.threshold = threshold
        self._raw = keys
        self._tables: dict[str, tuple[list[str], np.ndarray, dict[str, int], np.ndarray]] = {}
        self._values = {k: list(v) for k, v in (values or {}).items()}
        self._patterns: dict[str, re.Pattern[str]] = {}

    @classmethod
    def load(cls, folder: Path | str) -> "LabelMemory":
        data = json.loads((Path(folder) / FILE).read_text())
        return cls(data["keys"], data.get("threshold", 1.0), data.get("values"))

    def known_values_in(self, key: str, text: str) -> list[tuple[int, int]]:
        """Character ranges of the known values of `key` written in `text` (whole words, the longest first:
        "New York", not "York"), without the people list."""
        key = key.lower().strip()
        names = self._values.get(key)
        if not names:
            return []
        if key not in self._patterns:
            ordered = sorted(names, key=len, reverse=True)
            self._patterns[key] = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in ordered) + r")(?!\w)")
        end = text.find(" | people: ")
        return [m.span() for m in self._patterns[key].finditer(text if end < 0 else text[:end])]

    def knows(self, key: str) -> bool:
        return key.lower().strip() in self._raw

    def _table(self, key: str) -> tuple[list[str], np.ndarray, dict[str, int], np.ndarray]:
        """(labels, log prior, feature -> row, log-likelihood rows) of one key."""
        if key not in self._tables:
            spec = self._raw[key]
            labels = list(spec["labels"])
            rows = {feature: n for n, feature in enumerate(spec["counts"])}
            counts = np.zeros((len(rows), len(labels)), dtype=np.float64)
            for feature, per_label in spec["counts"].items():
                for index, count in per_label.items():
                    counts[rows[feature], int(index)] = count
            totals = counts.sum(axis=0) + ALPHA * (len(rows) + 1)
            likelihood = np.log((counts + ALPHA) / totals).astype(np.float32)
            docs = np.asarray(spec["docs"], dtype=np.float64)
            self._tables[key] = (labels, np.log(docs / docs.sum()), rows, likelihood)
        return self._tables[key]

    def predict(self, key: str, texts: Sequence[str]) -> list[tuple[str, float] | None]:
        """Per text, (label, posterior) of the likeliest label, or None for a key the memory has no labels of
        or a text with no word it has seen."""
        key = key.lower().strip()
        if key not in self._raw:
            return [None] * len(texts)
        labels, prior, rows, likelihood = self._table(key)
        out: list[tuple[str, float] | None] = []
        for text in texts:
            seen = [rows[f] for f in features(text) if f in rows]
            if not seen:
                out.append(None)
                continue
            scores = prior + likelihood[seen].sum(axis=0, dtype=np.float64)
            weights = np.exp(scores - scores.max())
            best = int(np.argmax(weights))
            out.append((labels[best], float(weights[best] / weights.sum())))
        return out

    def sure_label(self, key: str, text: str) -> str | None:
        """The memory's label when its posterior reaches the threshold, else None."""
        found = self.predict(key, [text])[0]
        return found[0] if found is not None and found[1] >= self.threshold else None


def shared_values(values_per_persona: dict[str, dict[str, set[str]]], *, personas: int = 2) -> dict[str, list[str]]:
    """{key: {value: personas that have it}} -> per key the values at least `personas` personas share."""
    return {key: sorted(v for v, who in values.items() if len(who) >= personas)
            for key, values in sorted(values_per_persona.items())}


def count_labels(examples: Iterable[tuple[str, str, str]], *, min_count: int = 2) -> dict[str, dict]:
    """(key, text, label) examples -> the memory's counts per key; a feature seen fewer than `min_count` times
    in a key's examples is left out (it would only remember one event)."""
    per_key: dict[str, list[tuple[list[str], str]]] = {}
    for key, text, label in examples:
        per_key.setdefault(key, []).append((features(text), label))
    out: dict[str, dict] = {}
    for key, rows in sorted(per_key.items()):
        labels = sorted({label for _, label in rows})
        index = {label: i for i, label in enumerate(labels)}
        totals: Counter[str] = Counter(f for feats, _ in rows for f in feats)
        counts: dict[str, Counter[int]] = {}
        docs = [0] * len(labels)
        for feats, label in rows:
            docs[index[label]] += 1
            for f in feats:
                if totals[f] >= min_count:
                    counts.setdefault(f, Counter())[index[label]] += 1
        out[key] = {"labels": labels, "docs": docs,
                    "counts": {f: {str(i): n for i, n in sorted(c.items())} for f, c in sorted(counts.items())}}
    return out
