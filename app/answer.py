"""What the engine hands back: an answer, the executed operator tree, and the evidence behind both.

Plain frozen data with no engine imports, so the UI, the QUD stage and the bench can all consume it.

    answer = app.engine.execute(tree, store, reference_date=date(2024, 5, 1))
    answer.text            # "In total 123.45 EUR, from 7 events."
    answer.value           # 123.45  (number, string, ISO date, list of them, or None)
    answer.evidence_ids    # ids of the events the value was computed from
    answer.tree            # NodeReport per executed node: size, seconds, error, warnings, ids, preview
    answer.status          # AnswerStatus.ANSWERED, NONE_FOUND, NOT_UNDERSTOOD, FAILED, CANCELLED, TIMED_OUT
    answer.to_json(store)  # {"answer", "answer_text", "status", "tree", "evidence", "timings", "error"}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class AnswerStatus(str, Enum):
    """What became of a question, so that no caller reads it back out of the answer's text.

    ANSWERED        the tree ran and gave a value (a count of 0 over events that exist but none matched is one)
    NONE_FOUND      the tree ran and found nothing to give a value from (an arg-max over no events)
    NOT_UNDERSTOOD  no operator tree could be written for the question
    FAILED          a step of the tree (or the question model) failed; `error` names it
    CANCELLED       the person cancelled
    TIMED_OUT       the question ran past its time limit
    """

    ANSWERED = "answered"
    NONE_FOUND = "none_found"
    NOT_UNDERSTOOD = "not_understood"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"

    @property
    def ran(self) -> bool:
        """The tree ran to its end: its value (or its having none) is a finding about the data."""
        return self in (AnswerStatus.ANSWERED, AnswerStatus.NONE_FOUND)


class FailureKind(str, Enum):
    """Why a node has no result, for code to act on; the node's `error` says it for people.

    INVALID_STEP       the step breaks the operator language or the derivation rule; it never ran
    NOT_RUN            a step below it failed (or the tree has invalid steps), so it did not run
    MISSING_ATTRIBUTE  an EXTRACT found its attribute on none of its events (the artist of a run)
    TIME_LIMIT         the question's time ran out while the step ran
    FAILED             any other failure of the operator or a lambda (a join too large, a lambda failing everywhere)
    INTERNAL           a bug in an operator
    """

    INVALID_STEP = "invalid_step"
    NOT_RUN = "not_run"
    MISSING_ATTRIBUTE = "missing_attribute"
    TIME_LIMIT = "time_limit"
    FAILED = "failed"
    INTERNAL = "internal"


@dataclass(frozen=True)
class Failure:
    """A node's failure as a value: its kind, and for MISSING_ATTRIBUTE the attribute and the sources of the
    events that lacked it (what a new decomposition joins other events for)."""

    kind: FailureKind
    attribute: str | None = None
    sources: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "attribute": self.attribute, "sources": list(self.sources)}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | None) -> "Failure | None":
        if not obj:
            return None
        return cls(FailureKind(obj["kind"]), obj.get("attribute"), tuple(obj.get("sources", ())))


@dataclass(frozen=True)
class NodeReport:
    """One executed tree node.

    size:      number of items (or groups) in the node's result, 1 for a scalar, None when it failed or did not run
    error:     why the node failed (or was not run), for people; None when it ran
    failure:   the same as a typed value (`Failure`), for code; None when it ran
    warnings:  problems that did not stop the node, with counts ("2 of 40 items failed the filter: ...")
    event_ids: provenance: ids of the source events behind the node's result
    preview:   up to 50 items of the result, JSON-friendly
    reused:    the result was kept from an earlier run of the same step over the same data (an edited tree runs
               again only what changed); `seconds` is then this run's, about none
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
    failure: Failure | None = None
    reused: bool = False

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
            "failure": self.failure.to_json() if self.failure else None,
            "reused": self.reused,
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
            failure=Failure.from_json(obj.get("failure")),
            reused=bool(obj.get("reused", False)),
        )


@dataclass(frozen=True)
class Answer:
    """The engine's answer to one question.

    value:        number, string, ISO date, yes/no (bool), or a list of them; a count or a sum over no events
                  is 0; None when there is no value (nothing to compare) or it failed
    text:         the sentence shown to a person; it says what was found and, when nothing was, where it was lost
    evidence_ids: ids of the source events the value was computed from
    timings:      seconds per stage ("plan", "execute", "total"; the QUD stage adds its own)
    error:        what went wrong, naming the failing node; None on success
    status:       what became of the question (AnswerStatus); read it, not the text or the error
    """

    question: str
    value: Any
    text: str
    tree: NodeReport | None
    evidence_ids: tuple[str, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    status: AnswerStatus = AnswerStatus.ANSWERED

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
            "status": self.status.value,
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
            status=AnswerStatus(obj["status"]) if obj.get("status") else _status_of_old(obj),
        )


def _status_of_old(obj: dict[str, Any]) -> AnswerStatus:
    """Answers saved before the status existed (history files): cancelled, failed or answered."""
    if obj.get("error") == "cancelled":
        return AnswerStatus.CANCELLED
    return AnswerStatus.FAILED if obj.get("error") else AnswerStatus.ANSWERED
