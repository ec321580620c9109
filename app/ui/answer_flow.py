"""A question from the moment it is asked to the answer shown: follow-ups, waiting for the search index, the
job with its stage and live count, cancel, an edited tree run again, and answers opened from the history.

    flow = AnswerFlow(window)            # the window: its panes, store, answerer, runner, status bar
    flow.ask("How often did I run in 2023?")
    flow.ask("and in 2022?")             # a follow-up: the last answer's tree, moved to 2022 (no question model)
    flow.cancel()                        # Esc
    flow.answered.connect(...)           # Answer, or None when there is none to show

The window keeps the panes and the store; this object keeps what belongs to one question at a time (the running
job, the question waiting for the index, the answer shown) and is the only code that starts an AnswerJob.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QLocale, QObject, Signal, Slot

from app.people import mail_owner

from .answer_history import AnswerHistory
from .answering import reference_date_for
from .follow_up import people_follow_up, people_tree, period_follow_up, time_follow_up, tree_for_year, tree_within
from .jobs import AnswerJob, JobRunner
from .presenting import progress_words
from .step_dialog import StepDialog
from .tree_edit import EditError, edited_tree, tree_json, tree_problems


class Host(Protocol):
    """What the flow needs of the window (app.ui.main_window.MainWindow)."""

    answerer: Any
    store: Any
    store_path: Any
    runner: JobRunner
    answer_history: AnswerHistory
    question_pane: Any
    answer_pane: Any
    tree_pane: Any
    evidence_pane: Any

    def ensure_store(self) -> bool: ...
    def indexing_words(self) -> str | None: ...          # "1,200 of 3,000 new events" while indexing, else None
    def show_events(self, ids: Any) -> None: ...
    def set_status(self, text: str) -> None: ...
    def set_working(self, working: bool) -> None: ...
    def open_dialog(self, dialog: Any, on_accepted: Any) -> Any: ...


class AnswerFlow(QObject):
    answered = Signal(object)  # Answer, or None when answering failed or was cancelled
    finished = Signal()        # nothing runs or waits any more (the window may bring the index up to date)
    editable_changed = Signal()

    def __init__(self, host: Host):
        super().__init__()
        self.host = host
        self.job: AnswerJob | None = None
        self.waiting: tuple[str, dict | None] | None = None  # (question, tree) asked while the index was updated
        self.last_answer: Any = None
        self.step_dialog: StepDialog | None = None

    @property
    def busy(self) -> bool:
        """A question runs, or waits for the index."""
        return self.job is not None or self.waiting is not None

    @property
    def can_run_trees(self) -> bool:
        return hasattr(self.host.answerer, "run_tree")

    # --- asking ---------------------------------------------------------------------------------

    @Slot(str)
    def ask(self, question: str) -> AnswerJob | None:
        """Answer `question` on a worker thread; while the search index is being brought up to date, the question
        waits for it (a RETRIEVE would otherwise index the store a second time, racing the indexer)."""
        question = question.strip()
        if not question or self.busy or not self.host.ensure_store():
            return None
        self.host.question_pane.remember(question)
        # "and in 2022?", "only on weekends", "who was with me?" right after an answer: its steps changed, without
        # the question model.
        tree = self._follow_up_tree(question)
        if tree is not None:
            self.host.question_pane.line.setText(tree["question"])  # the box shows how the follow-up was read
        return self._work_out(question if tree is None else tree["question"], tree)

    def run_tree(self, tree: dict) -> AnswerJob | None:
        """Run an edited tree through the answerer (no question model: only the engine), as a question runs."""
        if self.busy or not self.host.ensure_store():
            return None
        return self._work_out(tree["question"], tree)

    def _follow_up_tree(self, question: str) -> dict | None:
        """The last answer's tree for a follow-up that moves or narrows its period or asks who was there; None
        for any other question."""
        if self.last_answer is None or self.last_answer.tree is None or not self.can_run_trees:
            return None
        tree = tree_json(self.last_answer.tree)
        year = period_follow_up(question)
        if year is not None:
            return tree_for_year(tree, year)
        if people_follow_up(question):
            return people_tree(tree, mail_owner(self.host.store) if self.host.store is not None else None)
        part = time_follow_up(question)
        return tree_within(tree, part) if part is not None else None

    def _work_out(self, question: str, tree: dict | None = None) -> AnswerJob | None:
        """Answer `question` (through the question model), or run `tree` for it; after the index, if it is
        being brought up to date."""
        self._begin_working(question)
        if self.host.indexing_words() is not None:
            self.waiting = (question, tree)
            self.host.answer_pane.show_stage(self._waiting_words())
            return None
        return self._start(question, tree)

    def _begin_working(self, question: str) -> None:
        """The window while `question` is worked out: the pane says so, the old tree and evidence go."""
        self._show(None)  # Copy and Export act on what the pane shows, and it shows this question now
        self.host.answer_pane.show_working(question)
        self.host.question_pane.set_busy(True)
        self.host.set_working(True)

    def _start(self, question: str, tree: dict | None = None) -> AnswerJob:
        job = AnswerJob(self.host.answerer, question, reference_date_for(self.host.store), tree)
        job.message.connect(self._on_progress)
        job.counted.connect(self.host.answer_pane.show_count)
        job.succeeded.connect(self._on_answer)
        job.failed.connect(self._on_failed)
        job.finished.connect(self._on_finished)
        self.job = job
        self.host.runner.start(job)
        return job

    # --- the search index -----------------------------------------------------------------------------

    def index_progress(self) -> None:
        """The index moved on: a waiting question says how far."""
        if self.waiting is not None:
            self.host.answer_pane.show_stage(self._waiting_words())

    def index_finished(self) -> None:
        """The index is up to date: the waiting question starts."""
        if self.waiting is not None:
            (question, tree), self.waiting = self.waiting, None
            self._start(question, tree)

    def _waiting_words(self) -> str:
        """'Waiting for the search index (1,200 of 3,000 new events); the question starts right after'."""
        progress = self.host.indexing_words()
        return f"Waiting for the search index{f' ({progress})' if progress else ''}; the question starts right after"

    # --- while it runs, and after ---------------------------------------------------------------------

    @Slot(str)
    def _on_progress(self, text: str) -> None:
        words = progress_words(text)
        self.host.set_status(words)
        self.host.answer_pane.show_stage(words)

    @Slot()
    def cancel(self) -> None:
        if self.waiting is not None:  # it never started: nothing to stop but the wait
            self.waiting = None
            self.host.answer_pane.show_cancelled()
            self._on_finished()
            self.answered.emit(None)
        elif self.job is not None:
            self.job.cancel()
            self.host.set_status("Cancelling …")
            self.host.answer_pane.show_cancelling()

    @Slot(object)
    def _on_answer(self, answer: Any) -> None:
        self.host.answer_history.add(self.host.store_path, answer)
        self._show(answer)
        self.host.set_status("")
        self.answered.emit(answer)

    @Slot(str)
    def _on_failed(self, text: str) -> None:
        if self.job is not None and self.job.cancelled:
            self.host.answer_pane.show_cancelled()  # the answerer stopped by raising: still a cancel, not a failure
        else:
            self.host.answer_pane.show_failure(text)
        self.host.set_status("")
        self.answered.emit(None)

    @Slot()
    def _on_finished(self) -> None:
        self.job = None
        self.host.question_pane.set_busy(False)
        self.host.set_working(False)
        self.editable_changed.emit()
        self.finished.emit()

    def _show(self, answer: Any, kept_from: str | None = None) -> None:
        """`answer` in the panes (its tree selects the root, which shows its events); None empties them."""
        self.last_answer = answer
        if answer is not None:
            self.host.answer_pane.show_answer(answer, kept_from=kept_from)
        self.host.tree_pane.show_tree(answer.tree if answer is not None else None)
        if answer is None or answer.tree is None:
            self.host.show_events(answer.evidence_ids if answer is not None else [])
        self.editable_changed.emit()

    def clear(self) -> None:
        """Another store: nothing of the last question stays (a waiting one waited for the old store's index)."""
        if self.waiting is not None:
            self.waiting = None
            self._on_finished()
        self._show(None)
        self.host.answer_pane.clear()

    # --- editing the tree, and the history ------------------------------------------------------------

    @property
    def editable(self) -> bool:
        """A step can be edited while an answer with a tree is shown, nothing runs, and the answerer runs trees."""
        return (self.last_answer is not None and self.last_answer.tree is not None and not self.busy
                and self.can_run_trees)

    @Slot(object)
    def edit_step(self, report: Any) -> StepDialog | None:
        """Edit `report`'s step of the shown answer's tree in a dialog; on Run again, run the edited tree."""
        answer = self.last_answer
        if answer is None or answer.tree is None or not self.can_run_trees:
            return None

        def check(question: str, step: str) -> list[str]:
            try:
                return tree_problems(edited_tree(answer.tree, report, question, step))
            except EditError as exc:
                return [str(exc)]

        dialog = StepDialog(report, check, self.host)
        self.step_dialog = self.host.open_dialog(
            dialog, lambda: self.run_tree(edited_tree(answer.tree, report, *dialog.edit())))
        return dialog

    @Slot(str)
    def open_from_history(self, question: str) -> bool:
        """A past question: its kept answer when this store has one (nothing is worked out again), else ask it.
        True when a kept answer was shown."""
        kept = self.host.answer_history.get(self.host.store_path, question)
        if kept is None or self.busy:
            self.host.question_pane.ask_text(question)
            return False
        self.host.question_pane.line.setText(question)
        self._show(kept.answer, kept_from=QLocale().toString(kept.asked_at, "d MMMM yyyy, HH:mm"))
        return True
