"""Occurrence-wide edits and composing what is in scope.

changed-identifier / changed-attribute, every occurrence: a wrong name is often read several
times, so a swap of one read is also proposed on every read of the same name on its line and in
its function at once (reads the unit's candidates so far: runs after names.py's rules).

wrapped-expression: a value passed on raw where a function the module defines or imports (and
calls elsewhere on one argument) should first transform it (`x` -> `normalize(x)`).
"""

import ast

from ..kinds import BUILTIN_NAMES
from ..text import in_backticks, short
from ..units import names_in

# Swaps of one read looked at per statement, likeliest first.
MAX_SWAPS = 4
# Functions a value may be wrapped in, per value.
MAX_WRAPPERS = 2
# Copying a value is missing-copy's (statements.py), not a transformation.
COPIERS = {"copy", "copy.copy", "deepcopy", "copy.deepcopy"}


def reads_alike(gen, fn, node):
    """The other reads in fn of the same name (or the same `base.attribute` text) as node."""
    text = gen.src.seg(node)
    out = []
    for n in ast.walk(fn):
        if n is node or type(n) is not type(node) or not isinstance(getattr(n, "ctx", None), ast.Load):
            continue
        if id(n) in gen.m.skip or gen.src.seg(n) != text:
            continue
        parent = gen.m.parent.get(n)
        if isinstance(parent, ast.Call) and parent.func is n:
            continue
        out.append(n)
    return out


def every_occurrence(gen, unit):
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    swaps = sorted(
        (
            p for p in gen.found
            if p[10] is unit and p[2] in ("changed-identifier", "changed-attribute") and len(p[3]) == 1
            and isinstance(p[5], (ast.Name, ast.Attribute)) and isinstance(p[5].ctx, ast.Load)
        ),
        key=lambda p: (p[0], p[1]),
    )
    for prior, _order, family, changes, claim, node, names, literals, before, after, _unit in swaps[:MAX_SWAPS]:
        new = changes[0][2]
        others = reads_alike(gen, fn, node)
        same_line = [n for n in others if n.lineno == node.lineno]
        groups = []
        if same_line:
            groups.append((0.2, same_line, f"line {node.lineno}"))
        if len(others) > len(same_line):
            groups.append((0.4, others, f"{in_backticks(fn.name)}"))
        old = gen.src.seg(node)
        for extra, group, where in groups:
            more = [gen.src.span(n) + (new,) for n in group]
            text = f"{claim.rstrip('.')}, at every read of {in_backticks(short(old))} in {where} ({len(group) + 1} places)."
            gen.emit(family, prior + extra, [changes[0]] + more, text, node, names=names, literals=literals, before=before, after=after)


def wrappers(gen):
    """{function: (how sure, its parameter's name)} of the functions that take one value: the names
    the module imports or defines that it calls elsewhere on exactly one argument (0), then the
    module's own functions of one required parameter that it never calls so (1), cached."""
    cached = gen.__dict__.get("_wrappers")
    if cached is not None:
        return cached
    params = {}
    for name, f in gen.m.functions.items():
        args = f.args
        positional = list(args.posonlyargs) + list(args.args)
        if len(positional) - len(args.defaults) == 1 and not name.startswith("test"):
            params[name] = positional[0].arg
    found = {}
    for n in ast.walk(gen.m.tree):
        if not (isinstance(n, ast.Call) and len(n.args) == 1 and not n.keywords):
            continue
        root = n.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id not in BUILTIN_NAMES and (root.id in gen.m.imports or root.id in params):
            text = gen.src.seg(n.func)
            if "\n" not in text and text not in COPIERS and (root.id in gen.m.imports or text in params):
                found.setdefault(text, (0, params.get(text)))
    for name, param in params.items():
        found.setdefault(name, (1, param))
    gen.__dict__["_wrappers"] = found
    return found


def named_alike(text, param):
    """Whether a value's name and a function's parameter name say the same thing (`code`, `raw_code`)."""
    word = text.split(".")[-1].lower()
    param = (param or "").lower()
    return bool(param) and (word == param or min(len(word), len(param)) >= 3 and (param in word or word in param))


def value_position(gen, node):
    parent = gen.m.parent.get(node)
    return (
        isinstance(parent, (ast.Return, ast.Assign)) and parent.value is node
        or isinstance(parent, ast.Compare)
        or isinstance(parent, ast.keyword)
        or isinstance(parent, ast.Call) and node in parent.args
        or isinstance(parent, ast.Subscript) and parent.slice is node
    )


def wrapped_expression(gen, node):
    if id(node) in gen.m.skip or not isinstance(getattr(node, "ctx", None), ast.Load) or not value_position(gen, node):
        return
    fn = gen.m.enclosing_function(node)
    if fn is None:
        return
    if isinstance(node, ast.Name):
        if node.id in ("self", "cls") or node.id in BUILTIN_NAMES:
            return
        b = gen.m.visible(node, node.lineno).get(node.id)
        if b is None or b.role in ("function", "class", "import"):
            return
    text = gen.src.seg(node)
    parent = gen.m.parent.get(node)
    outer = gen.src.seg(parent.func) if isinstance(parent, ast.Call) else None
    # Wrappers the enclosing statement already calls are likeliest (`clean(a) == b`, not `clean(b)`).
    used = set(gen.src.seg(n.func) for n in ast.walk(gen.unit) if isinstance(n, ast.Call)) if gen.unit is not None else set()
    options = []
    for wrapper, (sure, param) in wrappers(gen).items():
        if wrapper in (fn.name, outer):
            continue
        # What speaks for a wrapper: the statement calls it already (`clean(a) == b`, not `clean(b)`),
        # its parameter is named like the value, the module calls it on one value elsewhere.
        signs = (wrapper in used, named_alike(text, param), sure == 0)
        if any(signs):
            options.append((tuple(not s for s in signs), wrapper))
    options.sort()
    for i, (signs, wrapper) in enumerate(options[:MAX_WRAPPERS]):
        if i > 0 and signs[0] and signs[1]:
            break  # a second guess only when the statement or the name speaks for it
        new = f"{wrapper}({text})"
        prior = (2.6 if not signs[0] else 2.8 if not signs[1] else 3.1) + 0.1 * i
        claim = f"At line {node.lineno} {in_backticks(short(text))} is used as it came: it should go through {in_backticks(wrapper)} first, {in_backticks(short(new))}."
        gen.replace("wrapped-expression", prior, node, new, claim, names=names_in(node) + [wrapper.split(".")[-1]])
