from tests.models.fixtures import default_gguf, default_llm  # noqa: F401  (session fixtures)
