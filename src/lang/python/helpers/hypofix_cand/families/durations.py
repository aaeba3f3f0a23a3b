"""extended-expression, in the module's own unit of time: a date or time bound that should be
moved by a duration the module already has — a module-level `timedelta` constant (`deadline +
GRACE`) or one step of a unit the module's `timedelta` calls use (`expires + timedelta(seconds=1)`).
statements.extended_expression proposes a day either way; this adds the other units.
"""

import ast

from ..kinds import NUMERIC, type_class
from ..text import in_backticks, short
from ..units import names_in, needs_parens
from .statements import DATE_WORDS

# Durations tried per bound.
MAX_DURATIONS = 2


def durations(gen):
    """The module's durations, cached: its module-level timedelta constants, then one step of each
    unit (other than days) its timedelta calls name."""
    cached = gen.__dict__.get("_durations")
    if cached is not None:
        return cached
    constants, units = [], []
    for n in gen.m.tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_timedelta(n.value):
            constants.append(n.targets[0].id)
    call = None
    for n in ast.walk(gen.m.tree):
        if isinstance(n, ast.Call) and is_timedelta(n):
            call = call or gen.src.seg(n.func)
            for k in n.keywords:
                if k.arg and k.arg != "days" and k.arg not in units:
                    units.append(k.arg)
    found = constants + [f"{call}({unit}=1)" for unit in units]
    gen.__dict__["_durations"] = found
    return found


def is_timedelta(node):
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return isinstance(func, ast.Name) and func.id == "timedelta" or isinstance(func, ast.Attribute) and func.attr == "timedelta"


def bound_in_unit(gen, node):
    if id(node) in gen.m.skip or not isinstance(getattr(node, "ctx", None), ast.Load):
        return
    parent = gen.m.parent.get(node)
    if not (isinstance(parent, ast.Compare) or isinstance(parent, (ast.Return, ast.Assign)) and parent.value is node):
        return
    text = gen.src.seg(node)
    if not any(w in text.lower() for w in DATE_WORDS) or gen.kind_at(node) in NUMERIC:
        return
    if type_class(gen.runtime_type(node)) == "number":
        return  # the failing test saw a number there, not a date
    options = [d for d in durations(gen) if d != text]
    for i, duration in enumerate(options[:MAX_DURATIONS]):
        for j, sign in enumerate(("+", "-")):
            new = f"{text} {sign} {duration}"
            claim = f"At line {node.lineno} the bound {in_backticks(short(text))} is off by a step of the module's own unit: it should be {in_backticks(short(new))}."
            gen.replace("extended-expression", 2.5 + 0.2 * i + 0.3 * j, node, "(" + new + ")" if needs_parens(node, gen.m) else new, claim, names=names_in(node))
