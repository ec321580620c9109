"""The real default QUD model for tests: assembled once into pytest's cache folder, loaded once per session.

Both tests/models and tests/qud import `default_llm`; `models.llm.shared_model` makes it one instance.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def default_gguf(request) -> Path:
    from models.default_qud import ensure_default_model

    return ensure_default_model(directory=Path(request.config.cache.mkdir("lifelens-models")))


@pytest.fixture(scope="session")
def default_llm(default_gguf):
    from models.llm import shared_model

    model = shared_model(default_gguf)
    model.load()
    yield model
    model.close()
