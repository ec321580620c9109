"""The question-answering benchmark, `lifelens bench` (the command's parser: cli.py, loaded by app.cli only when
the command runs, from a checkout): the answer metrics (metrics.py), the runner (runner.py), RETRIEVE
stage figures and operator timing (stages.py), the EXTRACT stage (extract_stage.py) and the paper's two
baselines, RAG (rag.py) and CodeGen over a sandboxed read-only SQL view (codegen.py)."""
