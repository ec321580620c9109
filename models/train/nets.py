"""PyTorch networks behind the exported models (training and export only; the app never imports this).

Every network takes `(input_ids, attention_mask, token_type_ids)` and returns named tensors, which become the
ONNX graph's outputs under the same names:

- `SpladeNet`          -> weights [batch, vocab]: max over tokens of log(1 + relu(mlm_logits)), padding masked
- `CrossEncoderNet`    -> pattern_logits [batch, 3] (irrelevant, partly, relevant), event_logits [batch, 2]
                          (drop, keep); one shared encoder, the [CLS] vector feeds both heads
- `ExtractorNet`       -> mode_logits [batch, 3] (none, span, label), tag_logits [batch, tokens, 3] (O, B, I),
                          label_logits [batch, labels]
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

PATTERN_LABELS = ("irrelevant", "partly", "relevant")
EVENT_LABELS = ("drop", "keep")
MODE_LABELS = ("none", "span", "label")
TAG_LABELS = ("O", "B", "I")


def load_encoder(base_dir: Path, trainable_layers: int | None = None) -> nn.Module:
    """A BertModel from a base folder (a BertForMaskedLM checkpoint works too: its `bert.` weights are used)."""
    from transformers import BertConfig, BertModel

    config = BertConfig.from_pretrained(base_dir)
    encoder = BertModel.from_pretrained(base_dir, config=config, add_pooling_layer=False)
    # Frozen word embeddings: 30,522 rows would dominate each CPU step (dense gradient + AdamW update) and our
    # small fine-tuning sets would only drift the rows of the words they happen to contain.
    encoder.embeddings.word_embeddings.weight.requires_grad_(False)
    if trainable_layers is not None:  # train only the top layers: backward stops early, ~2x faster steps
        encoder.embeddings.requires_grad_(False)
        for layer in encoder.encoder.layer[: max(0, len(encoder.encoder.layer) - trainable_layers)]:
            layer.requires_grad_(False)
    return encoder


class SpladeNet(nn.Module):
    OUTPUTS = ("weights",)

    def __init__(self, base_dir: Path):
        super().__init__()
        from transformers import BertForMaskedLM

        self.mlm = BertForMaskedLM.from_pretrained(base_dir)

    def forward(self, input_ids, attention_mask, token_type_ids):
        logits = self.mlm(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits
        # log1p(relu(.)) is monotone, so max-pool the raw logits first (padding pushed to -1e4) and apply it
        # to [batch, vocab] only: the same numbers as SPLADE's formula, a fraction of the elementwise work.
        padding = (1 - attention_mask.unsqueeze(-1).to(logits.dtype)) * -1e4
        return torch.log1p(torch.relu((logits + padding).amax(dim=1)))


class CrossEncoderNet(nn.Module):
    OUTPUTS = ("pattern_logits", "event_logits")

    def __init__(self, base_dir: Path, dropout: float = 0.1, trainable_layers: int | None = None):
        super().__init__()
        self.encoder = load_encoder(base_dir, trainable_layers)
        width = self.encoder.config.hidden_size
        self.dropout = nn.Dropout(dropout)
        self.pattern_head = nn.Linear(width, len(PATTERN_LABELS))
        self.event_head = nn.Linear(width, len(EVENT_LABELS))

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        cls = self.dropout(hidden[:, 0])
        return self.pattern_head(cls), self.event_head(cls)


class ExtractorNet(nn.Module):
    OUTPUTS = ("mode_logits", "tag_logits", "label_logits")

    def __init__(self, base_dir: Path, n_labels: int, dropout: float = 0.1, trainable_layers: int | None = None):
        super().__init__()
        self.encoder = load_encoder(base_dir, trainable_layers)
        width = self.encoder.config.hidden_size
        self.dropout = nn.Dropout(dropout)
        self.mode_head = nn.Linear(width, len(MODE_LABELS))
        self.tag_head = nn.Linear(width, len(TAG_LABELS))
        self.label_head = nn.Linear(width, n_labels)

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        hidden = self.dropout(hidden)
        cls = hidden[:, 0]
        return self.mode_head(cls), self.tag_head(hidden), self.label_head(cls)
