"""Units: the statements (or their headers) a suspect line belongs to, the expressions of each,
and small questions about nodes.
"""

import ast


# ---------------------------------------------------------------------------------------------
# Units: the statements (or their headers) a suspect line belongs to.

HEADER_FIELDS = {
    ast.If: ("test",),
    ast.While: ("test",),
    ast.For: ("target", "iter"),
    ast.AsyncFor: ("target", "iter"),
    ast.With: ("items",),
    ast.AsyncWith: ("items",),
    ast.Try: (),
    ast.ClassDef: (),
}


BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def own_fields(unit):
    """The expression parts of a statement that belong to it, not to statements nested in it."""
    if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return list(unit.args.defaults) + [d for d in unit.args.kw_defaults if d is not None]
    if isinstance(unit, ast.ExceptHandler):
        return [unit.type] if unit.type is not None else []
    names = HEADER_FIELDS.get(type(unit))
    if names is None:
        names = [f for f in unit._fields if f not in BODY_FIELDS]
    out = []
    for name in names:
        value = getattr(unit, name, None)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, ast.withitem):
                out.append(v.context_expr)
                if v.optional_vars is not None:
                    out.append(v.optional_vars)
            elif isinstance(v, (ast.expr, ast.keyword)):
                out.append(v)
    return out


def header_range(unit):
    first = unit.lineno
    parts = own_fields(unit)
    last = max([first] + [p.end_lineno for p in parts if getattr(p, "end_lineno", None)])
    if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)):
        last = max([last] + [a.end_lineno for a in ast.walk(unit.args) if isinstance(a, ast.arg)])
        if unit.returns is not None:
            last = max(last, unit.returns.end_lineno)
    if not hasattr(unit, "body") and not isinstance(unit, ast.ExceptHandler):
        last = max(last, unit.end_lineno)
    return first, last


def units_of(module):
    units = []
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.stmt, ast.ExceptHandler)) and id(node) not in module.skip:
            if isinstance(node, ast.ClassDef):
                continue
            units.append((header_range(node), node))
    return units


def walk_exprs(node, skip):
    """Expressions under `node` in source order, skipping docstrings, annotations and f-string insides."""
    if id(node) in skip:
        return
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.expr, ast.keyword, ast.comprehension, ast.arguments, ast.arg)):
            yield from walk_exprs(child, skip)


def qualname(module, node):
    parts = []
    while node is not None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            parts.append(node.name)
        node = module.parent.get(node)
    return ".".join(reversed(parts))


def needs_parens(node, module):
    """True when text replacing `node` with a binary expression must be parenthesised."""
    parent = module.parent.get(node)
    return isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Attribute, ast.Subscript, ast.Await)) and not (
        isinstance(parent, ast.Subscript) and parent.slice is node
    ) or (isinstance(parent, ast.Call) and parent.func is node)


def is_value(node):
    """A name, attribute or subscript: something whose truth a condition may test."""
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and isinstance(getattr(node, "ctx", None), ast.Load)


def is_atom(node):
    return isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set))


def names_in(node):
    if node is None:
        return []
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in out:
            out.append(n.id)
        elif isinstance(n, ast.Attribute) and n.attr not in out:
            out.append(n.attr)
    return out


def suspect_units(module, lines, span):
    units = units_of(module)
    chosen = []  # (suspect line, unit)
    if span:
        start, end = span
        for (first, last), unit in sorted(units, key=lambda u: (u[0][0], u[1].col_offset)):
            if first >= start and first <= end:
                chosen.append((first, unit))
        return chosen
    for line in lines:
        inner = None
        for (first, last), unit in units:
            if first <= line <= last and (inner is None or last - first < inner[0][1] - inner[0][0]):
                inner = ((first, last), unit)
        if inner is not None:
            chosen.append((line, inner[1]))
    return chosen
