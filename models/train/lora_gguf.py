"""Write a peft LoRA as a GGUF adapter that llama.cpp applies on top of the base GGUF.

llama.cpp's adapter format (what its convert_lora_to_gguf.py writes): general.type = "adapter",
adapter.type = "lora", adapter.lora.alpha, and per adapted weight two tensors named after the base GGUF's
tensor, `blk.N.attn_q.weight.lora_a` with peft's lora_A (rank x in) and `...lora_b` with lora_B (out x rank).
llama.cpp scales the product by alpha / rank.

    write_lora_gguf(peft_model, Path("adapter.gguf"), alpha=16.0, base=Path("gemma-3-270m-q4_k_m.gguf"))
"""

from __future__ import annotations

import re
from pathlib import Path

# Hugging Face module name -> GGUF tensor name (the same for the Llama, Gemma, Qwen and Mistral families)
GGUF_NAMES = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}
_PEFT_NAME = re.compile(r"layers\.(\d+)\.(self_attn\.\w+|mlp\.\w+)\.lora_([AB])\.[^.]+\.weight$")


# Architectures whose GGUF stores attn_q / attn_k rows permuted for llama.cpp's rotary embedding (its converter's
# `LlamaModel.permute`; transformers undoes it when it loads such a GGUF). An adapter's lora_b for those two
# weights must be permuted the same way, or llama.cpp applies the update to the wrong rows.
PERMUTED_QK = frozenset({"llama"})


def base_architecture(base: Path) -> str:
    from gguf import GGUFReader

    field = GGUFReader(str(base)).fields["general.architecture"]
    return bytes(field.parts[field.data[0]]).decode("utf-8")


def _head_counts(base: Path, architecture: str) -> tuple[int, int]:
    """(attention heads, key/value heads) of the base GGUF."""
    from gguf import GGUFReader

    fields = GGUFReader(str(base)).fields

    def value(key: str) -> int:
        field = fields[key]
        return int(field.parts[field.data[0]][0])

    heads = value(f"{architecture}.attention.head_count")
    kv_key = f"{architecture}.attention.head_count_kv"
    return heads, value(kv_key) if kv_key in fields else heads


def permute_rows(rows, n_head: int):
    """llama.cpp's q/k row order from the Hugging Face one (per head, the two rotary halves interleaved)."""
    return rows.reshape(n_head, 2, rows.shape[0] // n_head // 2, *rows.shape[1:]).swapaxes(1, 2).reshape(rows.shape)


def unpermute_rows(rows, n_head: int):
    """The Hugging Face q/k row order back from llama.cpp's (the inverse of permute_rows)."""
    return rows.reshape(n_head, rows.shape[0] // n_head // 2, 2, *rows.shape[1:]).swapaxes(1, 2).reshape(rows.shape)


def gguf_name(peft_name: str) -> str | None:
    """The adapter file's tensor name for a peft LoRA weight ('blk.3.attn_q.weight.lora_a'); None for others."""
    match = _PEFT_NAME.search(peft_name)
    if not match:
        return None
    layer, module, which = match.groups()
    if module not in GGUF_NAMES:
        raise ValueError(f"{peft_name}: no GGUF tensor name known for {module}")
    return f"blk.{layer}.{GGUF_NAMES[module]}.weight.{'lora_a' if which == 'A' else 'lora_b'}"


def lora_tensors(model) -> dict[str, "object"]:
    """GGUF tensor name -> float32 numpy array for every LoRA matrix of a peft model."""
    tensors = {}
    for name, param in model.named_parameters():
        key = gguf_name(name)
        if key is not None:
            tensors[key] = param.detach().float().cpu().numpy()
    if not tensors:
        raise ValueError("the model has no LoRA weights")
    return tensors


def write_lora_gguf(model, path: Path, alpha: float, base: Path, dtype: str = "f16") -> Path:
    """The adapter file (float16 by default: half the size, llama.cpp computes with it directly)."""
    import numpy as np
    from gguf import GGUFWriter

    architecture = base_architecture(base)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    writer = GGUFWriter(str(partial), architecture)
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", float(alpha))
    writer.add_string("general.name", f"lifelens qud lora on {base.name}")
    tensors = lora_tensors(model)
    for name, n_head in _permuted(tensors, base, architecture):
        tensors[name] = permute_rows(tensors[name], n_head)
    for name, array in sorted(tensors.items(), key=lambda kv: _order(kv[0])):
        writer.add_tensor(name, array.astype(np.float16 if dtype == "f16" else np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    partial.replace(path)
    return path


def load_lora_gguf(model, path: Path, base: Path) -> int:
    """Copy an adapter file's matrices into a peft model's LoRA weights (to go on training from it).

    The adapter must have the model's rank and target modules; returns how many matrices were copied.
    """
    import numpy as np
    import torch
    from gguf import GGUFReader

    reader = GGUFReader(str(path))
    if reader.fields.get("adapter.type") is None:
        raise ValueError(f"{path}: not a GGUF LoRA adapter (no adapter.type)")
    stored = {t.name: np.array(t.data, dtype=np.float32).reshape([int(d) for d in reversed(t.shape)])
              for t in reader.tensors}
    permuted = dict(_permuted(stored, base, base_architecture(base)))
    copied = 0
    for name, param in model.named_parameters():
        key = gguf_name(name)
        if key is None:
            continue
        if key not in stored:
            raise ValueError(f"{path}: no tensor {key} for {name}")
        array = unpermute_rows(stored[key], permuted[key]) if key in permuted else stored[key]
        if tuple(array.shape) != tuple(param.shape):
            raise ValueError(f"{path}: {key} has shape {array.shape}, the model wants {tuple(param.shape)}")
        with torch.no_grad():
            param.copy_(torch.from_numpy(np.ascontiguousarray(array)).to(param.dtype))
        copied += 1
    if copied != len(stored):
        raise ValueError(f"{path}: {len(stored)} tensors, {copied} matched the model's LoRA weights")
    return copied


def _permuted(names, base: Path, architecture: str) -> list[tuple[str, int]]:
    """The lora_b tensors among `names` whose rows are in rotary order in the file, with their head counts."""
    if architecture not in PERMUTED_QK:
        return []
    heads = dict(zip(("attn_q", "attn_k"), _head_counts(base, architecture)))
    return [(name, heads[name.split(".")[2]]) for name in names
            if name.split(".")[2] in heads and name.endswith(".lora_b")]


def _order(name: str) -> tuple[int, str]:
    return int(name.split(".")[1]), name
