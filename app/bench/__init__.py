"""Benchmark support: the answer metrics (metrics.py); the `lifelens bench` command builds on them."""
