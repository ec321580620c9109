"""A tiny random Llama-architecture GGUF (2 layers, 64 wide, a byte-fallback SentencePiece vocabulary): a stand-in
for the 1B Llama a person brings, small enough to fine-tune in seconds. llama.cpp runs it and transformers loads it
(`gguf_file=`), as they do a real one."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_tiny_llama(path: Path, *, layers: int = 2, width: int = 64, heads: int = 4, ff: int = 128) -> Path:
    from gguf import GGUFWriter, TokenType

    rng = np.random.default_rng(0)
    tokens = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)), "▁", *(chr(c) for c in range(33, 127))]
    types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL, *[TokenType.BYTE] * 256,
             *[TokenType.NORMAL] * (len(tokens) - 259)]
    writer = GGUFWriter(str(path), "llama")
    writer.add_name("tiny-llama")
    writer.add_context_length(512)
    writer.add_embedding_length(width)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ff)
    writer.add_head_count(heads)
    writer.add_head_count_kv(heads)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(width // heads)
    writer.add_vocab_size(len(tokens))
    writer.add_file_type(0)  # all float32
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * len(tokens))
    writer.add_token_types([int(t) for t in types])
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)
    writer.add_add_bos_token(True)

    def weights(*shape: int, scale: float = 0.02) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    writer.add_tensor("token_embd.weight", weights(len(tokens), width))
    for i in range(layers):
        writer.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(width, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{i}.{name}.weight", weights(width, width))
        writer.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(width, dtype=np.float32))
        writer.add_tensor(f"blk.{i}.ffn_gate.weight", weights(ff, width))
        writer.add_tensor(f"blk.{i}.ffn_up.weight", weights(ff, width))
        writer.add_tensor(f"blk.{i}.ffn_down.weight", weights(width, ff))
    writer.add_tensor("output_norm.weight", np.ones(width, dtype=np.float32))
    writer.add_tensor("output.weight", weights(len(tokens), width, scale=0.5))  # logits that can grow sure
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
