"""What the engine hands back: an answer, the executed operator tree, and the evidence behind both.

Plain frozen data with no engine imports, so the UI, the QUD stage and the bench can all consume it.

    answer = app.engine.execute(tree, store, reference_date=date(2024, 5, 1))
    answer.text            # "In total 123.45 EUR, from 7 events."
    answer.value           # 123.45  (number, string, ISO date, list of them, or None)
    answer.evidence_ids    # ids of the events the value was computed from
    answer.tree            # NodeReport per executed node: size, seconds, error, warnings, ids, preview
    answer.to_json(store)  # {"answer", "answer_text", "tree", "evidence", "timings", "error"}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class NodeReport:
    """One executed tree node.

    size:      number of items (or groups) in the node's result, 1 for a scalar, None when it failed or did not run
    error:     why the node failed (or was not run); None when it ran
    warnings:  problems that did not stop the node, with counts ("2 of 40 items failed the filter: ...")
    event_ids: provenance: ids of the source events behind the node's result
    preview:   up to 50 items of the result, JSON-friendly
    """

    operator: str
    question: str
    step: str
    size: int | None
    seconds: float
    error: str | None
    children: tuple["NodeReport", ...] = ()
    event_ids: tuple[str, ...] = ()
    preview: tuple[dict, ...] = ()
    warnings: tuple[str, ...] = field(default=())

    def walk(self):
        """This node and every node below it, parents first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def to_json(self) -> dict[str, Any]:
        return {
            "operator": self.operator,
            "question": self.question,
            "step": self.step,
            "size": self.size,
            "seconds": round(self.seconds, 6),
            "error": self.error,
            "warnings": list(self.warnings),
            "event_ids": list(self.event_ids),
            "preview": [dict(p) for p in self.preview],
            "children": [c.to_json() for c in self.children],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "NodeReport":
        return cls(
            operator=obj["operator"],
            question=obj["question"],
            step=obj["step"],
            size=obj.get("size"),
            seconds=float(obj.get("seconds", 0.0)),
            error=obj.get("error"),
            children=tuple(cls.from_json(c) for c in obj.get("children", ())),
            event_ids=tuple(obj.get("event_ids", ())),
            preview=tuple(obj.get("preview", ())),
            warnings=tuple(obj.get("warnings", ())),
        )


@dataclass(frozen=True)
class Answer:
    """The engine's answer to one question.

    value:        number, string, ISO date, or a list of them; None when nothing was found or it failed
    text:         the sentence shown to a person; "I could not find ..." when the evidence is empty
    evidence_ids: ids of the source events the value was computed from
    timings:      seconds per stage ("plan", "execute", "total"; the QUD stage adds its own)
    error:        what went wrong, naming the failing node; None on success
    """

    question: str
    value: Any
    text: str
    tree: NodeReport | None
    evidence_ids: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    error: str | None = None

    def to_json(self, store: Any = None) -> dict[str, Any]:
        """JSON-friendly dict. With an EventStore, `evidence` holds the events themselves, else their ids."""
        if store is not None:
            evidence: list[Any] = [event.to_json() for event in store.get(self.evidence_ids)]
        else:
            evidence = list(self.evidence_ids)
        return {
            "question": self.question,
            "answer": self.value,
            "answer_text": self.text,
            "tree": self.tree.to_json() if self.tree else None,
            "evidence": evidence,
            "timings": {k: round(v, 6) for k, v in self.timings.items()},
            "error": self.error,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> "Answer":
        evidence = obj.get("evidence", ())
        ids = tuple(e["id"] if isinstance(e, dict) else e for e in evidence)
        return cls(
            question=obj.get("question", ""),
            value=obj.get("answer"),
            text=obj.get("answer_text", ""),
            tree=NodeReport.from_json(obj["tree"]) if obj.get("tree") else None,
            evidence_ids=ids,
            timings=dict(obj.get("timings", {})),
            error=obj.get("error"),
        )
