"""wrong-exception: the error an `except` catches or a `raise` raises.
"""

import ast

from ..text import in_backticks, short


def exception_options(gen, current):
    module_types = [e for e in gen.m.exceptions if e not in current]
    module_types += [e for e in gen.m.exception_inits if e not in current and e not in module_types]
    related = [e for c in current for e in RELATED_EXCEPTIONS.get(c, []) if e not in current]
    options = []
    # The types the failure raised or expected come first.
    for i, e in enumerate(gen.hints.get("exceptions", [])):
        if e not in current and e.isidentifier():
            options.append((0.8 + 0.1 * i, e))
    for i, e in enumerate(module_types):
        options.append((1.5 + 0.1 * i, e))
    for i, e in enumerate(related):
        options.append((1.8 + 0.1 * i, e))
    for i, e in enumerate(COMMON_EXCEPTIONS):
        if e not in current:
            options.append((2.6 + 0.05 * i, e))
    seen = set()
    out = []
    for prior, e in sorted(options):
        if e not in seen:
            seen.add(e)
            out.append((prior, e))
    return out


def wrong_exception_handler(gen, handler):
    if handler.type is None:
        return
    node = handler.type
    current = [gen.src.seg(t) for t in (node.elts if isinstance(node, ast.Tuple) else [node])]
    for prior, alt in exception_options(gen, current)[:10]:
        claim = f"The {in_backticks('except')} clause at line {handler.lineno} catches {in_backticks(short(gen.src.seg(node)))}, but the error to handle there is {in_backticks(alt)}."
        gen.replace("wrong-exception", prior, node, alt, claim, names=current + [alt])
        if not isinstance(node, ast.Tuple):
            both = "(" + gen.src.seg(node) + ", " + alt + ")"
            claim = f"The {in_backticks('except')} clause at line {handler.lineno} should also catch {in_backticks(alt)}: {in_backticks(both)}."
            gen.replace("wrong-exception", prior + 0.3, node, both, claim, names=current + [alt])


def wrong_exception_raised(gen, unit):
    exc = unit.exc
    if exc is None:
        return
    func = exc.func if isinstance(exc, ast.Call) else exc
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return
    current = gen.src.seg(func)
    for prior, alt in exception_options(gen, [current])[:6]:
        claim = f"Line {unit.lineno} raises {in_backticks(current)} where callers expect {in_backticks(alt)}."
        gen.replace("wrong-exception", prior + 0.6, func, alt, claim, names=[current, alt])
        args = exception_arguments(gen, exc, alt)
        if args is not None:
            new = f"{alt}({', '.join(args)})"
            claim = f"Line {unit.lineno} raises {in_backticks(short(gen.src.seg(exc)))} where callers expect {in_backticks(new)}."
            gen.replace("wrong-exception", prior + 0.5, exc, new, claim, names=[current, alt, *args])


def exception_arguments(gen, exc, alt):
    """Arguments for raising `alt`, whose __init__ takes named values (sku, requested, available),
    from what the raise at hand shows: a parameter's namesake in scope, else the next name its
    message used (`f"cannot ship {qty} of {sku}"`), in order. None when they do not all fit."""
    params = gen.m.exception_inits.get(alt)
    if not params or len(params) < 2 or not isinstance(exc, ast.Call):
        return None
    visible = gen.m.visible(exc, exc.lineno)
    used = []
    for arg in exc.args:
        for n in ast.walk(arg):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in used and n.id in visible:
                used.append(n.id)
    chosen = []
    for p in params:
        if p in visible and visible[p].role not in ("function", "class", "import"):
            chosen.append(p)
    rest = [n for n in used if n not in chosen]
    out = []
    for p in params:
        if p in chosen:
            out.append(p)
        elif rest:
            out.append(rest.pop(0))
        else:
            return None
    return out


COMMON_EXCEPTIONS = [
    "ValueError",
    "KeyError",
    "TypeError",
    "IndexError",
    "AttributeError",
    "LookupError",
    "ZeroDivisionError",
    "OSError",
    "FileNotFoundError",
    "RuntimeError",
    "Exception",
]


# Exceptions mistaken for one another: what a lookup, a conversion or arithmetic raises.
RELATED_EXCEPTIONS = {
    "KeyError": ["LookupError", "IndexError"],
    "IndexError": ["LookupError", "KeyError"],
    "LookupError": ["KeyError", "IndexError"],
    "ValueError": ["TypeError", "KeyError"],
    "TypeError": ["ValueError", "AttributeError"],
    "AttributeError": ["TypeError", "KeyError"],
    "ZeroDivisionError": ["ArithmeticError", "ValueError"],
    "OSError": ["FileNotFoundError", "IOError"],
    "FileNotFoundError": ["OSError"],
}
