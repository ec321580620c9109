"""Question -> operator tree -> answer: the one entry point the CLI, the bench and the UI share.

Above both stages: the QUD (app.qud) writes the tree, the operator engine (app.engine) runs it, and a step that
fails as it runs has the question decomposed again without it (at most RERUNS times).

    from app.ask import ask
    answer = ask("How much did I spend on Amazon in 2023?", store, date.today())
    answer.text, answer.value, answer.tree, answer.evidence_ids
    answer.timings      # {"qud": 1.8, "qud_load": 1.1, "plan": ..., "execute": ..., "retrieve": ..., "extract": ...,
                        #  "total": ...}: seconds; plan/execute/retrieve/extract summed over every tree that ran

Without `llm`, the configured QUD model (app.qud.pipeline.default_llm) is loaded once per process. A question
that cannot be decomposed gives an Answer with `error` set and no tree; nothing raises for bad questions.
(`app.qud.pipeline.ask` is this function too, for older callers.)
"""

from __future__ import annotations

import functools
import time
from contextlib import nullcontext
from dataclasses import replace
from datetime import date
from typing import Any, Callable

from app.answer import Answer, AnswerStatus, FailureKind, NodeReport
from app.engine.values import Item
from app.extract.bookings import booked_travellers
from app.extract.statements import statement_lines
from app.people import mail_owner, mailing_services, owner_and_people
from app.qud import pipeline as qud_pipeline
from app.qud.decompose import Cancelled, DecompositionError, QudConfig, Trace, decompose
from app.qud.accounts import PROFILE_SOURCES
from app.qud.kinds import KIND_OF_SOURCE, SHOP_MAILS_AT_LEAST, shops_of
from app.qud.occasions import MEETING_SOURCES, RECURRING_AT_LEAST
from app.qud.validate import carrier_phrases, source_words
from app.sources import SOURCES, carrier_sources
from models.llm import GenerationCancelled, GrammarError, LLMError, replaying

__all__ = ["ask", "RERUNS"]


def ask(question: str, store, reference_date: date, *, llm=None, progress: Callable[[str], None] | None = None,
        cancel: Any = None, config: QudConfig | None = None, trace: Trace | None = None, retriever: Any = None,
        extractor: Any = None, count: Callable[[str, int, int, str], None] | None = None, reuse: Any = None) -> Answer:
    """Decompose `question` and run the tree on `store`; "today" is `reference_date`.

    progress: receives short messages ("Understanding the question …", each step written, "Running …").
    cancel:   a callable, a threading.Event or an object with `.cancelled`; checked by the model between
              tokens and inside llama.cpp's evaluation (`interrupt_when`), and by the engine between chunks of
              work, so that a cancel takes effect within a second.
    retriever, extractor: the operator models (`app.retrieve.make_retriever`, `app.extract.make_extractor`);
              None runs the engine's lexical baselines.
    count:    receives live counts while the tree runs, (stage, done, total, unit): ("reading", 12400, 35136,
              "events"), between the same chunks of work where `cancel` is looked at (app.engine.execute).
    reuse:    step results kept across runs (app.retrieve.cache.ResultCache, app.engine.execute): a re-run after a
              failed step, a later question or an edited tree runs again only the steps that are new.
    """
    from app.engine import execute
    from app.engine.executor import cancel_check

    started = time.perf_counter()
    say = progress or (lambda message: None)
    check = cancel_check(cancel)
    timings: dict[str, float] = {}
    llm = _loaded_model(llm, say, timings)
    say("Understanding the question …")

    def on_step(sub_question: str, depth: int, step: str, problems: list[str]) -> None:
        say(f"{'  ' * depth}{step}" + (f"  (rejected: {problems[0]})" if problems else ""))

    trace = trace if trace is not None else Trace()
    # the owner and their people, read once (all mails and calendar entries), and only for a question about the
    # people of some events, with a lower-case word that may be a first name, or a search of a shared account
    known = functools.cache(lambda: owner_and_people(store))
    owner = functools.cache(lambda: mail_owner(store, known()))
    people = functools.cache(lambda: known()[1])
    # read once, and only where a search calls a name a kind ("the podcast Friends")
    names = functools.cache(lambda: store.name_values({s: SOURCES[s].name_keys for s in KIND_OF_SOURCE}))
    # read once, and only for a question with a word in lower case: the works the data holds, as it writes them
    titles = functools.cache(lambda: frozenset().union(*store.name_values(
        {s: SOURCES[s].work_keys for s in KIND_OF_SOURCE if SOURCES[s].work_keys}, lower=False).values()))
    # read only where a search goes to a named place: how the calendar writes it
    written = functools.cache(store.written_forms)
    # read once: the titles of the entries a calendar holds again and again ("Weekly team sync")
    recurring = functools.cache(lambda: store.recurring_titles(sorted(MEETING_SOURCES), RECURRING_AT_LEAST))
    # read once, and only where a search looks for purchases or meals: the shops known by their mails
    shops = functools.cache(lambda: shops_of(mailing_services(store, SHOP_MAILS_AT_LEAST),
                                             store.name_values({"online_purchase": ("product",)})["online_purchase"]))
    # read once, and only for a question with a word in lower case: where the person stayed
    places = functools.cache(store.stay_places)
    # read once, and only for a question who came along on a trip: the bookings that name their travellers
    travellers = functools.cache(lambda: booked_travellers(store.events(source=["mail"])))
    # read once, and only for a question that counts or sums payments of a kind: whether statements come by mail
    statements = functools.cache(lambda: any(statement_lines(mail.attrs) for mail in
                                             map(Item.from_event, store.events(source=["mail"]))))
    # read once, and only where a search looks for a workout of any sport: whether the data holds workouts
    held = functools.cache(lambda: frozenset(store.source_names()))
    # read once, and only where a search finds events of a source with profiles
    profiles = functools.cache(lambda: store.name_values({s: (key,) for s, key in PROFILE_SOURCES.items()}))
    # a sub-question decomposed before (for an earlier question, or before a failed step made this one decompose
    # again) is replayed with the same prompt instead of written again
    steps = replaying(llm)
    avoid: dict[str, frozenset[str]] = {}
    join_for: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # events that lacked an attribute (below)
    timings["qud"] = 0.0
    for attempt in range(1 + RERUNS):
        qud_started = time.perf_counter()
        try:
            with _interruptible(llm, check):
                tree = _decompose_attempt(question, reference_date, steps, trace, config=config, progress=on_step,
                                          cancel=check, avoid=avoid, join_for=join_for, owner=owner,
                                          people=people, names=names,
                                          profiles=profiles, written=written, recurring=recurring,
                                          shops=shops, places=places, travellers=travellers,
                                          statements=statements, titles=titles, held=held)
        except _NOT_ANSWERED as exc:
            return _not_answered(question, exc, timings, started, qud_started)
        timings["qud"] += time.perf_counter() - qud_started
        say("Running the operator tree …")
        answer = execute(tree, store, reference_date, retriever=retriever, extractor=extractor, cancel=cancel,
                         count=count, reuse=reuse)
        _add_stage_seconds(timings, answer)
        failed = _failed_step(answer)
        if failed is None or attempt == RERUNS:
            break
        _plan_rerun(failed, config, avoid, join_for, trace, say)
    merged = {**answer.timings, **timings}
    merged["total"] = time.perf_counter() - started
    return replace(answer, timings=merged)


RERUNS = 2  # new decompositions after a tree whose step failed when it ran (a join too large, a bad lambda)
# What stops a decomposition without an answer: the question (not understood), a cancel, or the model (it failed,
# not the question: said so, never a crash); _not_answered says which.
_NOT_ANSWERED = (DecompositionError, Cancelled, GenerationCancelled, LLMError, GrammarError)
STAGE_OPERATORS = {"RETRIEVE": "retrieve", "EXTRACT": "extract"}  # operators timed as stages of their own


def _loaded_model(llm: Any, say: Callable[[str], None], timings: dict[str, float]) -> Any:
    """`llm`, or the configured QUD model, loaded; the seconds a load took go to timings["qud_load"]."""
    if llm is None:
        llm = qud_pipeline.default_llm()
    if hasattr(llm, "loaded") and not llm.loaded:
        say("Loading the question model …")
        load_started = time.perf_counter()
        llm.load()
        timings["qud_load"] = time.perf_counter() - load_started
    return llm


def _decompose_attempt(question: str, reference_date: date, llm: Any, trace: Trace, **options: Any):
    """One decomposition of `question` (decompose's `options`). Each attempt has the whole call budget, so it
    keeps a trace of its own; its model calls are added to `trace`, which keeps those of all attempts, also when
    the attempt raises."""
    attempt_trace = Trace()
    try:
        return decompose(question, reference_date, llm, trace=attempt_trace, **options)
    finally:
        trace.steps.extend(attempt_trace.steps)
        trace.seconds += attempt_trace.seconds
        trace.acted |= attempt_trace.acted


def _plan_rerun(failed: NodeReport, config: QudConfig | None, avoid: dict[str, frozenset[str]],
                join_for: dict[str, tuple[tuple[str, ...], tuple[str, ...]]], trace: Trace,
                say: Callable[[str], None]) -> None:
    """What the next decomposition does differently after `failed`: join other events in where the events had
    no value for an attribute (once per question), else avoid the failed step's operator for its sub-question."""
    lacking = None if join_for or not (config or QudConfig()).on("join_missing") else _lacking_attribute(failed)
    if lacking is not None:
        # The artist of a run: these events cannot give it, other events joined to them can (the songs
        # played during the runs). The model rarely writes that JOIN itself, so the new tree must, once.
        events, name, sources = lacking
        say(f"“{events}” carries no {name}; understanding the question again with other events joined …")
        join_for[failed.question] = (source_words(events, sources), carrier_phrases(name))
        trace.acted.add("join_missing")
        return
    say(f"{failed.operator} failed on “{failed.question}”; understanding the question again without it …")
    avoid[failed.question] = avoid.get(failed.question, frozenset()) | {failed.operator}


def _not_answered(question: str, exc: Exception, timings: dict[str, float], started: float,
                  qud_started: float) -> Answer:
    """The Answer of a question whose decomposition stopped with `exc` (not understood, cancelled, the model
    failed): no tree, `timings` closed with this attempt's QUD seconds and the total."""
    if isinstance(exc, DecompositionError):
        text, error, status = f"I could not understand the question: {exc}", str(exc), AnswerStatus.NOT_UNDERSTOOD
    elif isinstance(exc, (Cancelled, GenerationCancelled)):  # before LLMError: a GenerationCancelled is one
        text, error, status = "The question was cancelled.", "cancelled", AnswerStatus.CANCELLED
    else:
        text, error, status = f"The question model failed: {exc}", str(exc), AnswerStatus.FAILED
    now = time.perf_counter()
    timings["qud"] += now - qud_started
    timings["total"] = now - started
    return Answer(question, None, text, None, (), timings, error, status)


def _interruptible(llm: Any, check: Callable[[], bool] | None):
    """The model stops generating when `check` turns true (models.llm.GGUFModel.interrupt_when); a model without
    that hook is only stopped between its calls, by the decomposer."""
    if check is None or not hasattr(llm, "interrupt_when"):
        return nullcontext()
    return llm.interrupt_when(check)


def _add_stage_seconds(timings: dict[str, float], answer: Answer) -> None:
    """Add an executed tree's plan, execute, RETRIEVE and EXTRACT seconds to `timings` (a question may run up to
    1 + RERUNS trees). A sub-tree that occurs twice ran once: its report is shared, and counted once."""
    for name in ("plan", "execute"):
        timings[name] = timings.get(name, 0.0) + answer.timings.get(name, 0.0)
    for stage in STAGE_OPERATORS.values():
        timings.setdefault(stage, 0.0)
    seen: set[int] = set()
    for node in answer.tree.walk() if answer.tree is not None else ():
        if id(node) in seen:
            continue
        seen.add(id(node))
        stage = STAGE_OPERATORS.get(node.operator)
        if stage is not None:
            timings[stage] += node.seconds


def _failed_step(answer: Answer) -> NodeReport | None:
    """The deepest step that failed when the tree ran, if a new tree may help.

    Not after a cancel or the time limit: a new tree would only take as long again.
    """
    if answer.status is not AnswerStatus.FAILED or answer.tree is None:
        return None
    failed = [n for n in answer.tree.walk() if n.failure and n.failure.kind is not FailureKind.NOT_RUN]
    if not failed:
        return None
    return failed[-1]  # walk() is depth first, parents before children


def _lacking_attribute(failed: NodeReport) -> tuple[str, str, tuple[str, ...]] | None:
    """(sub-question, attribute, sources) of an EXTRACT that found its attribute on none of its events, when
    other sources carry it (or none does: a cuisine is read from text), so that joining them may help."""
    missing = failed.failure
    if missing is None or missing.kind is not FailureKind.MISSING_ATTRIBUTE or not failed.children:
        return None
    name, sources = missing.attribute, missing.sources
    if set(sources) & set(carrier_sources(name)):
        return None  # the events are of the right source and still have no value: a join would not help
    return failed.children[0].question, name, sources
