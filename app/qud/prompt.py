"""The text the QUD model continues: a fixed instruction, the chosen step examples, the current step.

One step example in the default style "above" (the current step has the same lines and ends after "Output:"):

    Above: MAX(l=QUD("my runs with distance"), attr_name="distance_km")
    Input: QUD("my runs with distance")
    Needs: distance_km
    Output: EXTRACT(l=QUD("my runs"), attr_names=["distance_km"])

"Above" is the step just above the input (the paper keeps the steps above a sub-question as context; the
nearest one shows what the parent asked for, and "Needs" spells out the attributes its result must carry).
Style "plain" leaves out "Above" (about 25 tokens less per example); style "dialog" shows plain examples
and then the whole path so far as Input/Output pairs, like the paper's conversation.

The instruction comes first and never changes, so llama.cpp keeps it in the KV cache across steps and
questions. Steps are shown in their compact form, without EXTRACT's attr_types (the QUD adds those).
"""

from __future__ import annotations

from typing import Sequence

from app.engine.syntax import Call, FuncRef, format_call, parse_call
from app.qud.examples import Example, StepExample, step_examples
from app.qud.vocabulary import converter_for

INSTRUCTION = """\
Lifelens answers questions about a person's own events (songs, podcasts, movies, TV episodes, workouts, \
purchases, emails, calendar entries) with a plan of operator calls. Each step answers one Input with one call; \
sub-questions go into QUD("...") and get their own steps; RETRIEVE(query="...") fetches events and ends a branch.
Operators: RETRIEVE(query), EXTRACT(l, attr_names), FILTER(l, filter), MAP(l, fct, res_name), APPLY(l, fct), \
GROUP_BY(l, attr_names), JOIN(l1, l2, condition), UNNEST(l, nested_attr_name, unnested_attr_name), \
ARGMAX/ARGMIN(l, arg_attr_name, val_attr_name), SUM/AVG/MIN/MAX(l, attr_name).
An attribute used by a step must be made below it by EXTRACT, MAP, GROUP_BY or UNNEST, unless it is a fixed \
column: start_datetime, end_datetime, start_date, end_date, start_time, year, month, weekday, hour, duration, \
title. "Needs" lists what the Input's result must carry. Today is date.today().
"""


def compact_step(step: str | Call) -> str:
    """The step as the model writes it: EXTRACT without attr_types."""
    call = parse_call(step) if isinstance(step, str) else step
    if call.operator == "EXTRACT" and call.has("attr_types"):
        call = Call(call.operator, tuple((k, v) for k, v in call.args if k != "attr_types"))
    return format_call(call)


def expand_call(call: Call) -> Call:
    """The step as the tree stores it: EXTRACT gets attr_types from the known attribute types."""
    if call.operator != "EXTRACT" or call.has("attr_types"):
        return call
    names = call.get("attr_names")
    names = (names,) if isinstance(names, str) else tuple(names or ())
    types = tuple(FuncRef(converter_for(n)) for n in names)
    return Call(call.operator, call.args + (("attr_types", types),))


PROMPT_STYLES = ("above", "plain", "dialog", "tuned")

# Style "tuned", for a model fine-tuned on these steps (models/train/qud_sft.py): no instruction beyond this
# line and no examples, only the current step as in style "above"; a prompt is about 60 tokens.
TUNED_INSTRUCTION = "Lifelens plan step. Today is date.today()."


def _block(question: str, above: Sequence[tuple[str, str]], needs: str, style: str) -> str:
    lines = []
    if style == "above" and above:
        lines.append(f"Above: {compact_step(above[-1][1])}")
    lines.append(f'Input: QUD("{question}")')
    if needs:
        lines.append(f"Needs: {needs}")
    lines.append("Output:")
    return "\n".join(lines)


def example_block(step: StepExample, style: str = "above") -> str:
    return _block(step.question, step.above, step.needs, style) + " " + compact_step(step.step) + "\n"


def step_prompt(
    question: str,
    above: Sequence[tuple[str, str]],
    needs: str,
    examples: Sequence[StepExample],
    style: str = "above",
    above_needs: Sequence[str] = (),
) -> str:
    """The prompt for one step; the model's continuation is " CALL\\n".

    style "above": every block shows the step above its input; "plain": input and needs only;
    "dialog": plain examples, then the path so far as a sequence of steps (the paper's conversation);
    "tuned": a one-line instruction and the current step as in "above", no examples (a fine-tuned model).
    """
    if style == "tuned":
        return TUNED_INSTRUCTION + "\n" + _block(question, above, needs, "above")
    parts = [INSTRUCTION]
    parts.extend(example_block(e, style) for e in examples)
    if style == "dialog" and above:
        lines = []
        for i, (q, step) in enumerate(above):
            lines.append(f'Input: QUD("{q}")')
            if i < len(above_needs) and above_needs[i]:
                lines.append(f"Needs: {above_needs[i]}")
            lines.append(f"Output: {compact_step(step)}")
        parts.append("\n".join(lines) + "\n" + _block(question, above, needs, style))
    else:
        parts.append(_block(question, above, needs, style))
    return "\n".join(parts)


# --- one-shot: the whole tree in one generation (the paper's ablation) ------------------------------


def tree_block(example: Example) -> str:
    """An example's steps in one sequence (parents first): the one-shot format."""
    steps = step_examples(example)
    lines = [f"Question: {example.question}", f'Input: QUD("{example.question}")', f"Output: {compact_step(steps[0].step)}"]
    for step in steps[1:]:
        lines.append(f'Input: QUD("{step.question}")')
        lines.append(f"Output: {compact_step(step.step)}")
    lines.append("END")
    return "\n".join(lines) + "\n"


def tree_prompt(question: str, examples: Sequence[Example]) -> str:
    parts = [INSTRUCTION.replace('"Needs" lists what the Input\'s result must carry. ', "")]
    parts.extend(tree_block(e) for e in examples)
    parts.append(f'Question: {question}\nInput: QUD("{question}")\nOutput:')
    return "\n".join(parts)
