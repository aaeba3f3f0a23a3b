"""changed-identifier and changed-attribute: a name or attribute where another in scope is meant.
"""

import ast
import difflib

from ..kinds import BUILTIN_NAMES, CLASS_OF_KIND, MUTATORS, compatible, type_class
from ..text import in_backticks, short


# changed-identifier
def changed_identifier(gen, node):
    if id(node) in gen.m.skip or node.id in ("self", "cls"):
        return
    parent = gen.m.parent.get(node)
    if isinstance(parent, ast.Call) and parent.func is node:
        return  # call_families: wrong-function
    if isinstance(node.ctx, ast.Del):
        return
    line = node.lineno
    visible = gen.m.visible(node, line)
    mine = visible.get(node.id)
    if mine is not None and mine.role in ("function", "class", "import"):
        return
    if mine is None and node.id in BUILTIN_NAMES:
        return
    kind = mine.kind if mine is not None else None
    usage = gen.usage(node)
    use = CLASS_OF_KIND.get(kind) or usage.get(node.id)
    unit_names = gen.unit_names()
    hinted = set(gen.hints.get("names", []))
    options = []
    for name, b in visible.items():
        if name == node.id or b.role in ("function", "class", "import") or name in ("self", "cls"):
            continue
        other_use = CLASS_OF_KIND.get(b.kind) or usage.get(name)
        # A name of another type is a rarer slip (it mostly fails loudly), not an impossible one.
        mismatch = not compatible(kind, b.kind) or (use is not None and other_use is not None and use != other_use)
        if isinstance(node.ctx, ast.Store) and b.role == "param":
            continue
        local = b.role != "global" and b is not gen.m.module_scope.names.get(name)
        prior = (2.4 if name in unit_names else 2.8 if local else 3.4) + (1.2 if mismatch else 0)
        if name in hinted:
            prior -= 1.0
        if kind is not None and b.kind == kind:
            prior -= 0.2
        ratio = difflib.SequenceMatcher(None, node.id, name).ratio()
        prior -= 0.4 * ratio
        fn = gen.m.enclosing_function(node)
        unused = unused_names(gen, fn) if fn is not None else {}
        if name in unused and isinstance(node.ctx, ast.Load):
            # A value computed and never read is likely the one meant where another is read.
            prior -= 1.2 if unused[name] == "local" else 0.6
        mine_type = type_class(gen.runtime_type(node))
        other_type = type_class(gen.type_near(name, node))
        if mine_type is not None and other_type is not None and mine_type != other_type:
            prior += 1.5  # the failing test showed the two holding different types
        options.append((prior, name))
    # `x` where `self.x` was meant.
    cls = gen.method_class(node)
    if cls is not None and isinstance(node.ctx, ast.Load):
        attrs = gen.m.class_attributes.get(cls, {})
        if node.id in attrs:
            options.append((2.2, "self." + node.id))
    if isinstance(node.ctx, ast.Store):
        options = [(p + 0.8, n) for p, n in options]
    options.sort()
    for prior, name in options[:12]:
        where = "assigns to" if isinstance(node.ctx, ast.Store) else "uses"
        claim = f"Line {line} {where} {in_backticks(node.id)} where {in_backticks(name)} is meant."
        gen.replace("changed-identifier", prior, node, name, claim, names=[node.id, name])


def unused_names(gen, fn):
    """{name: "local" | "param"} of fn's parameters and assigned locals whose value is never
    read, in fn or a function nested in it (adding to a container or storing into it is no
    read). Loop, `with` and `except` names are left out: an unused one is common in sound code."""
    cache = gen.__dict__.setdefault("_unused", {})
    if id(fn) in cache:
        return cache[id(fn)]
    bound = {}
    for a in list(getattr(fn.args, "posonlyargs", [])) + list(fn.args.args) + list(fn.args.kwonlyargs):
        bound.setdefault(a.arg, "param")
    reads = set()
    for n in ast.walk(fn):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                for x in ast.walk(t):
                    if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                        bound.setdefault(x.id, "local")
        if not isinstance(n, ast.Name) or not isinstance(n.ctx, ast.Load):
            continue
        parent = gen.m.parent.get(n)
        if isinstance(parent, ast.Attribute) and parent.value is n and parent.attr in MUTATORS:
            call = gen.m.parent.get(parent)
            if isinstance(call, ast.Call) and call.func is parent:
                continue
        if isinstance(parent, ast.Subscript) and parent.value is n and isinstance(parent.ctx, (ast.Store, ast.Del)):
            continue
        reads.add(n.id)
    out = {name: role for name, role in bound.items() if name not in reads and not name.startswith("_") and name not in ("self", "cls")}
    cache[id(fn)] = out
    return out


# changed-attribute
def changed_attribute(gen, node):
    if id(node) in gen.m.skip:
        return
    parent = gen.m.parent.get(node)
    if isinstance(parent, ast.Call) and parent.func is node:
        return  # call_families: wrong-function
    base = gen.src.seg(node.value)
    if base in gen.m.imports:
        return  # a module's constant: changed-identifier of a module is rarely the fix
    options = []
    hinted = set(gen.hints.get("attributes", []))
    cls = gen.method_class(node) if base == "self" else None
    same_base = set(gen.m.attributes.get(base, set()))
    if cls is not None:
        same_base |= set(gen.m.class_attributes.get(cls, {}))
        same_base -= set(gen.m.methods.get(cls, {}))
    kinds = {}  # attribute -> its kind, in the classes that have this attribute
    if cls is None:
        # An object of a class defined here or imported from the repository that has this
        # attribute: its other attributes.
        for attrs in list(gen.m.class_attributes.values()) + gen.m.foreign_attributes:
            if node.attr in attrs:
                same_base |= set(attrs)
                for name, kind in attrs.items():
                    kinds.setdefault(name, kind)
    for name in sorted(same_base | (hinted - {node.attr})):
        if name == node.attr:
            continue
        ratio = difflib.SequenceMatcher(None, node.attr, name).ratio()
        prior = 2.3 - 0.4 * ratio - (1.0 if name in hinted else 0)
        if cls is not None:
            kind = gen.m.class_attributes.get(cls, {}).get(node.attr)
            if not compatible(kind, gen.m.class_attributes.get(cls, {}).get(name)):
                continue
        elif kinds.get(node.attr) is not None and kinds.get(name) is not None:
            # Declared types (annotations, property return types): `issued` and `due` are both dates.
            prior += -0.5 if kinds[node.attr] == kinds[name] else 0.8
        if base == "self":
            # The types the failing test showed on the object.
            mine, other = (type_class(gen.type_near("self." + a, node)) for a in (node.attr, name))
            if mine is not None and other is not None:
                prior += -0.3 if mine == other else 1.0
        options.append((prior, base + "." + name, name))
    # `self.x` where the local `x` was meant.
    if isinstance(node.ctx, ast.Load):
        visible = gen.m.visible(node, node.lineno)
        b = visible.get(node.attr)
        if b is not None and b.role in ("param", "local", "loop"):
            options.append((2.4, node.attr, node.attr))
    options.sort()
    for prior, new, name in options[:10]:
        claim = f"Line {node.lineno} reads the attribute {in_backticks(node.attr)} where {in_backticks(name)} is meant: {in_backticks(short(gen.src.seg(node)))} should be {in_backticks(new)}."
        family = "changed-attribute" if "." in new else "changed-identifier"
        gen.replace(family, prior, node, new, claim, names=[node.attr, name])
