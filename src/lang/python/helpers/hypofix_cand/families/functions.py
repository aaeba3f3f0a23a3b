"""Function families: missing-init, missing-return, missing-reset, missing-append and
mutable-default.
"""

import ast

from ..kinds import BUILTIN_NAMES, FRESH_CALLS, MUTATORS, is_fresh, kind_of_value
from ..scopes import n_params
from ..text import in_backticks, short
from ..units import names_in


# missing-init
def missing_init(gen, fn):
    nodes = list(gen.own_nodes(fn))
    scope = gen.m.scope_of.get(fn)
    if scope is None:
        return
    assigned = set()
    for n in nodes:
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr, ast.comprehension)):
            for t in ([n.target] if hasattr(n, "target") else getattr(n, "targets", [])) + [
                i.optional_vars for i in getattr(n, "items", []) if i.optional_vars is not None
            ]:
                assigned.update(x.id for x in ast.walk(t) if isinstance(x, ast.Name))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            assigned.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assigned.add(n.name)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            assigned.add(n.name)
    params = {b for b, v in scope.names.items() if v.role == "param"}
    outer = set()
    s = scope.parent
    while s is not None:
        outer.update(s.names)
        s = s.parent
    missing = {}
    for n in nodes:
        if isinstance(n, ast.Name) and n.id not in assigned and n.id not in params and n.id not in scope.globals:
            if n.id in outer or n.id in BUILTIN_NAMES:
                continue
            missing.setdefault(n.id, []).append(n)
    for name, uses in missing.items():
        init = initial_value(gen, name, nodes)
        first = min(uses, key=lambda u: (u.lineno, u.col_offset))
        anchor = top_statement_in(gen, fn, first)
        if anchor is None:
            continue
        inits = [(1.0, init)]
        if init == "None":
            # Nothing says what kind of value: a parameter passed through a one-argument function
            # of this module (`cleaned = normalize(text)`), or the parameter itself.
            params = [a.arg for a in fn.args.args if a.arg not in ("self", "cls")][:3]
            helpers = [f for f, node in gen.m.functions.items() if node is not fn and n_params(node) == 1][:4]
            inits += [(1.3 + 0.1 * i, f"{f}({p})") for i, (f, p) in enumerate((f, p) for f in helpers for p in params)]
            inits += [(1.6 + 0.1 * i, p) for i, p in enumerate(params)]
        for prior, value in inits:
            change = gen.insert_before(anchor, [f"{name} = {value}"])
            if change is None:
                break
            claim = f"{in_backticks(name)} is used in {in_backticks(fn.name)} but never given a value: {in_backticks(name + ' = ' + value)} is missing before line {anchor.lineno}."
            gen.emit("missing-init", prior, [change], claim, fn, names=[name], literals=[value])


def initial_value(gen, name, nodes):
    for n in nodes:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            if n.func.attr in ("append", "extend", "insert", "pop", "sort"):
                return "[]"
            if n.func.attr in ("add", "discard"):
                return "set()"
            if n.func.attr in ("get", "setdefault", "items", "keys", "values", "update"):
                return "{}"
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name and isinstance(n.ctx, ast.Store):
            return "{}"
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            kind = kind_of_value(n.value)
            return '""' if kind == "str" else "[]" if kind == "list" else "0"
    return "None"


def top_statement_in(gen, fn, node):
    """The statement of fn's own body that holds node."""
    while node is not None and gen.m.parent.get(node) is not fn:
        node = gen.m.parent.get(node)
    if node is None or node not in fn.body:
        return None
    return node


def missing_return(gen, fn):
    if fn.name.startswith("__") or fn.name.startswith("test"):
        return
    nodes = list(gen.own_nodes(fn))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return
    last = fn.body[-1]
    if isinstance(last, ast.Expr) and not (isinstance(last.value, ast.Constant) and isinstance(last.value.value, str)):
        call = isinstance(last.value, ast.Call)
        if not (call and isinstance(last.value.func, ast.Attribute) and last.value.func.attr in MUTATORS) and not (
            call and isinstance(last.value.func, ast.Name) and last.value.func.id == "print"
        ):
            text = gen.src.seg(last.value)
            claim = f"{in_backticks(fn.name)} computes {in_backticks(short(text))} at line {last.lineno} but does not return it."
            gen.replace("missing-return", 1.7 if not call else 2.3, last.value, "return " + text, claim, names=names_in(last.value))
    if any(isinstance(n, ast.Return) and n.value is not None for n in nodes):
        return
    scope = gen.m.scope_of.get(fn)
    if scope is None:
        return
    accumulators = []
    others = []
    for n in nodes:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            (accumulators if is_fresh(n.value) else others).append((n.lineno, name))
    ordered = [nm for _, nm in sorted(accumulators)] + [nm for _, nm in sorted(others, reverse=True)]
    seen = []
    for name in ordered:
        if name not in seen:
            seen.append(name)
    body_indent = gen.src.indent_of(fn.body[0].lineno) if fn.body[0].lineno != fn.lineno else None
    if body_indent is None:
        return
    for i, name in enumerate(seen[:4]):
        change = gen.insert_after(last, ["return " + name], indent=body_indent)
        if change is None:
            return
        claim = f"{in_backticks(fn.name)} builds {in_backticks(name)} but never returns it: {in_backticks('return ' + name)} is missing at its end."
        gen.emit("missing-return", 1.8 + 0.3 * i, [change], claim, fn, names=[name])


def mutated_names(gen, nodes):
    """{text of the mutated name or self-attribute: first node mutating it}."""
    out = {}
    for n in nodes:
        target = None
        if isinstance(n, ast.AugAssign):
            target = n.target
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
            target = n.func.value
        elif isinstance(n, (ast.Assign,)) and any(isinstance(t, ast.Subscript) for t in n.targets):
            target = next(t.value for t in n.targets if isinstance(t, ast.Subscript))
        if target is not None and (
            isinstance(target, ast.Name)
            or isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
        ):
            out.setdefault(gen.src.seg(target), n)
    return out


def missing_reset(gen, fn):
    nodes = list(gen.own_nodes(fn))
    inits = {}  # name -> (line, init text)
    for n in nodes:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_fresh(n.value):
            inits.setdefault(n.targets[0].id, (n.lineno, gen.src.seg(n.value)))
    loops = [n for n in nodes if isinstance(n, (ast.For, ast.While))]
    for loop in loops:
        inside = [n for b in loop.body for n in ast.walk(b)]
        mutated = mutated_names(gen, inside)
        for name, where in mutated.items():
            if name not in inits or inits[name][0] >= loop.lineno:
                continue
            reads = sum(1 for n in inside if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
            nested = any(isinstance(n, (ast.For, ast.While)) for n in inside)
            if not nested and reads <= 1:
                continue  # a plain accumulation (`total += x`) is meant to carry over
            prior = 2.0 if nested else 2.6
            change = gen.insert_before(loop.body[0], [f"{name} = {inits[name][1]}"])
            if change is None:
                continue
            claim = f"{in_backticks(name)} carries its value from one pass of the loop at line {loop.lineno} into the next: it should start again from {in_backticks(inits[name][1])} at the top of each pass."
            gen.emit("missing-reset", prior, [change], claim, loop, names=[name])
    # A method mutating an attribute that __init__ starts empty: reset at the top of the method.
    cls = gen.m.class_of.get(fn)
    if cls is not None and fn.name != "__init__":
        init = gen.m.methods.get(cls, {}).get("__init__")
        fresh = {}
        if init is not None:
            for n in ast.walk(init):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and is_fresh(n.value):
                    t = n.targets[0]
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        fresh["self." + t.attr] = gen.src.seg(n.value)
        for name in mutated_names(gen, nodes):
            if name in fresh:
                change = gen.insert_at_top(fn, [f"{name} = {fresh[name]}"])
                if change is None:
                    continue
                claim = f"{in_backticks(fn.name)} adds to {in_backticks(name)} what earlier calls left there: it should start again from {in_backticks(fresh[name])}."
                gen.emit("missing-reset", 2.8, [change], claim, fn, names=[name])
    # A module-level container the function fills: state carried across calls.
    module_fresh = {}
    for n in gen.m.tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_fresh(n.value):
            module_fresh[n.targets[0].id] = gen.src.seg(n.value)
    for name in mutated_names(gen, nodes):
        if name in module_fresh and name not in inits:
            scope = gen.m.scope_of.get(fn)
            prefix = [f"global {name}"] if scope is not None and name in scope.globals else []
            if prefix:
                continue  # the function means to share it
            change = gen.insert_at_top(fn, [f"{name} = {module_fresh[name]}"])
            if change is None:
                continue
            claim = f"{in_backticks(fn.name)} fills the module-level {in_backticks(name)}, so one call sees what earlier calls left: it should start from a new {in_backticks(module_fresh[name])}."
            gen.emit("missing-reset", 3.2, [change], claim, fn, names=[name])


def missing_append(gen, fn):
    nodes = list(gen.own_nodes(fn))
    loops = [n for n in nodes if isinstance(n, (ast.For, ast.While))]
    for loop in loops:
        inside = [n for b in loop.body for n in ast.walk(b)]
        for call in inside:
            if not (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "append"
                and isinstance(call.func.value, ast.Name)
                and len(call.args) == 1
                and isinstance(call.args[0], ast.Name)
            ):
                continue
            acc, item = call.func.value.id, call.args[0].id
            # The last group is never flushed: append it after the loop.
            rebound = any(
                isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == item for t in n.targets)
                for n in inside
            )
            if rebound and gen.enclosing_loop_of(call) is loop:
                for k, lines in enumerate(([f"if {item}:", f"    {acc}.append({item})"], [f"{acc}.append({item})"])):
                    change = gen.insert_after(loop, lines)
                    if change is None:
                        break
                    claim = f"The loop at line {loop.lineno} appends {in_backticks(item)} to {in_backticks(acc)} only when a new one starts, so the last {in_backticks(item)} is never added after the loop."
                    gen.emit("missing-append", 2.0 + 0.3 * k, [change], claim, loop, names=[acc, item])
        # A branch that forgets to append what the other branch appends.
        for node in inside:
            if isinstance(node, ast.If) and node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
                for body, other in ((node.body, node.orelse), (node.orelse, node.body)):
                    appends = [
                        s for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                        and isinstance(s.value.func, ast.Attribute) and s.value.func.attr in ("append", "add")
                    ]
                    if not appends or any(gen.src.seg(a) == gen.src.seg(s) for a in appends for s in other):
                        continue
                    if isinstance(other[-1], (ast.Return, ast.Continue, ast.Break, ast.Raise)):
                        continue
                    stmt = gen.src.seg(appends[0])
                    change = gen.insert_after(other[-1], [stmt])
                    if change is None:
                        continue
                    claim = f"One branch of the {in_backticks('if')} at line {node.lineno} does {in_backticks(short(stmt))} and the other forgets to."
                    gen.emit("missing-append", 2.8, [change], claim, node, names=names_in(appends[0]))


def mutable_default(gen, fn):
    args = fn.args
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    for arg, default in pairs:
        mutable = isinstance(default, (ast.List, ast.Dict, ast.Set)) or (
            isinstance(default, ast.Call) and isinstance(default.func, ast.Name) and default.func.id in FRESH_CALLS
        )
        if not mutable:
            continue
        text = gen.src.seg(default)
        start, end = gen.src.span(default)
        guard = gen.insert_at_top(fn, [f"if {arg.arg} is None:", f"    {arg.arg} = {text}"])
        if guard is None:
            continue
        claim = (
            f"The default {in_backticks(arg.arg + '=' + short(text))} of {in_backticks(fn.name)} (line {fn.lineno}) "
            f"is one object shared by every call, so what one call puts in it leaks into the next: default to "
            f"{in_backticks('None')} and make a new {in_backticks(short(text))} in each call."
        )
        gen.emit("mutable-default", 0.9, [(start, end, "None"), guard], claim, fn, names=[arg.arg], literals=[text])
