"""Settings: where the event store lives, which models answer, and "delete all my data"."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QGroupBox, QHBoxLayout, QLabel,
    QLineEdit, QPushButton, QRadioButton, QVBoxLayout, QWidget,
)

from .colours import error_colour
from .settings import DEFAULT_QUD_MODEL, OPERATOR_SIZES

OPERATOR_LABELS = {
    "lexical": "Keyword search and key look-up (fastest; no search index)",
    "small": "Small models (SPLADE-tiny cross-encoder; best answers so far)",
    "default": "Larger models (MiniLM; slow on long histories)",
}

GGUF_MAGIC = b"GGUF"


@dataclass(frozen=True)
class SettingsValues:
    store_path: Path | None  # None: the default location
    qud_model: str  # "default" or a GGUF path
    operator_size: str  # "small" | "default"


def check_gguf(path: Path) -> str | None:
    """None when `path` is a readable GGUF file, else why not."""
    try:
        with open(path, "rb") as f:
            if f.read(4) != GGUF_MAGIC:
                return f"{path} is not a GGUF model file (it does not start with 'GGUF')."
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None


class SettingsDialog(QDialog):
    delete_all_requested = Signal()

    def __init__(self, values: SettingsValues, default_store: Path, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Lifelens settings")
        self._default_store = default_store

        form = QFormLayout()
        form.addRow("Data location:", self._store_row(values, default_store))
        form.addRow("Question model:", self._qud_rows(values))
        self.operator_combo = QComboBox()
        for size in OPERATOR_SIZES:
            self.operator_combo.addItem(OPERATOR_LABELS[size], size)
        self.operator_combo.setCurrentIndex(OPERATOR_SIZES.index(values.operator_size))
        form.addRow("Operator models:", self.operator_combo)
        danger = self._data_box()

        self.problem = QLabel("")
        self.problem.setStyleSheet(f"color: {error_colour(self.palette()).name()}")
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(danger)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.resize(640, 300)

    def _store_row(self, values: SettingsValues, default_store: Path) -> QHBoxLayout:
        self.store_edit = QLineEdit(str(values.store_path) if values.store_path else "")
        self.store_edit.setPlaceholderText(f"{default_store} (default)")
        store_choose = QPushButton("Choose…")
        store_choose.clicked.connect(self._choose_store)
        row = QHBoxLayout()
        row.addWidget(self.store_edit, 1)
        row.addWidget(store_choose)
        return row

    def _qud_rows(self, values: SettingsValues) -> QVBoxLayout:
        """The built-in question model, or a GGUF file of the person's."""
        self.qud_default = QRadioButton("Built-in model (Gemma 3 270M)")
        self.qud_file = QRadioButton("A GGUF file:")
        group = QButtonGroup(self)
        group.addButton(self.qud_default)
        group.addButton(self.qud_file)
        custom = values.qud_model != DEFAULT_QUD_MODEL
        self.qud_edit = QLineEdit(values.qud_model if custom else "")
        self.qud_edit.setPlaceholderText("path/to/model.gguf")
        (self.qud_file if custom else self.qud_default).setChecked(True)
        qud_choose = QPushButton("Choose…")
        qud_choose.clicked.connect(self._choose_gguf)
        file_row = QHBoxLayout()
        file_row.addWidget(self.qud_file)
        file_row.addWidget(self.qud_edit, 1)
        file_row.addWidget(qud_choose)
        rows = QVBoxLayout()
        rows.addWidget(self.qud_default)
        rows.addLayout(file_row)
        return rows

    def _data_box(self) -> QGroupBox:
        box = QGroupBox("Your data")
        self.delete_button = QPushButton("Delete all my data…")
        self.delete_button.setToolTip("Delete the event store and the model caches in the data folder")
        self.delete_button.clicked.connect(self._delete_all)
        layout = QHBoxLayout(box)
        layout.addWidget(QLabel("Imported events and model caches; your export files stay where they are."), 1)
        layout.addWidget(self.delete_button)
        return box

    def values(self) -> SettingsValues:
        store = self.store_edit.text().strip()
        qud = self.qud_edit.text().strip() if self.qud_file.isChecked() else DEFAULT_QUD_MODEL
        return SettingsValues(
            store_path=Path(store).expanduser() if store else None,
            qud_model=qud or DEFAULT_QUD_MODEL,
            operator_size=self.operator_combo.currentData(),
        )

    def problems(self) -> str | None:
        values = self.values()
        if values.qud_model != DEFAULT_QUD_MODEL:
            problem = check_gguf(Path(values.qud_model))
            if problem:
                return problem
        if values.store_path is not None and values.store_path.is_dir():
            return f"{values.store_path} is a folder; choose a file name for the event store."
        return None

    def accept(self) -> None:
        problem = self.problems()
        if problem:
            self.problem.setText(problem)
            return
        super().accept()

    @Slot()
    def _choose_store(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Event store file", str(self.values().store_path or self._default_store),
            "Lifelens event store (*.sqlite)", options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.store_edit.setText(path)

    @Slot()
    def _choose_gguf(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Question model", "", "GGUF models (*.gguf)")
        if path:
            self.qud_edit.setText(path)
            self.qud_file.setChecked(True)

    @Slot()
    def _delete_all(self) -> None:
        self.reject()
        self.delete_all_requested.emit()
