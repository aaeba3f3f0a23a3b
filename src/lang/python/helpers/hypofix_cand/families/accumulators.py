"""Accumulators never kept up to date.

missing-update: a container the function starts empty and only ever reads — a counter read with
`d.get(k, 0)` and never stored back, a `seen` set tested with `in` and never added to — gets the
update after the read.

missing-reset, where a copy is made: `new = copy.copy(self)` (or `dataclasses.replace`,
`type(self)(...)`) shares the mutable fields of the original; the copy's field should start
again (`new.items = []`) or be a copy of its own (`new.items = list(self.items)`).
"""

import ast

from ..kinds import MUTATORS, is_fresh
from ..text import in_backticks, short

# Fields a copy is given a fresh value of, at most.
MAX_FIELDS = 3


def container_kind(node):
    if isinstance(node, (ast.Dict,)) or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("dict", "defaultdict", "Counter", "OrderedDict"):
        return "dict"
    if isinstance(node, ast.Set) or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "set":
        return "set"
    if isinstance(node, ast.List) or isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "deque"):
        return "list"
    return None


def written(nodes):
    """Names stored into, updated in place, rebound or deleted from in these nodes."""
    out = {}
    for n in nodes:
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out[n.value.id] = out.get(n.value.id, 0) + 1
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
            if n.func.attr in MUTATORS:
                out[n.func.value.id] = out.get(n.func.value.id, 0) + 1
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out[n.id] = out.get(n.id, 0) + 1
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.args and isinstance(n.args[0], ast.Name):
            out[n.args[0].id] = out.get(n.args[0].id, 0) + 1  # passed on: maybe filled there
    return out


def missing_update(gen, fn):
    nodes = list(gen.own_nodes(fn))
    empties = {}
    for n in nodes:
        target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else n.target if isinstance(n, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and n.value is not None and is_fresh(n.value) and container_kind(n.value):
            empties.setdefault(target.id, container_kind(n.value))
    if not empties:
        return
    counts = written(nodes)
    idle = {name: kind for name, kind in empties.items() if counts.get(name, 0) == 1}  # its one write is the start
    for n in nodes:
        if not isinstance(n, ast.stmt) or not gen.m.enclosing_loops(n):
            continue
        # `count = seen.get(key, 0)`: store the count back.
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call):
            call = n.value
            func = call.func
            if (
                isinstance(func, ast.Attribute) and func.attr == "get" and isinstance(func.value, ast.Name)
                and idle.get(func.value.id) == "dict" and len(call.args) == 2
                and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, int)
            ):
                store = f"{func.value.id}[{gen.src.seg(call.args[0])}] = {n.targets[0].id} + 1"
                emit_update(gen, fn, func.value.id, [gen.insert_after(n, [store])], store, n.lineno, 2.2)
        # `if key in seen:` / `if key not in seen:`: record the key.
        if isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and len(n.test.ops) == 1:
            op, right = n.test.ops[0], n.test.comparators[0]
            if not (isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Name) and idle.get(right.id) in ("set", "list")):
                continue
            kind = idle[right.id]
            store = f"{right.id}.{'add' if kind == 'set' else 'append'}({gen.src.seg(n.test.left)})"
            places = []
            if isinstance(op, ast.NotIn) and n.body:
                last = n.body[-1]
                places.append(gen.insert_before(last, [store]) if isinstance(last, (ast.Return, ast.Continue, ast.Break)) else gen.insert_after(last, [store], indent=gen.src.indent_of(last.lineno)))
            if not n.orelse:
                places.append(gen.insert_after(n, [store]))
            for i, change in enumerate(places):
                emit_update(gen, fn, right.id, [change], store, n.lineno, 2.2 + 0.3 * i)


def emit_update(gen, fn, name, changes, store, line, prior):
    if None in changes:
        return
    claim = f"{in_backticks(fn.name)} starts {in_backticks(name)} empty and reads it at line {line} but never fills it: {in_backticks(short(store))} is missing there."
    gen.emit("missing-update", prior, changes, claim, fn, names=[name], after=store)


def copied_object(gen, value, fn):
    """(the expression copied, its class) when value makes a copy of an object, else None."""
    if not isinstance(value, ast.Call):
        return None
    func = gen.src.seg(value.func)
    source = None
    if func in ("copy.copy", "copy", "replace", "dataclasses.replace") and value.args:
        source = value.args[0]
    elif func in ("type(self)", "self.__class__"):
        source = ast.Name(id="self")
    if source is None:
        return None
    cls = None
    if isinstance(source, ast.Name) and source.id == "self":
        cls = gen.m.class_of.get(fn)
    elif isinstance(source, ast.Name):
        for a in fn.args.args:
            if a.arg == source.id and isinstance(a.annotation, ast.Name):
                cls = next((c for c in gen.m.methods if c.name == a.annotation.id), None)
                cls = cls or next((n for n in gen.m.tree.body if isinstance(n, ast.ClassDef) and n.name == a.annotation.id), None)
    if cls is None:
        return None
    return (source.id if isinstance(source, ast.Name) else gen.src.seg(source)), cls


def mutable_fields(gen, cls):
    """{field: its fresh value text} of a class: `self.x = []` in __init__, `x: list = field(default_factory=list)`."""
    out = {}
    init = gen.m.methods.get(cls, {}).get("__init__")
    for n in ast.walk(init) if init is not None else []:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and container_kind(n.value) and is_fresh(n.value):
            t = n.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.setdefault(t.attr, gen.src.seg(n.value))
    for n in cls.body:
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and isinstance(n.value, ast.Call):
            for k in n.value.keywords:
                if k.arg == "default_factory" and isinstance(k.value, ast.Name) and k.value.id in ("list", "dict", "set"):
                    out.setdefault(n.target.id, k.value.id + "()")
    return out


def copy_reset(gen, fn):
    for n in gen.own_nodes(fn):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
            continue
        found = copied_object(gen, n.value, fn)
        if found is None:
            continue
        source, cls = found
        copy = n.targets[0].id
        given = {
            m.targets[0].attr for m in gen.own_nodes(fn)
            if isinstance(m, ast.Assign) and len(m.targets) == 1 and isinstance(m.targets[0], ast.Attribute)
            and isinstance(m.targets[0].value, ast.Name) and m.targets[0].value.id == copy
        }
        keywords = {k.arg for k in n.value.keywords}
        fields = [(f, v) for f, v in mutable_fields(gen, cls).items() if f not in given and f not in keywords]
        for i, (field, fresh) in enumerate(fields[:MAX_FIELDS]):
            kind = container_kind(ast.parse(fresh, mode="eval").body) or "list"
            for j, value in enumerate((fresh, f"{kind}({source}.{field})")):
                line = f"{copy}.{field} = {value}"
                change = gen.insert_after(n, [line])
                if change is None:
                    return
                claim = f"The copy {in_backticks(copy)} made at line {n.lineno} shares {in_backticks(source + '.' + field)} with the original: {in_backticks(line)} is missing after it."
                gen.emit("missing-reset", 2.3 + 0.2 * i + 0.3 * j, [change], claim, fn, names=[copy, field], after=line)
