"""negated-condition, over-specific-condition, over-broad-condition and missing-condition:
conditions that test the wrong thing, too much, too little or nothing.
"""

import ast

from ..text import in_backticks, short
from ..units import is_atom, is_value, names_in, needs_parens, own_fields, walk_exprs


# negated-condition, over-specific-condition, over-broad-condition
def condition_tests(gen, unit):
    tests = []
    if isinstance(unit, (ast.If, ast.While)):
        tests.append(unit.test)
    if isinstance(unit, ast.Assert):
        tests.append(unit.test)
    for node in own_fields(unit):
        for n in walk_exprs(node, gen.m.skip):
            if isinstance(n, ast.IfExp):
                tests.append(n.test)
            elif isinstance(n, ast.comprehension):
                tests.extend(n.ifs)
    if isinstance(unit, ast.Return) and unit.value is not None:
        if isinstance(unit.value, (ast.BoolOp, ast.Compare)) or (
            isinstance(unit.value, ast.UnaryOp) and isinstance(unit.value.op, ast.Not)
        ):
            tests.append(unit.value)
    return tests


def truthiness(gen, unit):
    """A truth test where a None test is meant, or the other way: `not x` lets 0 and "" through
    as missing (`x is None`), `x is None` lets them through as present (`not x`)."""
    for test in condition_tests(gen, unit):
        for n in ast.walk(test):
            if id(n) in gen.m.skip:
                continue
            parent = gen.m.parent.get(n)
            subject = None
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) and is_value(n.operand):
                subject, family, new = n.operand, "over-broad-condition", "{} is None"
            elif isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.comparators[0], ast.Constant) and n.comparators[0].value is None and is_value(n.left):
                subject = n.left
                family, new = ("missing-condition", "not {}") if isinstance(n.ops[0], ast.Is) else ("missing-condition", "{}") if isinstance(n.ops[0], ast.IsNot) else (None, None)
            elif is_value(n) and (n is test or isinstance(parent, ast.BoolOp)) and not (isinstance(parent, ast.UnaryOp)):
                subject, family, new = n, "over-broad-condition", "{} is not None"
            if subject is None or family is None:
                continue
            text = gen.src.seg(subject)
            edited = new.format(text)
            if new == "not {}" and isinstance(parent, (ast.Compare, ast.BinOp)):
                edited = "(" + edited + ")"
            claim = f"The condition at line {n.lineno} tests {in_backticks(short(gen.src.seg(n)))} where {in_backticks(short(edited))} is meant (a value like 0 or an empty string is handled the wrong way)."
            gen.replace(family, 2.0, n, edited, claim, names=names_in(subject))


def negated_condition(gen, unit):
    for test in condition_tests(gen, unit):
        text = gen.src.seg(test)
        if isinstance(test, ast.Constant):
            continue  # `while True:` is meant
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            new = gen.src.seg(test.operand)
            if isinstance(test.operand, (ast.BoolOp, ast.Compare)) and not is_atom(test.operand):
                new = "(" + new + ")" if needs_parens(test, gen.m) else new
            claim = f"The condition at line {test.lineno} is negated by mistake: {in_backticks(short(text))} should be {in_backticks(short(new))}."
            gen.replace("negated-condition", 1.0, test, new, claim, names=names_in(test))
        elif not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            new = "not " + (text if is_atom(test) else "(" + text + ")")
            if needs_parens(test, gen.m) or isinstance(gen.m.parent.get(test), ast.BoolOp):
                new = "(" + new + ")"
            claim = f"The condition at line {test.lineno} is the wrong way round: {in_backticks(short(text))} should be {in_backticks(short(new))}."
            gen.replace("negated-condition", 1.2, test, new, claim, names=names_in(test))
        if isinstance(test, ast.BoolOp):
            for part in test.values:
                ptext = gen.src.seg(part)
                if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
                    new = gen.src.seg(part.operand)
                    if not is_atom(part.operand):
                        new = "(" + new + ")"
                elif isinstance(part, ast.Compare) and len(part.ops) == 1:
                    continue  # changed-operator negates a single comparison
                else:
                    new = "not " + (ptext if is_atom(part) else "(" + ptext + ")")
                claim = f"Part of the condition at line {test.lineno} is negated the wrong way: {in_backticks(short(ptext))} should be {in_backticks(short(new))}."
                gen.replace("negated-condition", 1.5, part, new, claim, names=names_in(part))


def condition_parts(gen, node):
    """Drop one conjunct (an over-specific condition) or one disjunct (an over-broad one)."""
    conj = isinstance(node.op, ast.And)
    joiner = " and " if conj else " or "
    for i, part in enumerate(node.values):
        rest = [gen.src.seg(v) if is_atom(v) or not isinstance(v, ast.BoolOp) else "(" + gen.src.seg(v) + ")" for j, v in enumerate(node.values) if j != i]
        new = joiner.join(rest)
        if len(rest) > 1 and needs_parens(node, gen.m):
            new = "(" + new + ")"
        family = "over-specific-condition" if conj else "over-broad-condition"
        what = "should not require" if conj else "should not accept on"
        claim = f"The condition at line {node.lineno} {what} {in_backticks(short(gen.src.seg(part)))}: {in_backticks(short(gen.src.seg(node)))} should be {in_backticks(short(new))}."
        gen.replace(family, 2.0 + 0.1 * i, node, new, claim, names=names_in(part))


# missing-condition
def missing_condition(gen, unit):
    if not isinstance(unit, (ast.If, ast.While)) or isinstance(unit.test, ast.Constant):
        return
    test = unit.test
    text = gen.src.seg(test)
    base = "(" + text + ")" if isinstance(test, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) and not (
        isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)
    ) else text
    conditions = []
    for stmt in unit.body[:3]:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, (ast.Name, ast.Attribute)):
                key = n.slice
                if isinstance(key, ast.Name) or isinstance(key, ast.Constant) and isinstance(key.value, str):
                    conditions.append(gen.src.seg(key) + " in " + gen.src.seg(n.value))
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id not in ("self", "cls"):
                b = gen.m.visible(n, n.lineno).get(n.value.id)
                if b is not None and b.role in ("param", "local", "loop") and b is not gen.m.module_scope.names.get(n.value.id):
                    conditions.append(n.value.id + " is not None")
    seen = set()
    for i, cond in enumerate(c for c in conditions if not (c in seen or seen.add(c))):
        if cond in text:
            continue
        new = base + " and " + cond
        claim = f"The condition at line {unit.lineno} misses a case: {in_backticks(short(text))} should also require {in_backticks(cond)}."
        gen.replace("missing-condition", 2.4 + 0.2 * i, test, new, claim, names=names_in(test))
        if i >= 3:
            break
