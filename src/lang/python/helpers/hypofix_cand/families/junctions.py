"""missing-condition and missing-alternative: a condition (of an `if`, a `while`, a conditional
expression, a comprehension's filter) that lacks a conjunct (`if a:` where `if a and x is not
None:` is meant) or a disjunct (`if a or not x:`), the added test built from the names in scope
(predicates.tests_of).
"""

import ast

from ..predicates import names_near, tests_of
from .conditions import condition_tests
from ..text import in_backticks, short
from ..units import names_in

# Names tried per condition, tests per name, and candidates per condition.
MAX_NAMES = 4
MAX_TESTS = 4
MAX_CANDIDATES = 16


def added_junction(gen, unit):
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    for test in condition_tests(gen, unit):
        if test is getattr(unit, "value", None) and isinstance(unit, ast.Return):
            continue  # a returned boolean is a value, not a branch to widen or narrow
        if not isinstance(test, ast.Constant):
            added_to(gen, unit, fn, test)


def added_to(gen, unit, fn, test):
    text = gen.src.seg(test)
    in_test = [n.id for n in ast.walk(test) if isinstance(n, ast.Name)]
    body = unit.body[:3] if isinstance(unit, (ast.If, ast.While)) and test is unit.test else []
    in_body = [n.id for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Name)]
    names = names_near(gen, test, fn, first=in_test + in_body)[:MAX_NAMES]
    loose = isinstance(test, (ast.IfExp, ast.Lambda, ast.NamedExpr))
    as_and = "(" + text + ")" if loose or isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else text
    as_or = "(" + text + ")" if loose else text
    # Inside a conditional expression or a comprehension the edited test sits among other code.
    wrap = (lambda t: "(" + t + ")") if not isinstance(gen.m.parent.get(test), (ast.If, ast.While)) else (lambda t: t)
    count = 0
    for rank, name in enumerate(names):
        for k, cond in enumerate(tests_of(gen, fn, name, test, MAX_TESTS)):
            if tested_already(gen, cond, test):
                continue
            prior = 2.6 + 0.15 * rank + 0.05 * k
            read = name in in_test
            # A test of a name the condition reads goes first, so that it decides before the read:
            # `x is not None and x.y`, `x is None or x.y`; the opposite tests would contradict it.
            present = cond.endswith(" is not None") or cond == name
            if present or not read:
                conj = cond + " and " + as_and if read else as_and + " and " + cond
                claim = f"The condition at line {test.lineno} misses a case: {in_backticks(short(text))} should also require {in_backticks(cond)}."
                gen.replace("missing-condition", prior, test, wrap(conj), claim, names=names_in(test) + [name])
                count += 1
            if not present or not read:
                disj = cond + " or " + as_or if read else as_or + " or " + cond
                claim = f"The condition at line {test.lineno} misses an alternative: {in_backticks(short(text))} should also hold when {in_backticks(cond)}."
                gen.replace("missing-alternative", prior + 0.1, test, wrap(disj), claim, names=names_in(test) + [name])
                count += 1
            if count >= MAX_CANDIDATES:
                return


def tested_already(gen, cond, test):
    """Whether `cond`, or its negation, is a part of the condition already: the same comparison,
    or the same name tested for truth (`x` in `x and y` or `not x`, not in `x.strip()`)."""
    try:
        wanted = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return True
    if isinstance(wanted, ast.UnaryOp) and isinstance(wanted.op, ast.Not):
        wanted = wanted.operand
    return ast.dump(wanted) in tested_parts(gen, test)


def tested_parts(gen, test):
    """ast.dump of each comparison of the condition and of each part tested for truth; cached."""
    cache = gen.__dict__.setdefault("_tested_parts", {})
    if id(test) not in cache:
        parts = set()
        for n in ast.walk(test):
            parent = gen.m.parent.get(n)
            negated = isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
            if isinstance(n, ast.Compare) or n is test or isinstance(parent, ast.BoolOp) or negated:
                parts.add(ast.dump(n))
        cache[id(test)] = parts
    return cache[id(test)]
