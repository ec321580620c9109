"""The EXTRACT model at run time (onnxruntime + tokenizers, no torch).

An encoder reads `[CLS] key [SEP] verbalized event | people: ... [SEP]` and answers in one of three modes
(models/train/nets.py::ExtractorNet):

- none:  the event says nothing about the key                       -> None
- span:  the value is written in the event; tokens tagged B/I/O      -> the exact substring(s) of the text
- label: the value is inferred, one of a closed set of labels        -> e.g. "italian" for a "pizza oven" mail
         (the labels a key may take are listed in the artifact's config.json); where the label memory
         (models/label_memory.py) is sure, its label replaces the label head's ("Noah Kahan" -> folk)

    extractor = Extractor.for_size("default")
    extractor.extract("cuisine", ["mail | Dinner at Luigi's | body: the pizza oven was ..."])   # ['italian']
    extractor.extract("participants", [...], people=["Anna Berg", "Tom Lee"])                  # [['Anna Berg']]
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from models.runtime import OnnxModel, artifact_dir, batches

if TYPE_CHECKING:
    from models.label_memory import LabelMemory

MODE_LABELS = ("none", "span", "label")
SIZES = {"small": "extractor-small", "default": "extractor-default"}
MEMORY = "label-memory"   # the label memory artifact (models/label_memory.py), used where it is sure


def extractor_input(text: str, people: Sequence[str] | None = None) -> str:
    """The second segment: the event text, then the person's people (so names can be pointed at).

    People whose first name is written in the text come first: the model reads at most 128 tokens, and a
    list of 40 names would otherwise be cut before "Lea Schwarz" when the calendar says "Lea's birthday".

    >>> extractor_input("calendar | Lea's birthday", ["Tom Lee", "Lea Schwarz"])
    "calendar | Lea's birthday | people: Lea Schwarz, Tom Lee"
    """
    if not people:
        return text
    words = set(re.findall(r"\w+", text))
    named = [p for p in people if p.split(" ")[0] in words]
    rest = [p for p in people if p.split(" ")[0] not in words]
    return f"{text} | people: {', '.join(named + rest)}"


class Extractor:
    """Key + event text -> value (a span of the text, an inferred label, or None). Lazy; `close()` frees it."""

    def __init__(self, folder: Path | str, *, batch_size: int = 32, threads: int | None = None,
                 memory: "LabelMemory | None" = None):
        self.model = OnnxModel(folder, threads=threads)
        self.batch_size = batch_size
        self.memory = memory
        self._none_threshold: float | None = None

    @classmethod
    def for_size(cls, size: str, **kwargs) -> "Extractor":
        """The committed extractor of `size`, with the committed label memory when there is one."""
        if size not in SIZES:
            raise ValueError(f"unknown extractor size {size!r}; choose one of {sorted(SIZES)}")
        if "memory" not in kwargs and (artifact_dir(MEMORY) / "memory.json").exists():
            from models.label_memory import LabelMemory

            kwargs["memory"] = LabelMemory.load(artifact_dir(MEMORY))
        return cls(artifact_dir(SIZES[size]), **kwargs)

    def close(self) -> None:
        self.model.close()

    @property
    def max_length(self) -> int:
        return int(self.model.config.get("max_length", 128))

    @property
    def labels(self) -> list[str]:
        return list(self.model.config.get("labels", []))

    def allowed_labels(self, key: str) -> list[int] | None:
        """Indices of the labels `key` may take, or None when the key has no closed set (span or nothing)."""
        per_key: dict[str, list[str]] = self.model.config.get("key_labels", {})
        names = per_key.get(key.lower().strip())
        if not names:
            return None
        index = {name: i for i, name in enumerate(self.labels)}
        return [index[n] for n in names if n in index]

    def extract(self, key: str, texts: Sequence[str], *, people: Sequence[str] | None = None,
                single: bool = False, check: Callable[[], None] | None = None) -> list[Any]:
        """One value per text: a string, a list of strings (several spans), or None. `single`: the key takes one
        value (a city, a doctor), so of several spans the one the model is surest of is the answer. `check`:
        called before each batch; it raises to stop (the batches are the same without it)."""
        segments = [extractor_input(t, people) for t in texts]
        allowed = self.allowed_labels(key)
        values: list[Any] = [None] * len(segments)
        order = sorted(range(len(segments)), key=lambda i: len(segments[i]))
        for part in batches(len(order), self.batch_size):
            if check is not None:
                check()
            idx = order[part]
            feeds, spans = self._encode(key, [segments[i] for i in idx])
            mode, tags, label = self.model.run(feeds, ["mode_logits", "tag_logits", "label_logits"])
            for row, i in enumerate(idx):
                values[i] = self._decode(mode[row], tags[row], label[row], spans[row], segments[i], allowed, people or (),
                                         single, key)
        if allowed is not None and self.memory is not None and self.memory.knows(key):
            # a label the model gives is replaced by the memory's where the memory is sure ("Noah Kahan": folk)
            names = {self.labels[a] for a in allowed}
            for i, text in enumerate(texts):
                sure = self.memory.sure_label(key, text) if values[i] is not None else None
                if sure in names:
                    values[i] = sure
        return values

    def _encode(self, key: str, segments: list[str]) -> tuple[dict[str, np.ndarray], list[list[tuple[int, int, int]]]]:
        """Feeds plus, per row, (token position, char start, char end) of every token of the second segment."""
        tok = self.model.tokenizer
        cls_id, sep_id = self.model.special_ids
        key_ids = tok.encode(key).ids[1:-1][:16]
        rows, types, spans = [], [], []
        for encoding in tok.encode_batch(segments):
            room = self.max_length - len(key_ids) - 3
            ids = encoding.ids[1:-1][:room]
            offsets = encoding.offsets[1:-1][:room]
            first = len(key_ids) + 2
            rows.append([cls_id, *key_ids, sep_id, *ids, sep_id])
            types.append([0] * first + [1] * (len(ids) + 1))
            spans.append([(first + n, s, e) for n, (s, e) in enumerate(offsets)])
        width = max(len(r) for r in rows)
        feeds = {name: np.zeros((len(rows), width), dtype=np.int64) for name in ("input_ids", "attention_mask", "token_type_ids")}
        for n, (row, typ) in enumerate(zip(rows, types)):
            feeds["input_ids"][n, : len(row)] = row
            feeds["attention_mask"][n, : len(row)] = 1
            feeds["token_type_ids"][n, : len(typ)] = typ
        return feeds, spans

    @property
    def none_threshold(self) -> float:
        """P(none) at which a closed-set key gets no label (chosen on the dev split; config.json)."""
        if self._none_threshold is None:
            self._none_threshold = float(self.model.config.get("none_threshold", 0.5))
        return self._none_threshold

    @none_threshold.setter
    def none_threshold(self, value: float) -> None:
        self._none_threshold = value

    def _decode(self, mode, tags, label, spans, text, allowed, people: Sequence[str] = (), single: bool = False,
                key: str = "") -> Any:
        if allowed is not None:
            # a key with a closed label set is answered by a label, unless the model is sure nothing fits
            p_none = float(np.exp(mode[0] - mode.max()) / np.exp(mode - mode.max()).sum())
            if p_none >= self.none_threshold:
                return None
            return self.labels[allowed[int(np.argmax(label[allowed]))]]
        choice = MODE_LABELS[int(np.argmax(mode[:2]))]  # no label set for this key: none or span
        if choice == "none":
            return None
        ranges = decode_ranges(inside_tags(tags), spans, text)
        if not ranges:  # the mode says a value is written, though no token is over one half: take the surest
            ranges = decode_ranges(surest_token_tags(tags, spans, SUREST_FLOOR), spans, text)
        ranges = [with_capitalised_neighbours(r, tags, spans, text) for r in ranges]
        if single and len(ranges) > 1:
            ranges = [max(ranges, key=lambda r: span_confidence(tags, spans, r))]
        if single and ranges and self.memory is not None:
            known = self.memory.known_values_in(key, text)
            if known and ranges[0] not in known:
                # the span is no name several people's data share, but the text writes one: the likelier wins
                ranges = [max(known, key=lambda r: span_confidence(tags, spans, r))]
        found = resolve_people(range_values(ranges, text), people)
        if not found:
            return None
        return found[0] if len(found) == 1 else found


NEIGHBOUR_FLOOR = 0.1  # chance of being inside a value at which a capitalised neighbour joins a span


def tag_probabilities(tags: np.ndarray) -> np.ndarray:
    """Per token, the softmax over O / B / I."""
    probs = np.exp(tags - tags.max(axis=-1, keepdims=True))
    return probs / probs.sum(axis=-1, keepdims=True)


def inside_tags(tags: np.ndarray) -> np.ndarray:
    """Tag ids: O (0) where P(O) >= 1/2, else the likelier of B (1) and I (2). A token the model puts inside a
    value with 0.64 ("Al" of "Al Mandaloun": O 0.36, B 0.30, I 0.34) is inside, though O is its single
    likeliest tag."""
    probs = tag_probabilities(tags)
    return np.where(probs[:, 0] >= 0.5, 0, 1 + np.argmax(probs[:, 1:], axis=-1))


SUREST_FLOOR = 0.15  # a token less likely than this to be inside a value is no answer, even the surest one


def surest_token_tags(tags: np.ndarray, spans: list[tuple[int, int, int]], floor: float = 0.0) -> np.ndarray:
    """Tag ids that mark only the token of the text surest to be inside a value, as B; none when even that
    token's chance is under `floor` (a guess at random would be an answer made up)."""
    probs = tag_probabilities(tags)
    out = np.zeros(len(tags), dtype=np.int64)
    best = max((position for position, _, _ in spans), key=lambda p: 1.0 - probs[p, 0], default=None)
    if best is not None and 1.0 - probs[best, 0] >= floor:
        out[best] = 1
    return out


def with_capitalised_neighbours(char_range: tuple[int, int], tags: np.ndarray, spans: list[tuple[int, int, int]],
                                text: str, floor: float = NEIGHBOUR_FLOOR) -> tuple[int, int]:
    """A span grows over a capitalised word right before or after it (one space apart) whose tokens all have
    at least `floor` chance of being inside a value: the small model tags "York" of "New York" or "Como" of
    "Lake Como" and leaves the first word of a multi-word name under one half."""
    start, end = char_range
    probs = tag_probabilities(tags)
    words = [(m.start(), m.end()) for m in re.finditer(r"[^\s|,;:()<>]+", text)]

    def chance(a: int, b: int) -> float:
        inside = [1.0 - probs[p, 0] for p, s, e in spans if s >= a and e <= b]
        return min(inside) if inside else 0.0

    grown = True
    while grown:
        grown = False
        for a, b in words:
            if b == start - 1 and text[b] == " " and text[a].isupper() and chance(a, b) >= floor:
                start, grown = a, True
            elif a == end + 1 and text[end] == " " and text[a].isupper() and chance(a, b) >= floor:
                end, grown = b, True
    return start, end


def span_confidence(tags: np.ndarray, spans: list[tuple[int, int, int]], char_range: tuple[int, int]) -> float:
    """Mean probability that the tokens inside `char_range` are part of a value (B or I, not O)."""
    start, end = char_range
    inside = [position for position, s, e in spans if s >= start and e <= end]
    if not inside:
        return 0.0
    return float(1.0 - tag_probabilities(tags[inside])[:, 0].mean())


def decode_spans(tag_ids: np.ndarray, spans: list[tuple[int, int, int]], text: str) -> list[str]:
    """B/I/O tags -> substrings of `text` (see `decode_ranges`)."""
    return range_values(decode_ranges(tag_ids, spans, text), text)


def range_values(ranges: list[tuple[int, int]], text: str) -> list[str]:
    """The distinct substrings of `text` at `ranges`, without the separators and pictographs around them (the flag
    of "Vienna 🇦🇹" is no part of the city's name)."""
    found: list[str] = []
    for start, end in ranges:
        value = _trimmed(text[start:end])
        if value and value not in found:
            found.append(value)
    return found


_AROUND_A_VALUE = {"So", "Sk", "Cf", "Mn", "Zs", "Cc"}   # pictographs, flags, joiners and selectors, spaces


def _trimmed(value: str) -> str:
    """`value` without separators, pictographs and spaces at either end."""
    start, end = 0, len(value)
    while start < end and (value[start] in " |,;:" or unicodedata.category(value[start]) in _AROUND_A_VALUE):
        start += 1
    while end > start and (value[end - 1] in " |,;:" or unicodedata.category(value[end - 1]) in _AROUND_A_VALUE):
        end -= 1
    return value[start:end]


def decode_ranges(tag_ids: np.ndarray, spans: list[tuple[int, int, int]], text: str) -> list[tuple[int, int]]:
    """B/I/O tags -> character ranges of `text`.

    A span is a run of B/I tokens; a B glued to the previous token (a sub-word piece) continues the span
    instead of starting a new one, and an O sub-word piece inside a tagged word is kept, so words stay whole.
    Two spans apart by only a space or a period are one value ("Dr. Zimmermann", "Elin Sandberg" tagged
    B-B by a small model); values of a list are apart by ", " or " and ", so they stay apart.
    """
    ranges: list[list[int]] = []
    current: list[int] | None = None

    def flush() -> None:
        if current is not None:
            ranges.append(current)

    for position, start, end in spans:
        tag = int(tag_ids[position])
        glued = current is not None and current[1] == start
        inside_word = glued and text[start - 1 : start].isalnum() and text[start : start + 1].isalnum()
        if tag == 1 and not glued:
            flush()
            current = [start, end]
        elif tag in (1, 2) and current is not None:
            current[1] = end
        elif tag == 2:
            current = [start, end]
        elif inside_word:
            current[1] = end  # type: ignore[index]
        else:
            flush()
            current = None
    flush()
    merged: list[list[int]] = []
    for start, end in ranges:
        while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
            start -= 1  # a span that starts on a later word piece takes the whole word
        while end < len(text) and text[end].isalnum() and text[end - 1].isalnum():
            end += 1
        if merged and (start <= merged[-1][1] or text[merged[-1][1] : start] in (" ", ".", ". ")):
            merged[-1][1] = max(end, merged[-1][1])
        else:
            merged.append([start, end])
    return [_with_name_after_title(start, end, text) for start, end in merged]


TITLES = frozenset({"dr", "prof", "mr", "mrs", "ms", "mx", "dr.", "prof.", "mr.", "mrs.", "ms.", "mx."})
_NAME_AFTER = re.compile(r"\.?\s+([A-Z][\w'-]*)")


def _with_name_after_title(start: int, end: int, text: str) -> tuple[int, int]:
    """A span that is only a title ("Dr.") takes the name written after it ("Dr. White"): a title alone
    names nobody, and a small model often tags the title and stops there."""
    if text[start:end].strip().lower() not in TITLES:
        return start, end
    match = _NAME_AFTER.match(text, end)
    return (start, match.end(1)) if match else (start, end)


def resolve_people(values: list[str], people: Sequence[str]) -> list[str]:
    """A value that is a part of exactly one person's full name becomes that name ("Sabine" -> "Sabine
    Schwarz" when the calendar says "Sabine's party"); a part shared by several ("Schwarz") stays as it is.

    >>> resolve_people(["Sabine", "Schwarz", "Lemongrass"], ["Sabine Schwarz", "Kai Schwarz"])
    ['Sabine Schwarz', 'Schwarz', 'Lemongrass']
    """
    out: list[str] = []
    for value in values:
        words = value.split()
        owners = [p for p in people if words and _contains_words(p.split(), words)]
        chosen = owners[0] if len(owners) == 1 else value
        if chosen not in out:
            out.append(chosen)
    return out


def _contains_words(name: list[str], words: list[str]) -> bool:
    n = len(words)
    return any(name[i : i + n] == words for i in range(len(name) - n + 1))
