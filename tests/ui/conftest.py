"""Fixtures for the window tests: a private data dir and config, small real export files, a fake Answerer."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fakes import TreeAnswerer


@pytest.fixture
def private_dirs(tmp_path, monkeypatch):
    """Data and config dirs under tmp_path, so no test touches the person's real ones."""
    data = tmp_path / "data"
    config = tmp_path / "config"
    monkeypatch.setenv("LIFELENS_DATA_DIR", str(data))
    monkeypatch.setenv("LIFELENS_CONFIG_DIR", str(config))
    monkeypatch.delenv("LIFELENS_DB", raising=False)
    return data, config


@pytest.fixture
def settings(private_dirs):
    from app.ui.settings import AppSettings

    s = AppSettings()
    s.welcomed = True
    return s


@pytest.fixture
def window_factory(qtbot, settings, private_dirs):
    """Build a MainWindow over a store in the private data dir, with the fake answerer bound."""
    from app.ui.main_window import MainWindow

    made = []

    def make(store_path: Path | None = None, **kwargs):
        path = store_path or private_dirs[0] / "events.sqlite"
        window = MainWindow(settings, path, lambda p, s: TreeAnswerer(p), **kwargs)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        made.append(window)
        return window

    yield make
    for window in made:
        window.close()
