from pathlib import Path

from PySide6.QtCore import Qt

from app.ui import dialogs
from app.ui.settings_dialog import SettingsDialog, SettingsValues, check_gguf


def test_check_gguf(tmp_path):
    good = tmp_path / "m.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    bad = tmp_path / "m.bin"
    bad.write_bytes(b"PK\x03\x04")
    assert check_gguf(good) is None
    assert check_gguf(bad) == f"{bad} is not a GGUF model file (it does not start with 'GGUF')."
    assert check_gguf(tmp_path / "none.gguf") == f"{tmp_path / 'none.gguf'}: No such file or directory"


def test_dialog_shows_and_returns_values(qtbot, tmp_path):
    dialog = SettingsDialog(SettingsValues(None, "default", "small"), tmp_path / "default.sqlite")
    qtbot.addWidget(dialog)
    assert dialog.qud_default.isChecked() and dialog.operator_combo.currentData() == "small"
    assert [dialog.operator_combo.itemData(i) for i in range(dialog.operator_combo.count())] == ["lexical", "small", "default"]
    assert dialog.store_edit.placeholderText() == f"{tmp_path / 'default.sqlite'} (default)"
    assert dialog.values() == SettingsValues(None, "default", "small")
    dialog.store_edit.setText(str(tmp_path))
    dialog.accept()
    assert dialog.problem.text() == f"{tmp_path} is a folder; choose a file name for the event store."
    assert dialog.result() == 0


def test_settings_change_the_store_and_the_model(qtbot, window_factory, tmp_path, settings):
    window = window_factory()
    model = tmp_path / "bigger.gguf"
    model.write_bytes(b"GGUF....")
    dialog = window.open_settings()
    dialog.qud_file.setChecked(True)
    dialog.qud_edit.setText(str(tmp_path / "missing.gguf"))
    dialog.accept()
    assert dialog.isVisible() and "missing.gguf" in dialog.problem.text()
    dialog.qud_edit.setText(str(model))
    dialog.operator_combo.setCurrentIndex(dialog.operator_combo.findData("small"))
    dialog.store_edit.setText(str(tmp_path / "other" / "mine.sqlite"))
    dialog.accept()
    assert (settings.qud_model, settings.operator_size, settings.store_path) == \
        (str(model), "small", tmp_path / "other" / "mine.sqlite")
    assert window.store_path == tmp_path / "other" / "mine.sqlite" and (tmp_path / "other" / "mine.sqlite").exists()


def test_delete_button_asks_the_window_to_delete(qtbot, window_factory, monkeypatch):
    window = window_factory()
    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda parent, title, text, action="OK": asked.append(title) or False)
    dialog = window.open_settings()
    qtbot.mouseClick(dialog.delete_button, Qt.MouseButton.LeftButton)
    assert asked == ["Delete all my data"]
    assert window.store is not None and window.store_path.exists()  # said no: nothing deleted
