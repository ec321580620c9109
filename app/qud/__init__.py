"""QUD: question understanding and decomposition (ReQAP, Section 3.1).

A question becomes an operator tree by recursive decomposition: each call to a local language model sees one
sub-question and the steps above it, and writes one operator call (decoded under a GBNF grammar of the step
syntax) whose arguments may hold new `QUD("...")` sub-questions; the recursion ends at RETRIEVE leaves.

    from app.qud.pipeline import decompose
    tree = decompose("How much did I spend on Amazon in 2023?", date(2024, 5, 1), llm)

Asking a question, its tree and the tree's run with reruns after a failed step, is `app.ask.ask`, above this
package and the operator engine.
"""
