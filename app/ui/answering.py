"""The UI's one door to question answering: an injected `Answerer` callable.

    answerer(question, reference_date, progress, cancel, count=None) -> Answer
    answerer.run_tree(tree_json, reference_date, progress, cancel, count=None) -> Answer   # optional: an edited tree

`progress(text)` reports a step for the status bar; `cancel` is an `app.importing.CancelToken`
(its `.cancelled` turns true when the person presses Cancel); `count(stage, done, total, unit)`, taken by an
answerer that can, reports the live count of the running tree (app.engine.execute). Tests pass a fake; `launch` binds
`PipelineAnswerer`, which runs the real QUD pipeline (app.qud.pipeline.ask) on a read-only store
connection of its own, so the GUI thread's connection is never shared with a worker.
"""

from __future__ import annotations

import importlib.util
import threading
from datetime import date
from pathlib import Path
from typing import Any, Callable, Protocol

from app.importing import CancelToken
from app.retrieve.cache import ResultCache
from app.store import EventStore

from .presenting import parse_reference_date

REFERENCE_DATE_META = "reference_date"  # a store may pin "today" (the demo persona does)
# step results kept per answerer, bounded by the items they hold (every song of the demo with its start: 35,136)
STEP_ITEMS = 60_000


class Answerer(Protocol):
    def __call__(self, question: str, reference_date: date, progress: Callable[[str], None],
                 cancel: CancelToken) -> Any: ...


def reference_date_for(store: EventStore | None) -> date:
    """"Today" for questions like "last week": the store's pinned date when it has one, else today."""
    pinned = parse_reference_date(store.meta(REFERENCE_DATE_META)) if store is not None else None
    return pinned or date.today()


def pipeline_available() -> bool:
    return importlib.util.find_spec("app.qud") is not None and importlib.util.find_spec("app.qud.pipeline") is not None


class PipelineAnswerer:
    """The real answerer over the event store at `store_path`, loading its language model lazily.

    `load()` may run ahead of the first question (the window starts it once it is up), from a worker
    thread; a lock makes sure the model is loaded once.
    """

    def __init__(self, store_path: Path, qud_model: str = "default", operator_size: str = "default"):
        self.store_path = Path(store_path)
        self.qud_model = qud_model
        self.operator_size = operator_size
        self._llm: Any = None
        self._operators: tuple[Any, Any] | None = None  # (retriever, extractor), made on the first question
        self._book: dict[str, str] | None = None          # the people book the extractor was told
        # the results of the trees' steps over this store: an edited tree, or the next question, runs again only
        # the steps that are new (app.engine.execute); kept per store version, so an import makes them go. A
        # ResultCache(max_items=0) keeps none (bench/rerun_bench.py compares the two)
        self.steps = ResultCache(max_items=STEP_ITEMS)
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._llm is not None

    @property
    def model(self) -> Any:
        """The loaded question model (None before `load`), for readings of its usage (bench/answer_bench.py)."""
        return self._llm

    def load(self, progress: Callable[[str], None], cancel: CancelToken) -> None:
        with self._lock:
            if self._llm is None:
                progress("Loading the question model …")
                self._llm = _load_qud_model(self.qud_model)
                progress("Question model ready.")

    def __call__(self, question: str, reference_date: date, progress: Callable[[str], None],
                 cancel: CancelToken, *, trace: Any = None, count: Callable[..., None] | None = None) -> Any:
        """`trace`: an app.qud.decompose.Trace that receives every model call (the bench counts them); `count`:
        the live counts of the running tree."""
        from app.qud.pipeline import ask

        self.load(progress, cancel)
        with EventStore.open(self.store_path, read_only=True) as store:
            retriever, extractor = self._operators_for(store)
            return ask(question, store, reference_date, llm=self._llm, progress=progress, cancel=cancel,
                       retriever=retriever, extractor=extractor, trace=trace, count=count, reuse=self.steps)

    def run_tree(self, tree: dict, reference_date: date, progress: Callable[[str], None], cancel: CancelToken, *,
                 count: Callable[..., None] | None = None) -> Any:
        """Run a tree the person edited (app.ui.tree_edit) with the same operators; the question model is not
        asked, so nothing needs loading. The steps the edit left as they were are not run again."""
        from app.engine import Node, execute

        with EventStore.open(self.store_path, read_only=True) as store:
            retriever, extractor = self._operators_for(store)
            progress("Running the edited tree …")
            return execute(Node.from_json(tree), store, reference_date, retriever=retriever, extractor=extractor,
                           cancel=cancel, count=count, reuse=self.steps)

    def _operators_for(self, store: EventStore) -> tuple[Any, Any]:
        from app.operators import operator_models
        from app.people import people_book

        book = people_book(store)
        if self._operators is None or book != self._book:  # first question, or the people book changed
            self._close_operators()
            self.steps.clear()   # kept with the operators that made them
            self._operators, self._book = operator_models(store, self.operator_size), book
        return self._operators

    def close(self) -> None:
        # The model is shared by every answerer of the process (models.llm.shared_model); launch closes
        # them all at exit. Here only the reference goes.
        self._llm = None
        self._close_operators()
        self.steps.clear()

    def _close_operators(self) -> None:
        if self._operators is not None and hasattr(self._operators[0], "close"):
            self._operators[0].close()
        self._operators = None


def _load_qud_model(choice: str) -> Any:
    """The QUD language model, loaded: the built-in one ("default"), or the GGUF file the person chose.

    The built-in one is assembled into the data dir on first use (models.default_qud), which takes a while
    once; afterwards loading a 250 MB GGUF takes about a second.
    """
    from models.default_qud import qud_model

    model = qud_model(None if choice == "default" else choice)  # the default: base + fine-tuned adapter
    model.load()
    return model
