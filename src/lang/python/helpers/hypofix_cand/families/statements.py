"""Statement families: discarded-result, missing-guard, missing-copy, missing-call and
extended-expression (a term or a clamp left out).
"""

import ast
import re

from ..kinds import BUILTIN_NAMES, MUTATORS, NUMERIC
from ..text import in_backticks, short
from ..units import names_in, needs_parens, own_fields, walk_exprs


# discarded-result
def discarded_result(gen, unit):
    if not isinstance(unit, ast.Expr):
        return
    value = unit.value
    target = None
    if isinstance(value, ast.Call):
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in RETURNS_NEW and isinstance(func.value, (ast.Name, ast.Attribute)):
            target = func.value
        elif isinstance(func, ast.Name) and func.id in RETURNS_NEW_BUILTIN and value.args and isinstance(value.args[0], (ast.Name, ast.Attribute)):
            target = value.args[0]
    elif isinstance(value, ast.BinOp) and isinstance(value.left, (ast.Name, ast.Attribute)):
        target = value.left
    if target is None:
        return
    name = gen.src.seg(target)
    text = gen.src.seg(value)
    new = name + " = " + text
    claim = f"Line {unit.lineno} computes {in_backticks(short(text))} and drops the result: it should be {in_backticks(short(new))}."
    gen.replace("discarded-result", 1.6, value, new, claim, names=names_in(value))


# missing-guard
def missing_guard(gen, unit):
    if not isinstance(unit, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.If, ast.For, ast.While)):
        return
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    visible = gen.m.visible(unit, unit.lineno)
    risky = []  # (name text, guard conditions)
    for part in own_fields(unit):
        for n in walk_exprs(part, gen.m.skip):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                called = gen.m.parent.get(n)
                if not (isinstance(called, ast.Call) and called.func is n and n.attr in MUTATORS):
                    risky.append((n.value.id, ["{} is None"]))
            elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
                index = n.slice
                keyed = isinstance(index, ast.Constant) and isinstance(index.value, str) or isinstance(
                    index, (ast.Name, ast.Attribute)
                ) and gen.usage(n).get(gen.src.seg(index)) != "scalar" and gen.kind_at(index) not in NUMERIC
                if keyed and not isinstance(n.ctx, ast.Store):
                    risky.append((n.value.id, ["{} is None", gen.src.seg(index) + " not in {}"]))
                else:
                    risky.append((n.value.id, ["{} is None", "not {}"]))
            elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
                d = n.right
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "len" and d.args:
                    d = d.args[0]
                if isinstance(d, (ast.Name, ast.Attribute)):
                    risky.append((gen.src.seg(d), ["not {}"]))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("int", "float", "len", "max", "min", "sum") and n.args:
                if isinstance(n.args[0], ast.Name):
                    risky.append((n.args[0].id, ["not {}", "{} is None"]))
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
                if n.func.attr not in MUTATORS:
                    risky.append((n.func.value.id, ["not {}", "{} is None"]))
    if isinstance(unit, (ast.For,)) and isinstance(unit.iter, ast.Name):
        risky.append((unit.iter.id, ["{} is None"]))
    loops = gen.m.enclosing_loops(unit)
    exits = ["continue"] if loops else []
    exits += ["return " + r for r in gen.default_returns(fn)]
    done = set()
    count = 0
    for name, conditions in risky:
        base = name.split(".")[0]
        b = visible.get(base)
        if base in ("self", "cls") or b is None or b.role not in ("param", "local", "loop"):
            continue
        if b is gen.m.module_scope.names.get(base):
            continue
        if base == name and b.kind is not None and None not in b.kinds:
            conditions = [c for c in conditions if "is None" not in c]
        for k, cond in enumerate(conditions):
            test = cond.format(name)
            if (test) in done:
                continue
            done.add(test)
            count += 1
            for j, exit_ in enumerate(exits):
                change = gen.insert_before(unit, [f"if {test}:", f"    {exit_}"])
                if change is None:
                    return
                claim = f"Line {unit.lineno} runs even when {in_backticks(test)}; a guard is missing: {in_backticks('if ' + test + ': ' + exit_)} before it."
                gen.emit("missing-guard", 2.6 + 0.2 * k + 0.3 * j + 0.1 * count, [change], claim, unit, names=[name], before="", after=f"if {test}: {exit_}")
        if count >= 6:
            return


# missing-copy
def missing_copy(gen, unit):
    if isinstance(unit, ast.Return):
        value, prior = unit.value, 2.4
    elif isinstance(unit, ast.Assign) and len(unit.targets) == 1 and isinstance(unit.targets[0], ast.Name):
        value, prior = unit.value, 2.8
    else:
        return
    if not isinstance(value, (ast.Name, ast.Attribute)):
        return
    if isinstance(value, ast.Name):
        b = gen.m.visible(value, value.lineno).get(value.id)
        if b is None or b.role != "param":
            return  # a fresh local is nobody else's: copying it changes nothing
    kind = gen.kind_at(value)
    if kind is None and isinstance(value, ast.Name) and gen.usage(value).get(value.id) == "container":
        kind = "container"
    if kind not in ("dict", "list", "set", "container"):
        return
    text = gen.src.seg(value)
    options = [kind + "(" + text + ")"] if kind != "container" else [text + ".copy()", "list(" + text + ")"]
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        prior -= 0.3  # handing out internal state
    for i, new in enumerate(options):
        claim = f"Line {unit.lineno} hands out {in_backticks(text)} itself, so changes through one name show through the other: it should be a copy, {in_backticks(new)}."
        gen.replace("missing-copy", prior + 0.2 * i, value, new, claim, names=names_in(value))


# missing-call
def missing_call(gen, unit):
    """A method call on an object that a sibling method (or function) makes and this one does not,
    inserted before the statement (`self._data.move_to_end(key)` in `get` as in `set`), when every
    name it reads is bound here."""
    if not isinstance(unit, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
        return
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    cls = gen.m.class_of.get(fn)
    siblings = list(gen.m.methods.get(cls, {}).values()) if cls is not None else list(gen.m.functions.values())
    own = {gen.src.seg(n) for n in ast.walk(fn) if isinstance(n, ast.Expr)}
    visible = gen.m.visible(unit, unit.lineno)
    found = []
    for g in siblings:
        if g is fn:
            continue
        for n in ast.walk(g):
            if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)):
                continue
            if n.value.func.attr in SIDE_CALLS or isinstance(n.value.func.value, ast.Constant):
                continue  # filling containers is missing-append's; logging and I/O are not state a test sees
            text = gen.src.seg(n)
            if text in own or text in found or "\n" in text:
                continue
            names = [x.id for x in ast.walk(n) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)]
            if all(name in visible or name in BUILTIN_NAMES for name in names):
                found.append(text)
    for i, text in enumerate(found[:3]):
        change = gen.insert_before(unit, [text])
        if change is None:
            return
        claim = f"A call is missing before line {unit.lineno}: {in_backticks(short(text))}, as another function of the same code makes it."
        gen.emit("missing-call", 2.6 + 0.2 * i, [change], claim, unit, before="", after=text)


# missing clamp (extended-expression)
def missing_clamp(gen, unit):
    """`x += e` that should stop at a bound the object or function holds (`min(self.capacity,
    x + e)`), or `x -= e` that should not go below zero (`max(0, x - e)`)."""
    if not isinstance(unit, ast.AugAssign) or not isinstance(unit.op, (ast.Add, ast.Sub)):
        return
    target = unit.target
    if not isinstance(target, (ast.Name, ast.Attribute)) or gen.not_numeric(target):
        return
    text = gen.src.seg(target)
    value = gen.src.seg(unit.value)
    value = "(" + value + ")" if isinstance(unit.value, (ast.BoolOp, ast.IfExp, ast.Lambda)) else value
    options = []
    if isinstance(unit.op, ast.Add):
        bounds = []
        cls = gen.method_class(unit) if isinstance(target, ast.Attribute) else None
        if cls is not None:
            bounds += ["self." + a for a in gen.m.class_attributes.get(cls, {}) if UPPER_BOUND.search(a)]
        visible = gen.m.visible(unit, unit.lineno)
        bounds += [n for n, b in visible.items() if b.role in ("param", "local") and UPPER_BOUND.search(n)]
        for i, bound in enumerate(b for b in bounds if b != text):
            options.append((2.4 + 0.1 * i, f"{text} = min({bound}, {text} + {value})", f"stop at {bound}"))
    else:
        options.append((2.9, f"{text} = max(0, {text} - {value})", "not go below zero"))
    start, end = gen.src.span(unit)
    for prior, new, why in options[:4]:
        claim = f"Line {unit.lineno} lets {in_backticks(text)} run past its bound: it should {why}, {in_backticks(new)}."
        gen.emit("extended-expression", prior, [(start, end, new)], claim, unit, names=[text], before=gen.src.seg(unit), after=new)


# extended-expression
def extended_expression(gen, unit):
    if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ExceptHandler)):
        return
    nodes = gen.exprs(unit)
    delta = None
    if "timedelta" in gen.m.imports:
        delta = "timedelta(days=1)"
    elif "datetime" in gen.m.imports and "datetime" not in [a for a in gen.m.imports if False]:
        delta = "datetime.timedelta(days=1)" if _imports_module(gen, "datetime") else None
    for node in nodes:
        if not isinstance(node, (ast.Name, ast.Attribute, ast.Call)) or id(node) in gen.m.skip:
            continue
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "len"):
            continue
        parent = gen.m.parent.get(node)
        position = (
            isinstance(parent, ast.Compare)
            or isinstance(parent, (ast.Return, ast.Assign, ast.AugAssign)) and parent.value is node
            or isinstance(parent, ast.keyword)
            or isinstance(parent, ast.Call) and node in parent.args and not (isinstance(parent.func, ast.Name) and parent.func.id == "range")
        )
        if not position or isinstance(getattr(node, "ctx", None), ast.Store):
            continue
        if isinstance(node, ast.Name) and (node.id in BUILTIN_NAMES or node.id in ("self", "cls")):
            continue
        text = gen.src.seg(node)
        kind = gen.kind_at(node)
        if kind in ("str", "list", "dict", "set", "tuple", "bool") or gen.not_numeric(node):
            continue
        if isinstance(node, ast.Name) and gen.usage(node).get(node.id) in ("container", "text"):
            continue
        dateish = any(w in text.lower() for w in DATE_WORDS)
        wrap = lambda t: "(" + t + ")" if needs_parens(node, gen.m) else t
        options = []
        if kind in NUMERIC or (kind is None and not dateish):
            options += [(3.0, text + " + 1"), (3.2, text + " - 1")]
        if delta is not None and dateish and kind not in NUMERIC:
            p = 2.4 if dateish else 3.4
            options += [(p, text + " + " + delta), (p + 0.2, text + " - " + delta)]
        if isinstance(parent, (ast.Return, ast.Assign, ast.AugAssign)) and not isinstance(node, ast.Call):
            # A term left out: `qty` where `qty - short.available` is meant, the term read just above.
            for i, term in enumerate(nearby_terms(gen, node, text)):
                options += [(2.6 + 0.2 * i, text + " - " + term), (2.9 + 0.2 * i, text + " + " + term)]
        for prior, new in options:
            claim = f"At line {node.lineno} {in_backticks(short(text))} is not the value meant: it should be {in_backticks(short(new))}."
            gen.replace("extended-expression", prior, node, wrap(new), claim, names=names_in(node))


def nearby_terms(gen, node, text, above=6, limit=3):
    """Attribute reads (`short.available`) of the few lines above node in its function, nearest
    first, that may be numbers: the terms an assignment there may have left out."""
    fn = gen.m.enclosing_function(node)
    if fn is None:
        return []
    found = []
    for n in gen.own_nodes(fn):
        if not isinstance(n, ast.Attribute) or not isinstance(n.ctx, ast.Load) or id(n) in gen.m.skip:
            continue
        if not (node.lineno - above <= n.lineno < node.lineno) or not isinstance(n.value, ast.Name):
            continue
        parent = gen.m.parent.get(n)
        if isinstance(parent, (ast.Call, ast.Attribute)) and getattr(parent, "func", None) is n or isinstance(parent, ast.Attribute):
            continue  # a method called, or an object read through
        term = gen.src.seg(n)
        if term == text or term in text or gen.not_numeric(n):
            continue
        found.append((node.lineno - n.lineno, n.col_offset, term))
    out = []
    for _, _, term in sorted(found):
        if term not in out:
            out.append(term)
    return out[:limit]


def _imports_module(gen, name):
    for n in gen.m.tree.body:
        if isinstance(n, ast.Import) and any(a.name == name and a.asname is None for a in n.names):
            return True
    return False


# Methods and functions that return a new value and leave their argument as it was.
RETURNS_NEW = {
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize", "replace",
    "format", "zfill", "center", "ljust", "rjust", "removeprefix", "removesuffix", "union",
    "intersection", "difference", "symmetric_difference", "quantize", "normalize", "astimezone",
}


RETURNS_NEW_BUILTIN = {"sorted", "reversed", "round", "abs", "int", "float", "str", "list", "set", "tuple"}


# Method calls missing_call does not copy between functions.
SIDE_CALLS = {
    "append", "extend", "add", "update", "debug", "info", "warning", "warn", "error", "exception",
    "critical", "log", "write", "writelines", "flush", "close", "print",
}


# Names of an upper bound a running total may have to stop at.
UPPER_BOUND = re.compile(r"(^|_)(cap|capacity|max|maximum|limit|ceiling|most|size|burst)(_|$)", re.IGNORECASE)


DATE_WORDS = ("date", "day", "end", "start", "until", "since", "due", "expir", "deadline", "when", "time", "at")
