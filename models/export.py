"""Export a PyTorch network to ONNX and quantize it to int8 (training tools only: torch, transformers, onnx).

    python -m models.train splade --out models/artifacts/splade-tiny      # export only, no training

`export_artifact` writes an artifact folder the run-time wrappers read: `model.onnx` (int8, dynamic
quantization of the MatMul/Gemm/Gather weights), `tokenizer.json`, and `config.json` (what the wrapper needs to
know, plus the sha256 of model.onnx). The fp32 graph is written to a temporary folder and thrown away.

Why torch's exporter and onnxruntime's quantizer, not optimum's: every network here has a head of its own (the
cross-encoder's two heads on [CLS], the extractor's mode/tag/label heads, SPLADE's masked max over
log(1 + relu(MLM logits))), which optimum's exporter, made for the transformers task heads, does not cover; and
no optimum release with ONNX support installs beside transformers 5 (optimum-onnx 0.1.0 requires
transformers<4.58, optimum 1.x <4.54; checked 2026-11-26, huggingface/optimum-onnx#114). optimum's quantizer
would only wrap the same onnxruntime `quantize_dynamic` used here.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from models.runtime import sha256_file

OPSET = 17


def export_onnx(net: Any, path: Path, *, outputs: tuple[str, ...], token_outputs: tuple[str, ...] = ()) -> None:
    """Trace `net` with a dummy batch and write an fp32 ONNX graph with dynamic batch and sequence axes."""
    import torch

    net.eval()
    ids = torch.tensor([[101, 2023, 2003, 1037, 3231, 102], [101, 2178, 102, 0, 0, 0]], dtype=torch.long)
    mask = (ids != 0).long()
    types = torch.zeros_like(ids)
    axes = {name: {0: "batch", 1: "tokens"} for name in ("input_ids", "attention_mask", "token_type_ids")}
    for name in outputs:
        axes[name] = {0: "batch", 1: "tokens"} if name in token_outputs else {0: "batch"}
    with torch.no_grad():
        torch.onnx.export(
            net,
            (ids, mask, types),
            str(path),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=list(outputs),
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )


def quantize_int8(src: Path, dst: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        try:
            quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
        except Exception:  # pre-processing only helps; quantize the plain graph when it fails
            shutil.copy(src, prepared)
        quantize_dynamic(str(prepared), str(dst), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gemm", "Gather"])


def export_artifact(
    net: Any,
    out_dir: Path,
    *,
    tokenizer_json: Path,
    outputs: tuple[str, ...],
    token_outputs: tuple[str, ...] = (),
    config: dict[str, Any],
) -> Path:
    """fp32 export, int8 quantization, tokenizer and config into `out_dir`; returns the model path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "model.fp32.onnx"
        export_onnx(net, fp32, outputs=outputs, token_outputs=token_outputs)
        quantize_int8(fp32, out_dir / "model.onnx")
    shutil.copy(tokenizer_json, out_dir / "tokenizer.json")
    config = {**config, "outputs": list(outputs), "sha256": sha256_file(out_dir / "model.onnx")}
    (out_dir / "config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out_dir / "model.onnx"
