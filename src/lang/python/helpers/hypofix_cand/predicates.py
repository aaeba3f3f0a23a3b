"""Tests of one name that a condition may be missing: `x is None` where the name may be None,
`not x` where it is a container or text, comparisons with the literals the function already
compares it (or names like it) with. Shared by the families that add a conjunct, a disjunct or
an early return.
"""

import ast

from .kinds import NUMERIC, type_class
from .scopes import Binding


def literal_comparisons(gen, fn):
    """{name: [literal text]} of `name <op> literal` (either way round) in the function, and every
    literal (numbers and short strings) it compares with anything, in order of appearance."""
    key = ("literal_comparisons", id(fn))
    cache = gen.__dict__.setdefault("_predicates", {})
    if key in cache:
        return cache[key]
    by_name, every = {}, []
    for n in ast.walk(fn):
        if not isinstance(n, ast.Compare) or len(n.ops) != 1:
            continue
        sides = [n.left, n.comparators[0]]
        for a, b in (sides, sides[::-1]):
            if isinstance(b, ast.Constant) and b.value is not None and not isinstance(b.value, bool):
                if isinstance(b.value, str) and len(b.value) > 30:
                    continue
                text = gen.src.seg(b)
                if text not in every:
                    every.append(text)
                if isinstance(a, ast.Name):
                    seen = by_name.setdefault(a.id, [])
                    if text not in seen:
                        seen.append(text)
    cache[key] = (by_name, every)
    return cache[key]


def may_be_none(gen, fn, name, node):
    """Whether the name may hold None: a None default, a `name = None` in the function, an
    Optional annotation, or None seen there when the failing test ran."""
    for arg, default in param_defaults(fn):
        if arg == name and isinstance(default, ast.Constant) and default.value is None:
            return True
    for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs:
        shown = ast.dump(a.annotation) if a.arg == name and a.annotation is not None else ""
        if "Optional" in shown or "value=None" in shown:
            return True
    return name in none_assigned(gen, fn) or gen.type_near(name, node) == "NoneType"


def none_assigned(gen, fn):
    """The names a function assigns None to (`x = None`), cached."""
    cache = gen.__dict__.setdefault("_predicates", {})
    key = ("none_assigned", id(fn))
    if key not in cache:
        cache[key] = {
            t.id
            for n in gen.own_nodes(fn)
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and n.value.value is None
            for t in n.targets
            if isinstance(t, ast.Name)
        }
    return cache[key]


def param_defaults(fn):
    args = fn.args.posonlyargs + fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    out = [(a.arg, d) for a, d in zip(args, defaults)]
    out += [(a.arg, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults)]
    return out


def kind_class(gen, name, node):
    """"container", "text", "scalar", "bool" or None: what the name holds, as far as known."""
    b = gen.m.visible(node, node.lineno).get(name)
    kind = b.kind if b is not None else None
    fn = gen.m.enclosing_function(node) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else node
    flag = fn is not None and any(
        arg == name and isinstance(d, ast.Constant) and isinstance(d.value, bool) for arg, d in param_defaults(fn)
    )
    if kind == "bool" or flag or gen.type_near(name, node) == "bool":
        return "bool"
    if kind in NUMERIC:
        return "scalar"
    if kind == "str":
        return "text"
    if kind in ("list", "dict", "set", "tuple"):
        return "container"
    seen = type_class(gen.type_near(name, node))
    if seen == "number":
        return "scalar"
    if seen in ("container", "text", "bool"):
        return seen
    return gen.usage(node).get(name)


def tests_of(gen, fn, name, node, limit=4):
    """Tests of `name` at `node`, likeliest first: each (text, what it says)."""
    out = []
    by_name, every = literal_comparisons(gen, fn)
    cls = kind_class(gen, name, node)
    if may_be_none(gen, fn, name, node) or cls is None:
        out += [f"{name} is None", f"{name} is not None"]
    if cls == "bool":
        out = [f"not {name}", name]
    if cls in ("container", "text", "bool", None):
        out += [f"not {name}", name]
    own = by_name.get(name, [])
    for lit in own:
        out += [f"{name} == {lit}", f"{name} != {lit}"]
    if cls == "scalar":
        out += [f"{name} == 0", f"not {name}"]
        out += [f"{name} == {lit}" for lit in every if lit not in own and not lit.startswith(("'", '"'))][:2]
    elif cls == "text":
        out += [f"{name} == {lit}" for lit in every if lit not in own and lit.startswith(("'", '"'))][:2]
    seen = []
    for t in out:
        if t not in seen:
            seen.append(t)
    return seen[:limit]


def names_near(gen, node, fn, first=()):
    """Parameters and locals a reader at `node` in `fn` sees (not self or cls, not module names),
    the names in `first` first, then the function's parameters, then the other locals; inside a
    comprehension its own variables first of all."""
    visible = dict(gen.m.visible(node, node.lineno))
    own = comprehension_names(gen, node)
    for name in own:
        visible[name] = Binding(name, node.lineno, "comprehension")
    module = gen.m.module_scope.names
    ok = lambda n: n in visible and n not in ("self", "cls") and visible[n].role in ("param", "local", "loop", "comprehension") and visible[n] is not module.get(n)
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
    out = []
    for n in own + list(first) + params + sorted(visible, key=lambda k: -visible[k].line):
        if ok(n) and n not in out:
            out.append(n)
    return out


def comprehension_names(gen, node):
    """The names the comprehensions around `node` bind, innermost first."""
    out = []
    n = gen.m.parent.get(node)
    while n is not None and not isinstance(n, ast.stmt):
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for g in n.generators:
                out += [t.id for t in ast.walk(g.target) if isinstance(t, ast.Name) and t.id not in out]
        n = gen.m.parent.get(n)
    return out
