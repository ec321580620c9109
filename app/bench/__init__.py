"""Benchmark support for `lifelens bench`: the answer metrics (metrics.py), the runner (runner.py), RETRIEVE
stage figures and operator timing (stages.py), the EXTRACT stage (extract_stage.py) and the paper's two
baselines, RAG (rag.py) and CodeGen over a sandboxed read-only SQL view (codegen.py)."""
