"""app/ask.py sits above the QUD and the engine: app.qud never imports it, and old imports still find ask()."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_qud_stage_does_not_import_the_orchestration():
    code = "import json, sys; import app.qud.pipeline, app.qud.decompose; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert "app.ask" not in loaded


def test_ask_imported_from_the_qud_pipeline_is_the_same_function():
    import app.ask
    from app.qud import pipeline
    from app.qud.pipeline import ask

    assert ask is app.ask.ask and pipeline.RERUNS == app.ask.RERUNS == 2
