"""off-by-one: indexes, slice bounds, ranges, lengths compared, a `+ 1` too many.
"""

import ast

from ..kinds import SEQUENCE_TYPES
from ..text import in_backticks, short
from ..units import is_atom, names_in, needs_parens


# off-by-one
def off_by_one_subscript(gen, node):
    index = node.slice
    if isinstance(index, ast.Index):  # pragma: no cover - Python 3.8 shape
        index = index.value
    if isinstance(node.ctx, ast.Del):
        return
    container = gen.runtime_type(node.value)
    if container is not None and container not in SEQUENCE_TYPES:
        return  # a mapping's key (or another object's index) is not off by one
    if isinstance(index, ast.Slice):
        for bound in (index.lower, index.upper):
            if bound is not None:
                shift(gen, bound, "the slice bound is off by one", 1.5)
        return
    if isinstance(index, ast.Constant) and isinstance(index.value, str):
        return
    if isinstance(index, ast.Tuple):
        return
    shift(gen, index, "the index is off by one", 1.5)
    if isinstance(index, ast.Constant) and index.value == 0:
        gen.replace("off-by-one", 2.0, index, "-1", f"Line {node.lineno} takes the first item where the last is meant: {in_backticks(short(gen.src.seg(node)))} should end in {in_backticks('[-1]')}.")
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant) and index.operand.value == 1:
        gen.replace("off-by-one", 2.0, index, "0", f"Line {node.lineno} takes the last item where the first is meant: {in_backticks(short(gen.src.seg(node)))} should end in {in_backticks('[0]')}.")


def shift(gen, node, why, prior, down_first=False):
    """`e` → `e + 1` / `e - 1`, and `e ± 1` → `e`; not for a value the failing test showed is no number."""
    if gen.not_numeric(node):
        return
    text = gen.src.seg(node)
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        alts = [str(node.value + 1), str(node.value - 1)] if node.value != 0 else ["1"]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, int):
        v = -node.operand.value
        alts = [str(v + 1) if v + 1 != 0 else None, str(v - 1)]
        alts = [a for a in alts if a is not None]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(node.right, ast.Constant) and node.right.value == 1:
        return  # off_by_one_drop
    else:
        inner = text if is_atom(node) or isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) else "(" + text + ")"
        alts = [inner + " - 1", inner + " + 1"] if down_first else [inner + " + 1", inner + " - 1"]
    for i, alt in enumerate(alts):
        new = "(" + alt + ")" if needs_parens(node, gen.m) and " " in alt else alt
        claim = f"At line {node.lineno} {why}: {in_backticks(short(text))} should be {in_backticks(short(new))}."
        gen.replace("off-by-one", prior + 0.2 * i, node, new, claim, names=names_in(node), literals=[text, new])


def off_by_one_drop(gen, node):
    if isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(node.right, ast.Constant) and node.right.value == 1 and not isinstance(node.right.value, bool):
        new = gen.src.seg(node.left)
        text = gen.src.seg(node)
        claim = f"The {in_backticks(('+ 1' if isinstance(node.op, ast.Add) else '- 1'))} at line {node.lineno} is an off-by-one: {in_backticks(short(text))} should be {in_backticks(short(new))}."
        gen.replace("off-by-one", 1.4, node, new, claim, names=names_in(node))


def range_call(gen, node):
    """range(n) ↔ range(n + 1), range(1, n); range(a, b) → range(a, b + 1), range(a + 1, b)."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "range") or id(node) in gen.m.skip:
        return
    args = node.args
    if not args or len(args) > 2 or any(isinstance(a, ast.Starred) for a in args):
        return
    for arg in args:
        shift(gen, arg, "the range is off by one", 1.4)
    if len(args) == 1:
        start, end = gen.src.span(args[0])
        text = gen.src.seg(args[0])
        bound = text if is_atom(args[0]) else "(" + text + ")"
        for prior, new in ((1.8, "1, " + text), (1.9, "1, " + bound + " + 1")):
            claim = f"The range at line {node.lineno} should start at 1: {in_backticks(short(gen.src.seg(node)))} should be {in_backticks('range(' + short(new) + ')')}."
            gen.emit("off-by-one", prior, [(start, end, new)], claim, node, names=names_in(node))


def compared_length(gen, node):
    """`i == len(items)` where the last index, `len(items) - 1`, is meant (or the other way)."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "len" and id(node) not in gen.m.skip:
        if isinstance(gen.m.parent.get(node), ast.Compare):
            shift(gen, node, "the length compared is off by one", 1.6, down_first=True)
