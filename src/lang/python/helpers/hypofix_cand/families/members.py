"""missing-member: a module-level constant collection of literals (a set, tuple, list or
frozenset of strings or numbers, or a dict whose values are all alike) read by the suspect
statement lacks a member that the failing tests name. The member comes from evidence: a
literal of the failing tests' files of the members' type, not in the collection, the ones most
like its members first.
"""

import ast
import difflib
import os
import re

from ..text import in_backticks, py_string, short

# Members proposed per collection.
MAX_MEMBERS = 3


def test_literals(gen):
    """{literal value: count} of strings and numbers in the failing tests' files, cached."""
    cached = gen.__dict__.get("_test_literals")
    if cached is not None:
        return cached
    found = {}
    for tree in getattr(gen.m, "test_trees", []):
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and type(n.value) in (str, int, float) and n.value not in ("", None):
                if isinstance(n.value, str) and ("\n" in n.value or len(n.value) > 40):
                    continue
                found[n.value] = found.get(n.value, 0) + 1
    gen.__dict__["_test_literals"] = found
    return found


def constant_collection(gen, name):
    """(the collection node, its members' values) of a module-level constant named `name`, else None."""
    cache = gen.__dict__.setdefault("_collections", {})
    if name in cache:
        return cache[name]
    found = None
    for n in gen.m.tree.body:
        target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else n.target if isinstance(n, ast.AnnAssign) else None
        if not isinstance(target, ast.Name) or target.id != name or n.value is None:
            continue
        value = n.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("frozenset", "set", "tuple") and len(value.args) == 1:
            value = value.args[0]
        elts = value.keys if isinstance(value, ast.Dict) else getattr(value, "elts", None) if isinstance(value, (ast.Set, ast.Tuple, ast.List)) else None
        if not elts or not all(isinstance(e, ast.Constant) for e in elts):
            found = None
            continue
        if isinstance(value, ast.Dict):
            values = {gen.src.seg(v) for v in value.values}
            if len(values) != 1:
                found = None
                continue
        found = (value, [e.value for e in elts])
    cache[name] = found
    return found


def pieces(value, members):
    """A test's literal and the parts of it a member may be: its extension when the members are
    extensions (`.rst` of "README.rst"), its words, in lower case when every member is."""
    out = [value]
    if all(m.startswith(".") for m in members):
        ext = os.path.splitext(value)[1]
        out = [ext] if ext else []
    else:
        out += [w for w in re.split(r"[^\w.+-]+", value) if w and w != value]
    if all(m == m.lower() for m in members):
        out = [p.lower() for p in out]
    return out


def likeness(member, others):
    """How much a value looks like a collection's members (larger is more alike)."""
    if isinstance(member, str):
        best = max(difflib.SequenceMatcher(None, member.lower(), o.lower()).ratio() for o in others)
        shape = lambda s: (s[:1] in ".-_/", s.islower(), s.isupper(), s.isalpha(), s.isdigit())  # noqa: E731
        alike = sum(shape(member) == shape(o) for o in others) / len(others)
        lengths = [len(o) for o in others]
        near = min(lengths) - 2 <= len(member) <= max(lengths) + 2
        return best + alike + (0.5 if near else 0)
    return 1.0 - min(abs(member - o) for o in others) / (1 + max(abs(o) for o in others))


def missing_member(gen, node):
    if not isinstance(node.ctx, ast.Load) or gen.m.enclosing_function(node) is None:
        return
    b = gen.m.visible(node, node.lineno).get(node.id)
    if b is None or b is not gen.m.module_scope.names.get(node.id):
        return
    found = constant_collection(gen, node.id)
    if found is None:
        return
    value, members = found
    kinds = {type(m) for m in members}
    if len(kinds) != 1 or kinds.pop() not in (str, int):
        return
    kind = type(members[0])
    options = []
    for v in test_literals(gen):
        for piece in pieces(v, members) if kind is str and isinstance(v, str) else [v]:
            if type(piece) is kind and piece not in members and piece not in options:
                options.append(piece)
    options.sort(key=lambda v: (-likeness(v, members), str(v)))
    last = value.keys[-1] if isinstance(value, ast.Dict) else value.elts[-1]
    at = gen.src.span(last)[1]
    tail = ""
    if isinstance(value, ast.Dict):
        tail = ": " + gen.src.seg(value.values[-1])
        at = gen.src.span(value.values[-1])[1]
        last = value.values[-1]
    text = gen.src.seg(last)
    quote = '"' if text.endswith('"') else "'"
    for i, member in enumerate(options[:MAX_MEMBERS]):
        literal = py_string(member, quote) if isinstance(member, str) else repr(member)
        claim = f"The constant {in_backticks(node.id)} (line {value.lineno}) lacks {in_backticks(literal)}, which the failing tests use: {in_backticks(short(gen.src.seg(last)))} should be followed by {in_backticks(literal + tail)}."
        gen.emit("missing-member", 2.4 + 0.2 * i, [(at, at, ", " + literal + tail)], claim, node, names=[node.id], literals=[literal])
