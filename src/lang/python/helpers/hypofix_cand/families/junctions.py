"""missing-condition and missing-alternative: an `if` or `while` whose condition lacks a conjunct
(`if a:` where `if a and x is not None:` is meant) or a disjunct (`if a or not x:`), the added
test built from the names in scope (predicates.tests_of).
"""

import ast

from ..predicates import names_near, tests_of
from ..text import in_backticks, short
from ..units import names_in

# Names tried per condition, tests per name, and candidates per condition.
MAX_NAMES = 4
MAX_TESTS = 4
MAX_CANDIDATES = 16


def added_junction(gen, unit):
    if not isinstance(unit, (ast.If, ast.While)) or isinstance(unit.test, ast.Constant):
        return
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    test = unit.test
    text = gen.src.seg(test)
    in_test = [n.id for n in ast.walk(test) if isinstance(n, ast.Name)]
    in_body = [n.id for stmt in unit.body[:3] for n in ast.walk(stmt) if isinstance(n, ast.Name)]
    names = names_near(gen, unit, fn, first=in_test + in_body)[:MAX_NAMES]
    loose = isinstance(test, (ast.IfExp, ast.Lambda, ast.NamedExpr))
    as_and = "(" + text + ")" if loose or isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else text
    as_or = "(" + text + ")" if loose else text
    count = 0
    for rank, name in enumerate(names):
        for k, cond in enumerate(tests_of(gen, fn, name, unit, MAX_TESTS)):
            if cond in text:
                continue
            prior = 2.6 + 0.15 * rank + 0.05 * k
            read = name in in_test
            # A test of a name the condition reads goes first, so that it decides before the read:
            # `x is not None and x.y`, `x is None or x.y`; the opposite tests would contradict it.
            present = cond.endswith(" is not None") or cond == name
            if present or not read:
                conj = cond + " and " + as_and if read else as_and + " and " + cond
                claim = f"The condition at line {unit.lineno} misses a case: {in_backticks(short(text))} should also require {in_backticks(cond)}."
                gen.replace("missing-condition", prior, test, conj, claim, names=names_in(test) + [name])
                count += 1
            if not present or not read:
                disj = cond + " or " + as_or if read else as_or + " or " + cond
                claim = f"The condition at line {unit.lineno} misses an alternative: {in_backticks(short(text))} should also hold when {in_backticks(cond)}."
                gen.replace("missing-alternative", prior + 0.1, test, disj, claim, names=names_in(test) + [name])
                count += 1
            if count >= MAX_CANDIDATES:
                return
