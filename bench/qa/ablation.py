"""What each rule of the decomposition earns: its questions answered with the rule on and off.

A rule that did not act on a question (no guard of its kind refused a step, no frame or repair was used:
`app.qud.decompose.Trace.acted`) leaves that question's decomposition as it was. So switching a rule off needs
a rerun only of the questions where it acted, and the set's score without the rule is the run's score with
those questions' new results in their place. A rule that acts on nearly every question (grounding the
literals) needs a whole run; above `max_questions` it is listed, not rerun.

    rows = ablation(report["questions"], rerun, RULES, max_questions=60)
    print(ablation_markdown(rows, len(report["questions"])))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping


@dataclass(frozen=True)
class RuleRow:
    rule: str
    acted: int                         # questions where the rule acted
    hits_on: float                     # Hit@1 summed over those questions, rule on (the run)
    hits_off: float | None             # the same with the rule off; None: not rerun (acted on too many)
    relaxed_on: float
    relaxed_off: float | None


def ablation(
    results: Iterable[Mapping],
    rerun: Callable[[str, set[str]], Mapping[str, tuple[float, float]]],
    rules: Iterable[str],
    *,
    max_questions: int = 60,
    say: Callable[[str], None] = lambda text: None,
) -> list[RuleRow]:
    """One row per rule. `results`: a bench report's questions (id, hit, relaxed, rules); `rerun(rule, ids)`
    answers those questions with `rule` switched off and gives {id: (hit, relaxed)}."""
    results = list(results)
    rows = []
    for rule in rules:
        acted = [r for r in results if rule in r.get("rules", ())]
        on = sum(r["hit"] for r in acted), sum(r["relaxed"] for r in acted)
        off: tuple[float, float] | tuple[None, None] = (None, None)
        if acted and len(acted) <= max_questions:
            say(f"{rule}: {len(acted)} questions again with the rule off")
            again = rerun(rule, {r["id"] for r in acted})
            missing = [r["id"] for r in acted if r["id"] not in again]
            if missing:
                raise RuntimeError(f"the rerun without {rule!r} did not answer {', '.join(missing)}")
            off = sum(again[r["id"]][0] for r in acted), sum(again[r["id"]][1] for r in acted)
        elif not acted:
            off = on
        rows.append(RuleRow(rule, len(acted), on[0], off[0], on[1], off[1]))
    return rows


def ablation_markdown(rows: list[RuleRow], questions: int, hits: float) -> str:
    """The table: per rule, where it acted, Hit@1 there with it on and off, and the whole set's Hit@1 without
    it (the run's is `hits` / `questions`)."""
    lines = [
        f"Whole set: {questions} questions, Hit@1 {hits / questions:.3f} with every rule on.",
        "",
        "| rule | acted on | Hit@1 there, on | Hit@1 there, off | set Hit@1 off | earns |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row.hits_off is None:
            lines.append(f"| {row.rule} | {row.acted} | {row.hits_on:g} | not rerun | - | - |")
            continue
        set_off = (hits - row.hits_on + row.hits_off) / questions
        lines.append(f"| {row.rule} | {row.acted} | {row.hits_on:g} | {row.hits_off:g} | {set_off:.3f} | "
                     f"{(row.hits_on - row.hits_off) / questions:+.3f} |")
    return "\n".join(lines) + "\n"
