"""changed-operator (comparison, arithmetic, boolean, augmented assignment, unary sign) and
swapped-operands.
"""

import ast

from .literals import changed_literal
from ..kinds import kind_of_value
from ..text import char_offset_in, gap_tokens, in_backticks, short
from ..units import is_atom, names_in


# changed-operator
def op_gap(gen, left, right):
    """(start, end, text) of the operator between two operand nodes, or None."""
    src = gen.src
    a = src.offset(left.end_lineno, left.end_col_offset)
    b = src.offset(right.lineno, right.col_offset)
    gap = src.text[a:b]
    toks = gap_tokens(gap)
    if not toks:
        return None
    first, last = toks[0], toks[-1]
    start = a + char_offset_in(gap, *first.start)
    end = a + char_offset_in(gap, *last.end)
    return start, end, src.text[start:end]


def changed_operator_compare(gen, node):
    operands = [node.left] + list(node.comparators)
    for i, op in enumerate(node.ops):
        found = op_gap(gen, operands[i], operands[i + 1])
        if found is None:
            continue
        start, end, old = found
        old_text = COMPARE_TEXT[type(op)]
        for k, alt in enumerate(COMPARE_ALTERNATIVES.get(old_text, [])):
            bound = {old_text, alt} in ({"<", "<="}, {">", ">="})
            if old_text in ("is", "is not", "==", "!=") and alt in ("is", "is not", "==", "!="):
                if (alt in ("is", "is not")) != (old_text in ("is", "is not")):
                    prior = 2.2  # `is` vs `==`: only right for singletons
                else:
                    prior = 1.0
            elif old_text in ("in", "not in"):
                prior = 1.0
            else:
                prior = 1.0 if bound else 1.4 + 0.3 * k
            left, right = gen.src.seg(operands[i]), gen.src.seg(operands[i + 1])
            why = "the bound is off by one" if bound else "the comparison tests the wrong relation"
            claim = (
                f"The comparison at line {node.lineno} uses {in_backticks(old_text)} where "
                f"{in_backticks(alt)} is meant ({why}): {in_backticks(short(left + ' ' + old_text + ' ' + right))} "
                f"should be {in_backticks(short(left + ' ' + alt + ' ' + right))}."
            )
            gen.emit(
                "changed-operator",
                prior,
                [(start, end, alt)],
                claim,
                node,
                names=names_in(node),
                before=old_text,
                after=alt,
            )


def changed_operator_binop(gen, node):
    old = BINOP_TEXT.get(type(node.op))
    found = op_gap(gen, node.left, node.right)
    if old is None or found is None:
        return
    start, end, _ = found
    text_operand = any(isinstance(o, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(o, "value", ""), str) for o in (node.left, node.right))
    for k, alt in enumerate(BINOP_ALTERNATIVES.get(old, [])):
        prior = (1.3 if k == 0 else 2.4 + 0.2 * k) + (1.5 if text_operand else 0)
        claim = (
            f"The arithmetic at line {node.lineno} uses {in_backticks(old)} where {in_backticks(alt)} is meant: "
            f"{in_backticks(short(gen.src.seg(node)))} should use {in_backticks(alt)}."
        )
        gen.emit("changed-operator", prior, [(start, end, alt)], claim, node, names=names_in(node), before=old, after=alt)


def changed_operator_boolop(gen, node):
    old, alt = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
    changes = []
    for left, right in zip(node.values, node.values[1:]):
        found = op_gap(gen, left, right)
        if found is None:
            return
        changes.append((found[0], found[1], alt))
    claim = (
        f"The condition at line {node.lineno} joins its parts with {in_backticks(old)} where "
        f"{in_backticks(alt)} is meant: {in_backticks(short(gen.src.seg(node)))}."
    )
    gen.emit("changed-operator", 1.4, changes, claim, node, names=names_in(node), before=old, after=alt)


def changed_operator_augassign(gen, unit):
    old = BINOP_TEXT.get(type(unit.op))
    found = op_gap(gen, unit.target, unit.value)
    if old is None or found is None:
        return
    start, end, _ = found
    alts = [a + "=" for a in BINOP_ALTERNATIVES.get(old, [])] + ["="]
    for k, alt in enumerate(alts):
        prior = 1.3 if k == 0 else 2.4 + 0.2 * k
        what = "overwrites" if alt == "=" else "uses"
        claim = (
            f"Line {unit.lineno} updates {in_backticks(gen.src.seg(unit.target))} with "
            f"{in_backticks(old + '=')} where {in_backticks(alt)} is meant"
            + (" (the value should be replaced, not accumulated)." if alt == "=" else ".")
        )
        del what
        gen.emit("changed-operator", prior, [(start, end, alt)], claim, unit, names=names_in(unit.target), before=old + "=", after=alt)


def overwrite_instead_of_accumulate(gen, unit):
    """`total = x` inside a loop, where `total` was initialised before it: `total += x`."""
    if len(unit.targets) != 1 or not isinstance(unit.targets[0], (ast.Name, ast.Attribute)):
        return
    loops = gen.m.enclosing_loops(unit)
    if not loops:
        return
    target = gen.src.seg(unit.targets[0])
    if any(isinstance(n, (ast.Name, ast.Attribute)) and gen.src.seg(n) == target for n in ast.walk(unit.value)):
        return  # `x = x + ...` already accumulates
    found = op_gap(gen, unit.targets[0], unit.value)
    if found is None:
        return
    kind = kind_of_value(unit.value)
    for k, alt in enumerate(["+=", "-=", "*="] if kind != "str" else ["+="]):
        claim = (
            f"Line {unit.lineno} overwrites {in_backticks(target)} on every pass of the loop where it should "
            f"accumulate: {in_backticks('=')} should be {in_backticks(alt)}."
        )
        gen.emit("changed-operator", 2.3 + 0.4 * k, [(found[0], found[1], alt)], claim, unit, names=[target], before="=", after=alt)


def changed_unary(gen, node):
    if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        changed_literal(gen, node)
        return
    if isinstance(node.op, ast.USub):
        claim = f"The sign at line {node.lineno} is wrong: {in_backticks(short(gen.src.seg(node)))} should be {in_backticks(short(gen.src.seg(node.operand)))}."
        gen.replace("changed-operator", 2.2, node, gen.src.seg(node.operand), claim, names=names_in(node))


# swapped-operands
def swapped_operands(gen, node):
    old = BINOP_TEXT.get(type(node.op))
    if old not in NON_COMMUTATIVE:
        return
    left, right = gen.src.seg(node.left), gen.src.seg(node.right)
    if left == right:
        return
    (ls, le), (rs, re_) = gen.src.span(node.left), gen.src.span(node.right)
    wrap = lambda n, t: t if is_atom(n) else "(" + t + ")"
    claim = (
        f"The operands at line {node.lineno} are the wrong way round: "
        f"{in_backticks(short(gen.src.seg(node)))} should be {in_backticks(short(wrap(node.right, right) + ' ' + old + ' ' + wrap(node.left, left)))}."
    )
    gen.emit(
        "swapped-operands",
        2.4,
        [(ls, le, wrap(node.right, right)), (rs, re_, wrap(node.left, left))],
        claim,
        node,
        names=names_in(node),
    )


COMPARE_TEXT = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}


# Alternatives for a comparison operator, likeliest first: the bound, then the direction.
COMPARE_ALTERNATIVES = {
    "<": ["<=", ">", ">=", "!=", "=="],
    "<=": ["<", ">=", ">", "==", "!="],
    ">": [">=", "<", "<=", "!=", "=="],
    ">=": [">", "<=", "<", "==", "!="],
    "==": ["!=", "is", "<=", ">="],
    "!=": ["==", "is not", "<", ">"],
    "is": ["is not", "=="],
    "is not": ["is", "!="],
    "in": ["not in"],
    "not in": ["in"],
}


BINOP_TEXT = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
}


BINOP_ALTERNATIVES = {
    "+": ["-", "*"],
    "-": ["+"],
    "*": ["/", "//", "+", "**"],
    "/": ["//", "*"],
    "//": ["/", "%", "*"],
    "%": ["//"],
    "**": ["*"],
    "&": ["|"],
    "|": ["&"],
    "<<": [">>"],
    ">>": ["<<"],
}


NON_COMMUTATIVE = {"-", "/", "//", "%", "**", "<<", ">>"}
