"""The operators' signatures: one table read by the parser, the validator, the executor and the QUD prompt.

Pure data, no behaviour: the implementations register against these names in `app.engine.operators`,
which checks at import time that every signature has exactly one implementation.

Parameter kinds:
    input      a sub-result, written `QUD("sub-question")`
    text       a string literal (a query, an attribute name)
    text_list  a list of string literals (`["start_date", "artist"]`)
    function   a lambda (`lambda attr: attr["x"] > 3`) or a whitelisted function name (`len`)
    condition  a string holding an expression over `i1` and `i2` (JOIN)
    types      a list of converters (`[date.fromisoformat, float, list]`)
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("input", "text", "text_list", "function", "condition", "types")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    required: bool = True
    default: object = None


@dataclass(frozen=True)
class OperatorSpec:
    name: str
    params: tuple[Param, ...]
    doc: str

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    @property
    def usage(self) -> str:
        parts = [p.name if p.required else f"{p.name}={p.default!r}" for p in self.params]
        return f"{self.name}({', '.join(parts)})"


def _spec(name: str, doc: str, *params: Param) -> OperatorSpec:
    return OperatorSpec(name, params, doc)


_L = Param("l", "input")

SIGNATURES: dict[str, OperatorSpec] = {
    s.name: s
    for s in (
        _spec("RETRIEVE", "All events that match the query.", Param("query", "text")),
        _spec(
            "EXTRACT",
            "Adds the values of the named attributes to each event, converted by attr_types.",
            _L, Param("attr_names", "text_list"), Param("attr_types", "types", required=False),
        ),
        _spec(
            "JOIN",
            "All pairs (i1 from l1, i2 from l2) that satisfy the condition, merged into one item each.",
            Param("l1", "input"), Param("l2", "input"), Param("condition", "condition"),
        ),
        _spec("GROUP_BY", "Groups the items by the values of the named attributes.", _L, Param("attr_names", "text_list")),
        _spec("FILTER", "The items for which the function is true.", _L, Param("filter", "function")),
        _spec(
            "MAP",
            "Applies the function to each item or group and stores the result under res_name.",
            _L, Param("fct", "function"), Param("res_name", "text", required=False, default="map_result"),
        ),
        _spec("APPLY", "Applies the function to the whole list: one value.", _L, Param("fct", "function")),
        _spec(
            "UNNEST",
            "One item per element of the list in nested_attr_name, stored under unnested_attr_name.",
            _L, Param("nested_attr_name", "text"), Param("unnested_attr_name", "text"),
        ),
        _spec(
            "ARGMIN",
            "The item(s) with the smallest arg_attr_name; their val_attr_name when given. Ties: all tied items.",
            _L, Param("arg_attr_name", "text"), Param("val_attr_name", "text", required=False),
        ),
        _spec(
            "ARGMAX",
            "The item(s) with the largest arg_attr_name; their val_attr_name when given. Ties: all tied items.",
            _L, Param("arg_attr_name", "text"), Param("val_attr_name", "text", required=False),
        ),
        _spec("MIN", "The smallest value of attr_name.", _L, Param("attr_name", "text")),
        _spec("MAX", "The largest value of attr_name.", _L, Param("attr_name", "text")),
        _spec("SUM", "The sum of attr_name.", _L, Param("attr_name", "text")),
        _spec("AVG", "The mean of attr_name.", _L, Param("attr_name", "text")),
    )
}
