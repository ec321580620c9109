"""Training and export recipes (need the `train` extra: torch, transformers, onnx). See `python -m models.train -h`.

Like the evaluation they share cases and scoring with (bench/extract_eval.py), they run from a checkout (the
wheel leaves both out); the checkout's root goes on sys.path, so that bench/ is found from any directory.
"""

import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
if (_CHECKOUT / "bench" / "__init__.py").is_file() and str(_CHECKOUT) not in sys.path:
    sys.path.append(str(_CHECKOUT))
