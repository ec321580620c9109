from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray

from app.ui.settings import AppSettings, config_dir


def test_settings_live_in_the_config_dir_and_survive_a_restart(private_dirs):
    _, config = private_dirs
    assert config_dir() == config
    s = AppSettings()
    assert s.path == config / "lifelens.ini"
    assert (s.store_path, s.qud_model, s.operator_size, s.welcomed, s.history) == (None, "default", "small", False, [])
    s.store_path = Path("/data/mine.sqlite")
    s.qud_model = "/models/llama-3b.gguf"
    s.operator_size = "small"
    s.welcomed = True
    s.history = ["one question"]  # a one-item list: INI would give back a plain string without JSON
    s.set_layout("splitter_main", QByteArray(b"\x00\x01state"))
    s.sync()
    again = AppSettings()
    assert (again.store_path, again.qud_model, again.operator_size, again.welcomed, again.history) == \
        (Path("/data/mine.sqlite"), "/models/llama-3b.gguf", "small", True, ["one question"])
    assert bytes(again.layout("splitter_main")) == b"\x00\x01state"
    assert again.layout("nothing") is None


def test_bad_values_fall_back_and_forget_personal(private_dirs):
    s = AppSettings()
    with pytest.raises(ValueError):
        s.operator_size = "huge"
    s._qs.setValue("models/operator_size", "huge")
    s._qs.setValue("questions/history", "{not json")
    assert s.operator_size == "small" and s.history == []
    s.history = [f"q{i}" for i in range(300)]
    assert len(s.history) == 200 and s.history[-1] == "q299"
    s.store_path = Path("/x.sqlite")
    s.set_layout("geometry", QByteArray(b"g"))
    s.forget_personal()
    assert (s.history, s.store_path, s.welcomed) == ([], None, False)
    assert bytes(s.layout("geometry")) == b"g"
