"""The main window: panes in remembered splitters, all wiring in `_connect_signals`, long work in jobs.

    window = MainWindow(settings, store_path, answerer_factory)
    window.show(); window.after_shown()     # loads models lazily, greets on first run

Layout: left, the Sources pane over the Import pane; right, the question box and the answer above the
operator tree and the evidence table. Files dropped anywhere on the window are imported.
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QLocale, QStringListModel, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QProgressBar, QSplitter, QVBoxLayout, QWidget

from app.importing import ImportSummary
from app.paths import data_dir, db_path
from app.store import EventStore, FileResult, StoreBug, StoreError

from . import dialogs
from .answer_pane import AnswerPane
from .answer_history import AnswerHistory
from .answer_flow import AnswerFlow
from .answering import REFERENCE_DATE_META, Answerer, reference_date_for
from .keeping import EVIDENCE_LIMIT, Keeping
from .data_removal import UnsafeDeletion, delete_user_data
from .event_dialog import EventDialog
from .event_model import EventTableModel
from .evidence_pane import EvidencePane
from .help_dialog import HelpDialog
from .examples import example_questions
from .import_model import ImportFilesModel
from .import_pane import ImportPane
from .index_keeper import IndexKeeper
from .indexing import Indexer
from .jobs import CallJob, ImportJob, Job, JobRunner
from .presenting import (
    NumberStyle, plural, reimport_paths, set_number_style, source_label, value_attribute,
)
from .question_pane import QuestionPane, SuggestionsPane
from .settings import AppSettings
from .people_dialog import PeopleDialog
from .settings_dialog import SettingsDialog, SettingsValues
from .sources_model import SourcesModel
from .sources_pane import SourcesPane
from .tree_model import OperatorTreeModel
from .tree_pane import TreePane
from .welcome_dialog import WelcomeDialog

log = logging.getLogger(__name__)

AnswererFactory = Callable[[Path, AppSettings], Answerer]
DemoBuilder = Callable[[Path, Callable[[str], None]], Any]  # (store path, say) -> anything


class MainWindow(QMainWindow):
    import_finished = Signal(object)  # ImportSummary, or None when the import failed
    answered = Signal(object)  # Answer, or None when answering failed
    store_changed = Signal()

    def __init__(self, settings: AppSettings, store_path: Path, answerer_factory: AnswererFactory, *,
                 demo_path: Path | None = None, demo_builder: DemoBuilder | None = None,
                 indexer: Indexer | None = None):
        super().__init__()
        locale = QLocale()  # numbers as the person's locale writes them, in every pane
        set_number_style(NumberStyle(group=locale.groupSeparator(), decimal=locale.decimalPoint()))
        self.settings = settings
        self.answerer_factory = answerer_factory
        self.indexer = indexer
        self.demo_path = demo_path
        self.demo_builder = demo_builder
        self.own_store_path = Path(store_path)
        self.store_path = Path(store_path)
        self.store: EventStore | None = None
        self.answerer: Answerer | None = None
        self.in_demo = False
        self.import_job: ImportJob | None = None
        self.queued_imports: list[list[Path]] = []
        self.last_summary: ImportSummary | None = None
        self.event_dialog: EventDialog | None = None
        self.evidence_ids: list[str] = []  # the events of the selected step, all of them
        self.answer_history = AnswerHistory(data_dir() / "answers")

        self.sources_model = SourcesModel(self)
        self.import_model = ImportFilesModel(self)
        self.history_model = QStringListModel(settings.history, self)
        self.examples_model = QStringListModel(self)
        self.tree_model = OperatorTreeModel(self)
        self.event_model = EventTableModel(self)
        self.runner = JobRunner(self)

        self.sources_pane = SourcesPane(self.sources_model)
        self.import_pane = ImportPane(self.import_model)
        self.question_pane = QuestionPane(self.history_model)
        self.suggestions_pane = SuggestionsPane(self.examples_model, self.history_model)
        self.answer_pane = AnswerPane()
        self.tree_pane = TreePane(self.tree_model)
        self.evidence_pane = EvidencePane(self.event_model)
        self.answering = AnswerFlow(self)  # a question from asked to shown: the one code that starts AnswerJobs
        self.keeping = Keeping(self, self)  # copy and save the answer shown
        self._build_layout()
        self._build_menus()
        self._build_status_bar()
        self._connect_signals()
        self._restore_layout()
        self.setAcceptDrops(True)
        self._set_tab_order()
        self.open_store(self.store_path)
        self.question_pane.line.setFocus()  # a person comes to ask: the cursor waits in the question box

    # --- building ---------------------------------------------------------------------------

    def _splitter(self, name: str, orientation: Qt.Orientation, *widgets: QWidget, sizes: list[int]) -> QSplitter:
        splitter = QSplitter(orientation)
        splitter.setObjectName(name)
        splitter.setChildrenCollapsible(False)
        for widget in widgets:
            splitter.addWidget(widget)
        splitter.setSizes(sizes)
        return splitter

    def _build_layout(self) -> None:
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        ask_split = self._splitter("ask", Qt.Orientation.Horizontal, self.answer_pane, self.suggestions_pane,
                                   sizes=[600, 300])
        top_layout.addWidget(self.question_pane)
        top_layout.addWidget(ask_split, 1)
        # The evidence's titles and details need the room more than the tree's few short rows.
        self.lower_split = self._splitter("lower", Qt.Orientation.Horizontal, self.tree_pane, self.evidence_pane,
                                          sizes=[440, 560])
        self.right_split = self._splitter("right", Qt.Orientation.Vertical, top, self.lower_split, sizes=[260, 440])
        self.left_split = self._splitter("left", Qt.Orientation.Vertical, self.sources_pane, self.import_pane,
                                         sizes=[380, 320])
        self.main_split = self._splitter("main", Qt.Orientation.Horizontal, self.left_split, self.right_split,
                                         sizes=[440, 840])
        self.splitters = [self.main_split, self.left_split, self.right_split, ask_split, self.lower_split,
                          self.tree_pane.splitter]
        self.setCentralWidget(self.main_split)
        screen = self.screen().availableGeometry()
        self.resize(min(1280, int(screen.width() * 0.9)), min(800, int(screen.height() * 0.9)))

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.import_files_action = QAction("&Import files…", self, shortcut=QKeySequence.StandardKey.Open)
        self.import_folder_action = QAction("Import a &folder…", self)
        self.demo_action = QAction("Try the &demo persona", self)
        self.own_data_action = QAction("Back to &my data", self)
        self.people_action = QAction("&People…", self)
        self.settings_action = QAction("&Settings…", self)
        # The platform's own key where it has one (macOS: Cmd+,); Linux and Windows have none, so Ctrl+, there.
        self.settings_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences)
                                          or [QKeySequence("Ctrl+,")])
        self.quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        for action in (self.import_files_action, self.import_folder_action, None, self.demo_action,
                       self.own_data_action, None, self.people_action, self.settings_action, None, self.quit_action):
            file_menu.addSeparator() if action is None else file_menu.addAction(action)
        answer_menu = self.menuBar().addMenu("&Answer")
        self.copy_answer_action = QAction("&Copy answer", self, shortcut=QKeySequence("Ctrl+Shift+C"))
        self.export_markdown_action = QAction("&Save answer as Markdown…", self, shortcut=QKeySequence.StandardKey.Save)
        self.export_csv_action = QAction("Export the step's &events as CSV…", self)
        for action in (self.copy_answer_action, self.export_markdown_action, self.export_csv_action):
            action.setEnabled(False)  # until there is an answer
            answer_menu.addAction(action)
        help_menu = self.menuBar().addMenu("&Help")
        self.help_action = QAction("Lifelens &Help", self, shortcut=QKeySequence.StandardKey.HelpContents)
        help_menu.addAction(self.help_action)
        self.welcome_action = QAction("&Welcome…", self)
        help_menu.addAction(self.welcome_action)
        self.about_action = QAction("&About Lifelens…", self)
        help_menu.addAction(self.about_action)
        # Esc stops the running question (else the running import): no hunting for the Cancel button.
        self.cancel_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self.cancel_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)

    def _build_status_bar(self) -> None:
        self.status_label = QLabel("")
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(160)
        self.busy_bar.setVisible(False)
        self.index_label = QLabel("")
        self.index_label.setVisible(False)
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.index_label)
        self.indexing = IndexKeeper(self, self.indexer, self.runner, self.index_label)
        self.statusBar().addPermanentWidget(self.busy_bar)

    def _set_tab_order(self) -> None:
        """Tab goes pane by pane, in reading order: question, answer, examples, tree, evidence, sources, import.
        (The tables give Tab back instead of moving cell by cell: tables.make_compact.)"""
        chain = [self.question_pane.line, self.question_pane.ask_button, self.question_pane.cancel_button,
                 self.answer_pane.retry_button, self.suggestions_pane.examples_view,
                 self.suggestions_pane.history_view, self.tree_pane.view, self.tree_pane.detail,
                 self.evidence_pane.filter, self.evidence_pane.table, self.sources_pane.table,
                 self.sources_pane.reimport_button, self.sources_pane.remove_button, self.import_pane.table,
                 self.import_pane.import_button, self.import_pane.details_button, self.import_pane.cancel_button]
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)

    def _connect_signals(self) -> None:
        """Every connection between the panes, the models and the jobs' owner is made here."""
        self.sources_pane.remove_requested.connect(self.remove_source)
        self.sources_pane.reimport_requested.connect(self.reimport_source)
        self.import_pane.cancel_requested.connect(self.cancel_import)
        self.import_pane.import_files_requested.connect(self.choose_files)
        self.import_pane.unfolded.connect(self._make_room_for_imports)
        self.question_pane.ask_requested.connect(self.answering.ask)
        self.question_pane.cancel_requested.connect(self.answering.cancel)
        self.answer_pane.retry_requested.connect(self.answering.ask)
        self.cancel_shortcut.activated.connect(self.cancel_running)
        self.suggestions_pane.chosen.connect(self.question_pane.ask_text)
        self.suggestions_pane.history_chosen.connect(self.answering.open_from_history)
        self.tree_pane.node_selected.connect(self.show_node_events)
        self.tree_pane.edit_requested.connect(self.answering.edit_step)
        self.evidence_pane.event_opened.connect(self.open_event)
        self.evidence_pane.show_all_requested.connect(self.show_all_events)
        self.import_files_action.triggered.connect(self.choose_files)
        self.import_folder_action.triggered.connect(self.choose_folder)
        self.demo_action.triggered.connect(self.start_demo)
        self.own_data_action.triggered.connect(self.leave_demo)
        self.settings_action.triggered.connect(self.open_settings)
        self.people_action.triggered.connect(self.open_people)
        self.quit_action.triggered.connect(self.close)
        self.welcome_action.triggered.connect(self.show_welcome)
        self.help_action.triggered.connect(self.show_help)
        self.copy_answer_action.triggered.connect(self.keeping.copy_answer)
        self.export_markdown_action.triggered.connect(self.keeping.export_markdown)
        self.export_csv_action.triggered.connect(self.keeping.export_csv)
        self.answering.answered.connect(self.answered)
        self.answering.editable_changed.connect(self._update_answer_actions)
        self.answering.finished.connect(self.indexing.after_question)
        self.indexing.progressed.connect(self.answering.index_progress)
        self.indexing.finished.connect(self.answering.index_finished)
        self.answered.connect(self._update_answer_actions)
        self.about_action.triggered.connect(self.show_about)

    # --- layout memory ------------------------------------------------------------------------

    def _restore_layout(self) -> None:
        geometry = self.settings.layout("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.settings.layout("state")
        if state is not None:
            self.restoreState(state)
        for splitter in self.splitters:
            saved = self.settings.layout(f"splitter_{splitter.objectName()}")
            if saved is not None:
                splitter.restoreState(saved)

    def save_layout(self) -> None:
        self.settings.set_layout("geometry", self.saveGeometry())
        self.settings.set_layout("state", self.saveState())
        for splitter in self.splitters:
            self.settings.set_layout(f"splitter_{splitter.objectName()}", splitter.saveState())
        self.settings.history = self.history_model.stringList()
        self.settings.sync()

    # --- the store ----------------------------------------------------------------------------

    def open_store(self, path: Path, *, demo: bool = False) -> bool:
        """Switch to the event store at `path` (created when missing); False (and a message) when it cannot."""
        self.close_store()
        try:
            self.store = EventStore.open(path)
        except (StoreError, StoreBug) as exc:
            dialogs.show_error(self, "Cannot open the event store", str(exc))
            self.store = None
            return False
        self.store_path = Path(path)
        self.in_demo = demo
        self.answerer = self.answerer_factory(self.store_path, self.settings)
        self.refresh_sources()
        self._clear_answer()
        self._update_title()
        self.store_changed.emit()
        return True

    def close_store(self) -> None:
        if self.answerer is not None and hasattr(self.answerer, "close"):
            self.answerer.close()
        self.answerer = None
        if self.store is not None:
            self.store.close()
            self.store = None

    def ensure_store(self) -> bool:
        return self.store is not None or self.open_store(self.store_path, demo=self.in_demo)

    def _update_title(self) -> None:
        """'Lifelens — Demo persona (its today: 6 April 2024)' or 'Lifelens — My data'; the path is in Settings."""
        if self.in_demo:
            where = "Demo persona"
        elif self.store_path == db_path():
            where = "My data"
        else:
            where = f"My data ({self.store_path.name})"
        pinned = self.pinned_today()
        if pinned is not None:  # "last year" in a question counts from this day, not from the real today
            where += f" (its today: {QLocale().toString(pinned, 'd MMMM yyyy')})"
        self.setWindowTitle(f"Lifelens — {where}")
        self.demo_action.setVisible(self.demo_builder is not None and not self.in_demo)
        self.own_data_action.setVisible(self.in_demo)

    def pinned_today(self) -> date | None:
        """The open store's pinned "today" (the demo persona's), or None when questions count from today."""
        if self.store is None or self.store.meta(REFERENCE_DATE_META) is None:
            return None
        return reference_date_for(self.store)

    @Slot()
    def refresh_sources(self) -> None:
        rows = self.store.sources() if self.store is not None else []
        self.sources_model.set_sources(rows)
        self.examples_model.setStringList(example_questions(r.source for r in rows))
        whose = "Demo persona" if self.in_demo else "Your data"
        self.sources_pane.heading.setText(
            f"<b>{whose}</b> — {plural(sum(r.count for r in rows), 'event')}" if rows else f"<b>{whose}</b>")

    # --- importing ------------------------------------------------------------------------------

    @Slot(list)
    def start_import(self, paths: list[Path]) -> ImportJob | None:
        """Import files, folders or zips on a worker thread; while one import runs, the next waits its turn."""
        paths = [Path(p) for p in paths]
        if not paths:
            return None
        if self.import_job is not None:
            self.queued_imports.append(paths)
            self.status_label.setText(f"{plural(len(paths), 'path')} will be imported after the current import.")
            return None
        if self.in_demo:
            # A person's own exports never go into the demo persona's store: ask, then say where the window went.
            if not dialogs.confirm(self, "Import into your own data?",
                                   "The window shows the demo persona, a made-up person. Your files go into your "
                                   "own data, so the window will switch to it.\n"
                                   "The demo stays one click away: File > Try the demo persona.", "Import into my data"):
                return None
            self.leave_demo()
            self.status_label.setText("Left the demo persona: this is your own data.")
        if not self.ensure_store():
            return None
        job = ImportJob(self.store_path, paths)
        job.file_progress.connect(self.import_model.update_progress)
        job.file_done.connect(self._on_file_imported)
        job.succeeded.connect(self._on_import_succeeded)
        job.failed.connect(self._on_import_failed)
        job.finished.connect(self._on_import_finished)
        self.import_job = job
        names = ", ".join(p.name for p in paths[:3]) + (" …" if len(paths) > 3 else "")
        self.import_pane.started(names)
        self.sources_pane.set_busy(True)
        self.runner.start(job)
        return job

    @Slot()
    def _make_room_for_imports(self) -> None:
        """The import pane opened from its folded line: give it 40 % of the left column, as it first had."""
        sources, imports = self.left_split.sizes()
        total = sources + imports
        if imports < 0.4 * total:
            self.left_split.setSizes([int(total * 0.6), total - int(total * 0.6)])

    @Slot()
    def cancel_import(self) -> None:
        if self.import_job is not None:
            self.import_job.cancel()
            self.import_pane.cancelling()
        self.queued_imports.clear()

    @Slot(object)
    def _on_file_imported(self, result: FileResult) -> None:
        self.import_model.finish_file(result)
        if result.added:
            self.refresh_sources()

    @Slot(object)
    def _on_import_succeeded(self, summary: ImportSummary) -> None:
        self.last_summary = summary
        self.import_pane.finished(summary)
        self.refresh_sources()
        if summary.added:
            self.indexing.update()
        self.import_finished.emit(summary)

    @Slot(str)
    def _on_import_failed(self, text: str) -> None:
        self.last_summary = None
        self.import_pane.finished(None, text)
        self.refresh_sources()
        self.import_finished.emit(None)

    @Slot()
    def _on_import_finished(self) -> None:
        self.import_job = None
        self.sources_pane.set_busy(False)
        if self.queued_imports:
            self.start_import(self.queued_imports.pop(0))

    @Slot()
    def choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Import exports", str(Path.home()),
                                                "Exports (*.zip *.json *.csv *.ics *.mbox *.xml);;All files (*)")
        self.start_import([Path(f) for f in files])

    @Slot()
    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Import a folder of exports", str(Path.home()))
        if folder:
            self.start_import([Path(folder)])

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(url.toLocalFile()) for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        # Leave the drop handler first: the source application waits until it returns.
        QTimer.singleShot(0, lambda: self.start_import(paths))

    @Slot(str)
    def remove_source(self, source: str) -> None:
        if self.store is None or self.import_job is not None:
            return
        count = self.store.count(source)
        if not dialogs.confirm(self, "Remove a source",
                               f"Delete all {plural(count, 'event')} of {source_label(source)} from Lifelens?\n"
                               "Your export files are not touched; you can import them again.", "Remove"):
            return
        removed = self.store.remove_source(source)
        self.status_label.setText(f"Removed {plural(removed, 'event')} of {source_label(source)}.")
        self.refresh_sources()
        self.indexing.update()

    @Slot(str)
    def reimport_source(self, source: str) -> None:
        if self.store is None:
            return
        paths = reimport_paths(self.store.imported_files(source))
        missing = [p for p in paths if not p.exists()]
        if missing:
            dialogs.show_error(self, "Some files are gone",
                               "These files were moved or deleted since they were imported:\n"
                               + "\n".join(str(p) for p in missing))
        self.start_import([p for p in paths if p.exists()])

    # --- answering: app.ui.answer_flow runs the questions; the window lends it its panes ------------------

    @property
    def last_answer(self) -> Any:
        """The answer the panes show (None while a question is worked out or none was asked)."""
        return self.answering.last_answer

    @Slot()
    def cancel_running(self) -> None:
        """Esc: the running (or waiting) question, else the running import."""
        if self.answering.busy:
            self.answering.cancel()
        elif self.import_job is not None:
            self.cancel_import()

    def question_running(self) -> bool:
        return self.answering.job is not None

    def indexing_words(self) -> str | None:
        return self.indexing.words()

    def set_working(self, working: bool) -> None:
        self.busy_bar.setVisible(working)

    def set_status(self, text: str) -> None:
        self.status_label.setText(text)

    @Slot(object)
    def show_node_events(self, report: Any | None) -> None:
        if report is None:
            self.evidence_pane.show_events([])
            return
        self.show_events(report.event_ids)

    def show_events(self, ids: Any, limit: int | None = None) -> None:
        """The events `ids` in the evidence table: the first EVIDENCE_LIMIT of them unless a `limit` is given."""
        ids = list(ids)
        self.evidence_ids = ids
        if self.store is None or not ids:
            self.evidence_pane.show_events([])
            return
        events = self.store.get(ids[:limit or EVIDENCE_LIMIT])
        self.evidence_pane.show_events(events, len(ids), value_attribute(self.last_answer))

    @Slot()
    def show_all_events(self) -> None:
        self.show_events(self.evidence_ids, limit=len(self.evidence_ids))

    @Slot(object)
    def open_event(self, event: Any) -> EventDialog:
        dialog = EventDialog(event, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.event_dialog = dialog
        return dialog

    def _clear_answer(self) -> None:
        self.answering.clear()
        self._update_answer_actions()

    # --- models, demo, first run --------------------------------------------------------------

    @Slot()
    def after_shown(self) -> None:
        """Runs once the window is up: load the models and catch up the search index in the background,
        and greet on first run."""
        if self.load_models() is None:  # else the index catches up once the models are in
            self.indexing.update()
        if not self.settings.welcomed and self.store is not None and self.store.count() == 0:
            self.settings.welcomed = True
            self.show_welcome()

    def load_models(self) -> Job | None:
        load = getattr(self.answerer, "load", None)
        if load is None or getattr(self.answerer, "loaded", False):
            return None
        job = CallJob("Loading models", load)
        job.message.connect(self.status_label.setText)
        job.failed.connect(self.status_label.setText)
        job.finished.connect(self._on_models_finished)
        self.busy_bar.setVisible(True)
        return self.runner.start(job)

    @Slot()
    def _on_models_finished(self) -> None:
        self.busy_bar.setVisible(self.answering.busy)
        self.indexing.update()

    @Slot()
    def show_about(self) -> None:
        from app.versions import version_text

        dialogs.about_box(self, version_text()).exec()

    # --- keeping and sharing -----------------------------------------------------------------------

    @Slot()
    def _update_answer_actions(self) -> None:
        for action in (self.copy_answer_action, self.export_markdown_action, self.export_csv_action):
            action.setEnabled(self.last_answer is not None)
        self.tree_pane.set_editable(self.answering.editable)

    @Slot()
    def show_help(self) -> HelpDialog:
        dialog = HelpDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.help_dialog = dialog
        return dialog

    def show_welcome(self) -> None:
        dialog = WelcomeDialog(self)
        dialog.demo_button.setEnabled(self.demo_builder is not None)
        if dialog.exec() == WelcomeDialog.DEMO:
            self.start_demo()

    @Slot()
    def start_demo(self) -> Job | None:
        """Build the demo persona's store (once; on a worker thread) and switch to it."""
        if self.demo_builder is None or self.demo_path is None:
            self.status_label.setText("The demo persona is not part of this build.")
            return None
        builder, path = self.demo_builder, self.demo_path
        job = CallJob("Preparing the demo persona", lambda say, cancel: builder(path, say))
        job.message.connect(self.status_label.setText)
        job.succeeded.connect(self._on_demo_ready)
        job.failed.connect(self._on_demo_failed)
        job.finished.connect(self._on_demo_finished)
        self.status_label.setText("Preparing the demo persona …")
        self.busy_bar.setVisible(True)
        return self.runner.start(job)

    @Slot()
    def _on_demo_finished(self) -> None:
        self.busy_bar.setVisible(self.answering.job is not None or self.runner.busy())

    @Slot(object)
    def _on_demo_ready(self, result: Any) -> None:
        assert self.demo_path is not None
        if self.open_store(self.demo_path, demo=True):
            self.status_label.setText("Demo persona ready: pick an example question.")
            if self.load_models() is None:
                self.indexing.update()

    @Slot(str)
    def _on_demo_failed(self, text: str) -> None:
        self.status_label.setText("")
        dialogs.show_error(self, "Demo persona", text)

    @Slot()
    def leave_demo(self) -> None:
        if self.in_demo:
            self.open_store(self.own_store_path)

    # --- people, settings and deleting ------------------------------------------------------------

    @Slot()
    def open_people(self) -> PeopleDialog | None:
        """The people book of the open store (the demo persona's too): who is who to the owner."""
        from app.people import owner_and_people, people_book

        if not self.ensure_store():
            return None
        owner, people = owner_and_people(self.store)
        book = people_book(self.store)
        self.people_dialog = self.open_dialog(PeopleDialog(owner, people, book, self), self._people_accepted)
        return self.people_dialog

    @Slot()
    def _people_accepted(self) -> None:
        from app.people import set_people_book

        try:
            set_people_book(self.store, self.people_dialog.book())
        except (ValueError, StoreError) as exc:
            dialogs.show_error(self, "People", f"The people book was not saved: {exc}")
            return
        self.status_label.setText("People saved; the next question reads them.")

    def open_dialog(self, dialog, on_accepted):
        """Show a window-modal dialog that deletes itself when closed; `on_accepted` runs on OK."""
        dialog.accepted.connect(on_accepted)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    @Slot()
    def open_settings(self) -> SettingsDialog:
        values = SettingsValues(self.settings.store_path, self.settings.qud_model, self.settings.operator_size)
        dialog = SettingsDialog(values, db_path(), self)
        dialog.delete_all_requested.connect(self.delete_all_data)
        self.settings_dialog = self.open_dialog(dialog, self._settings_accepted)
        return dialog

    @Slot()
    def _settings_accepted(self) -> None:
        self.apply_settings(self.settings_dialog.values())

    def apply_settings(self, values: SettingsValues) -> None:
        models_changed = (values.qud_model, values.operator_size) != (self.settings.qud_model, self.settings.operator_size)
        self.settings.store_path = values.store_path
        self.settings.qud_model = values.qud_model
        self.settings.operator_size = values.operator_size
        self.settings.sync()
        new_store = values.store_path or db_path()
        if new_store != self.own_store_path or models_changed:
            self.own_store_path = new_store
            self.open_store(new_store if not self.in_demo else self.store_path, demo=self.in_demo)
            if self.load_models() is None:  # else the index follows the models (_on_models_finished)
                self.indexing.update()

    @Slot()
    def delete_all_data(self) -> list[Path] | None:
        """Close and delete the event store and the data folder's caches, after a confirmation."""
        if not dialogs.confirm(self, "Delete all my data",
                               f"Delete the event store ({self.own_store_path}) and everything Lifelens keeps in "
                               f"{data_dir()} (model caches, the demo persona)?\nYour export files are not touched. "
                               "This cannot be undone.", "Delete everything"):
            return None
        self.runner.shutdown()
        self.close_store()
        try:
            removed = delete_user_data(self.own_store_path, data_dir())
        except (UnsafeDeletion, OSError) as exc:
            dialogs.show_error(self, "Delete all my data", str(exc))
            return None
        self.settings.forget_personal()
        self.answer_history.clear()
        self.history_model.setStringList([])
        self.import_model.clear()
        self.store_path = self.own_store_path = db_path()
        self.in_demo = False
        self.refresh_sources()
        self._clear_answer()
        self._update_title()
        self.status_label.setText(f"Deleted {plural(len(removed), 'file or folder', 'files and folders')}.")
        return removed

    # --- closing ----------------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        if not self.runner.shutdown(timeout_ms=5000):
            # A job that cannot be cancelled half-way (loading the models) ends on its own; Qt aborts the process
            # when a thread object is destroyed while its thread still runs, so closing waits for it.
            log.warning("a background job did not stop within 5 s; waiting up to 60 s for it to end")
            if not self.runner.shutdown(timeout_ms=60_000):
                log.error("a background job did not stop within 65 s")
        self.close_store()
        super().closeEvent(event)
