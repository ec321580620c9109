"""Training and export recipes (need the `train` extra: torch, transformers, onnx). See `python -m models.train -h`."""
