"""missing-edge-case: a function that lacks an early return for an edge case, `if <edge>: return
<value>` at its start, where the edge is an emptiness, None, zero or equality test of a
parameter (the failing tests' own arguments for it first) and the value comes from the evidence:
what the failing assertion compared, a literal the function returns, the parameter itself, or
the empty value of what the function returns elsewhere.
"""

import ast

from ..compared import compared_values
from ..kinds import kind_of_value
from ..predicates import kind_class, tests_of
from ..text import in_backticks, short

# Edges tried per function, values per edge.
MAX_EDGES = 6
MAX_VALUES = 4

EMPTY = {"[]", "''", '""', "{}", "()", "set()", "b''"}

# The empty value of what a function returns elsewhere, by kind (kinds.kind_of_value).
EMPTY_OF = {"str": '""', "list": "[]", "dict": "{}", "set": "set()", "tuple": "()", "int": "0", "float": "0.0"}


def missing_edge_case(gen, fn):
    # A generator or a constructor has no value to return early.
    if not fn.body or fn.name == "__init__" or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in gen.own_nodes(fn)):
        return
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
    method = bool(params) and params[0] in ("self", "cls")
    subjects = params[1:] if method else params
    if not subjects:
        return
    at = gen.body_start(fn)[0]
    edges = edges_of(gen, fn, subjects, at, method)
    values = values_of(gen, fn)
    for i, (edge, subject, evidenced) in enumerate(edges[:MAX_EDGES]):
        returns = values
        if kind_class(gen, subject, at) in ("container", "text", None):
            returns = values[:1] + [subject] + values[1:]  # `if not items: return items`
        for j, value in enumerate((returns or [""])[:MAX_VALUES]):
            line = ("return " + value).rstrip()
            change = gen.insert_at_top(fn, [f"if {edge}:", f"    {line}"])
            if change is None:
                return
            prior = (2.5 if evidenced else 2.9) + 0.1 * i + 0.1 * j
            claim = f"{fn.name} misses an edge case: when {in_backticks(edge)} it should return early, {in_backticks(short('if ' + edge + ': ' + line))}."
            gen.emit("missing-edge-case", prior, [change], claim, fn, names=[subject], before="", after=f"if {edge}: {line}")


def edges_of(gen, fn, subjects, at, method):
    """[(test, subject, whether the failing tests call the function with that edge)], likeliest first."""
    out, equal = [], []
    for call in gen.m.test_calls.get(fn.name, []):
        for i, subject in enumerate(subjects):
            arg = call[i] if i < len(call) else None
            if arg is None:
                continue
            if arg in EMPTY:
                out.append((f"not {subject}", subject, True))
            elif arg == "None":
                out.append((f"{subject} is None", subject, True))
            elif arg in ("0", "0.0"):
                out.append((f"{subject} == 0", subject, True))
            elif len(arg) <= 30:
                equal.append((f"{subject} == {arg}", subject, True))
    # Empty, None and zero are the edges; equality with one of the tests' values comes after.
    out += equal[:2]
    for subject in subjects:
        for test in tests_of(gen, fn, subject, at, 3):
            if " is not None" in test or " != " in test or test == subject:
                continue  # the edge is the case left out, not the usual one
            out.append((test, subject, False))
    if len(subjects) >= 2 and kind_class(gen, subjects[0], at) == kind_class(gen, subjects[1], at) is not None:
        out.append((f"{subjects[0]} == {subjects[1]}", subjects[0], False))
    seen, kept = set(), []
    for edge in out:
        if edge[0] not in seen:
            seen.add(edge[0])
            kept.append(edge)
    return kept


def values_of(gen, fn):
    """What an early return may give back: the compared values (the expected side first), the
    function's returned literals and empty results (Generator.default_returns)."""
    out = []
    for text, _value in reversed(compared_values(gen)):
        if len(text) <= 40 and "\n" not in text:
            out.append(text)
    empties = []
    for n in gen.own_nodes(fn):
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant):
            out.append(gen.src.seg(n.value))
        elif isinstance(n, ast.Return) and kind_of_value(n.value) in EMPTY_OF:
            empties.append(EMPTY_OF[kind_of_value(n.value)])
    out += empties + gen.default_returns(fn)
    seen = []
    for v in out:
        if v not in seen:
            seen.append(v)
    return seen
