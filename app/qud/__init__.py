"""QUD: question understanding and decomposition (ReQAP, Section 3.1).

A question becomes an operator tree by recursive decomposition: each call to a local language model sees one
sub-question and the steps above it, and writes one operator call (decoded under a GBNF grammar of the step
syntax) whose arguments may hold new `QUD("...")` sub-questions; the recursion ends at RETRIEVE leaves.

    from app.qud.pipeline import ask, decompose
    tree = decompose("How much did I spend on Amazon in 2023?", date(2024, 5, 1), llm)
    answer = ask("How much did I spend on Amazon in 2023?", store, date.today())
"""
