"""wrong-function, missing-argument, extra-argument and swapped-arguments: calls.
"""

import ast
import difflib

from ..scopes import n_params
from ..text import in_backticks, short
from ..units import names_in


def called_name(gen, node):
    """The name a call calls (`f` of `f(x)`, `m` of `obj.m(x)`), else None, as for a call never edited."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name is None or id(node) in gen.m.skip:
        return None
    return name


def wrong_function(gen, node):
    name = called_name(gen, node)
    if name is None:
        return
    func = node.func
    options = []
    for i, alt in enumerate(CONFUSED.get(name, [])):
        options.append((1.6 + 0.3 * i, alt))
    # A function of this module, or imported from the repository, with as many parameters.
    arities = {n: n_params(fn) for n, fn in gen.m.functions.items()}
    for n, arity in gen.m.foreign_functions.items():
        if n in gen.m.imports:
            arities.setdefault(n, arity)
    if isinstance(func, ast.Name) and name in arities:
        for other, arity in arities.items():
            if other != name and arity == arities[name]:
                options.append((3.0 - 0.4 * difflib.SequenceMatcher(None, name, other).ratio(), other))
    if isinstance(func, ast.Attribute) and gen.src.seg(func.value) == "self":
        cls = gen.method_class(node)
        methods = gen.m.methods.get(cls, {}) if cls is not None else {}
        if name in methods:
            arity = n_params(methods[name])
            for other, fn in methods.items():
                if other != name and not other.startswith("__") and n_params(fn) == arity:
                    options.append((3.0 - 0.4 * difflib.SequenceMatcher(None, name, other).ratio(), other))
    options.sort()
    if isinstance(func, ast.Name):
        start, end = gen.src.span(func)
    else:
        end = gen.src.offset(func.end_lineno, func.end_col_offset)
        start = end - len(func.attr)
        if gen.src.text[start:end] != func.attr:
            return
    for prior, alt in options[:8]:
        claim = f"Line {node.lineno} calls {in_backticks(name)} where {in_backticks(alt)} is meant: {in_backticks(short(gen.src.seg(node)))}."
        gen.emit("wrong-function", prior, [(start, end, alt)], claim, node, names=[name, alt], before=name, after=alt)
    # x.sort() used for its value, sorted(x) used as a statement.
    parent = gen.m.parent.get(node)
    if isinstance(func, ast.Attribute) and name in ("sort", "reverse") and not isinstance(parent, ast.Expr):
        builtin = "sorted" if name == "sort" else "reversed"
        args = [gen.src.seg(func.value)] + [gen.src.seg(a) for a in node.args + node.keywords]
        new = builtin + "(" + ", ".join(args) + ")"
        if name == "reverse":
            new = "list(" + new + ")"
        claim = f"Line {node.lineno} uses the value of {in_backticks(short(gen.src.seg(node)))}, which sorts in place and returns None: it should be {in_backticks(short(new))}."
        gen.replace("wrong-function", 1.2, node, new, claim, names=[name, builtin])
    if isinstance(func, ast.Name) and name == "sorted" and isinstance(parent, ast.Expr) and node.args:
        target = node.args[0]
        if isinstance(target, (ast.Name, ast.Attribute)):
            rest = [gen.src.seg(k) for k in node.keywords]
            new = gen.src.seg(target) + ".sort(" + ", ".join(rest) + ")"
            claim = f"Line {node.lineno} sorts a copy and drops it: {in_backticks(short(gen.src.seg(node)))} should be {in_backticks(short(new))}."
            gen.replace("wrong-function", 1.6, node, new, claim, names=["sorted", "sort"])


def missing_argument(gen, node):
    name = called_name(gen, node)
    if name is None:
        return
    func = node.func
    keywords = {k.arg for k in node.keywords}
    n = len(node.args)
    attr = isinstance(func, ast.Attribute)
    options = []  # (prior, text to add after the last argument, why)
    if attr and name in ("split", "rsplit", "replace") and n == (2 if name == "replace" else 1) and "maxsplit" not in keywords:
        options.append((1.4, "1", "it should split (or replace) once only"))
    if name in ("sorted", "sort") and (attr if name == "sort" else not attr):
        if "reverse" not in keywords:
            options.append((1.6, "reverse=True", "the order should be descending"))
        if "key" not in keywords:
            for i, key in enumerate(sort_keys(gen, node)):
                options.append((2.0 + 0.15 * i, "key=" + key, "the items should be compared by a key"))
    if name in ("max", "min") and not attr and n == 1 and "key" not in keywords:
        for i, key in enumerate(sort_keys(gen, node)):
            options.append((2.2 + 0.15 * i, "key=" + key, "the items should be compared by a key"))
        if "default" not in keywords:
            options.append((2.6, "default=0", "an empty input should give a default"))
    if name == "round" and not attr and n == 1:
        digits = sorted(gen.m.round_digits) or [2]
        for i, d in enumerate(digits[:2] + [x for x in (2, 1) if x not in digits][:1]):
            options.append((1.6 + 0.2 * i, str(d), "the value should keep decimals"))
    if name == "int" and not attr and n == 1:
        options.append((3.0, "16", "the text is hexadecimal"))
    if attr and name in ("get", "setdefault") and n == 1:
        for i, default in enumerate(["0", "[]", '""', "{}"] + (["None"] if name == "setdefault" else [])):
            options.append((1.8 + 0.2 * i, default, "a missing key should give a default"))
    if attr and name == "pop" and n == 0:
        options.append((2.0, "0", "the first item should be taken"))
    if not attr and name == "enumerate" and n == 1 and "start" not in keywords:
        options.append((1.8, "1", "counting should start at 1"))
    if attr and name == "quantize" and "rounding" not in keywords:
        if "ROUND_HALF_UP" in gen.m.imports:
            options.append((1.5, "rounding=ROUND_HALF_UP", "half values should round up"))
        elif "decimal" in gen.m.imports:
            options.append((1.5, "rounding=decimal.ROUND_HALF_UP", "half values should round up"))
    if name == "ConfigParser" and "interpolation" not in keywords:
        options.append((1.8, "interpolation=None", "a % in a value is text, not interpolation"))
    if not attr and name == "open" and "encoding" not in keywords and n >= 1:
        options.append((2.6, 'encoding="utf-8"', "the file is UTF-8 whatever the locale"))
    # A function of this module called without an optional parameter that has a name in scope.
    target = gen.m.functions.get(name) if not attr else None
    if attr and gen.src.seg(func.value) == "self":
        cls = gen.method_class(node)
        target = gen.m.methods.get(cls, {}).get(name) if cls is not None else None
    if target is not None:
        params = [a.arg for a in target.args.args if a.arg not in ("self", "cls")]
        visible = gen.m.visible(node, node.lineno)
        for p in params[n:]:
            if p not in keywords and p in visible and visible[p].role not in ("function", "class", "import"):
                options.append((1.9, p + "=" + p, "the caller's " + in_backticks(p) + " should be passed on"))
    if not options:
        return
    if node.args or node.keywords:
        last = max(list(node.args) + list(node.keywords), key=lambda a: (a.end_lineno, a.end_col_offset))
        at = gen.src.offset(last.end_lineno, last.end_col_offset)
        prefix = ", "
    else:
        at = gen.src.offset(node.end_lineno, node.end_col_offset) - 1
        if gen.src.text[at] != ")":
            return
        prefix = ""
    positional_ok = not node.keywords
    for prior, arg, why in options:
        if "=" not in arg and not positional_ok:
            continue
        new_call = short(gen.src.seg(node))
        claim = f"The call at line {node.lineno} is missing an argument ({why}): {in_backticks(new_call)} should pass {in_backticks(arg)}."
        gen.emit("missing-argument", prior, [(at, at, prefix + arg)], claim, node, names=[name], literals=[arg], before=gen.src.seg(node), after=arg)


def sort_keys(gen, node):
    keys = ["len", "str.lower", "lambda item: item[1]", "lambda item: item[0]"]
    for k in sorted(gen.m.keys, key=lambda k: -gen.m.keys[k])[:3]:
        keys.append(f"lambda item: item[{k!r}]")
    return keys


def extra_argument(gen, node):
    name = called_name(gen, node)
    if name is None:
        return
    parts = list(node.args) + list(node.keywords)
    if not parts or any(isinstance(a, ast.Starred) for a in node.args):
        return
    ordered = sorted(parts, key=lambda a: (a.lineno, a.col_offset))
    for i, part in enumerate(ordered):
        if len(ordered) == 1 and not isinstance(part, ast.keyword):
            continue  # f(x) → f() is rarely the fix
        start, end = gen.src.span(part)
        if i > 0:
            prev = ordered[i - 1]
            start = gen.src.offset(prev.end_lineno, prev.end_col_offset)
        elif len(ordered) > 1:
            nxt = ordered[1]
            end = gen.src.offset(nxt.lineno, nxt.col_offset)
        text = gen.src.seg(part)
        prior = 2.6 if isinstance(part, ast.keyword) else 3.0
        claim = f"The call at line {node.lineno} passes {in_backticks(short(text))}, which it should not: {in_backticks(short(gen.src.seg(node)))}."
        gen.emit("extra-argument", prior + 0.05 * i, [(start, end, "")], claim, node, names=[name], before=text)


def swapped_arguments(gen, node):
    name = called_name(gen, node)
    if name is None:
        return
    args = node.args
    if len(args) < 2 or any(isinstance(a, ast.Starred) for a in args):
        return
    pairs = list(zip(range(len(args)), range(1, len(args))))
    if len(args) == 3:
        pairs.append((0, 2))
    for i, j in pairs:
        a, b = args[i], args[j]
        ta, tb = gen.src.seg(a), gen.src.seg(b)
        if ta == tb:
            continue
        (as_, ae), (bs, be) = gen.src.span(a), gen.src.span(b)
        claim = f"The call at line {node.lineno} passes {in_backticks(short(ta))} and {in_backticks(short(tb))} the wrong way round: {in_backticks(short(gen.src.seg(node)))}."
        gen.emit("swapped-arguments", 2.2 + 0.2 * (j - i - 1), [(as_, ae, tb), (bs, be, ta)], claim, node, names=[name] + names_in(a) + names_in(b))


# Functions and methods often called in place of one another, likeliest first.
CONFUSED = {
    "min": ["max"],
    "max": ["min"],
    "any": ["all"],
    "all": ["any"],
    "floor": ["ceil", "trunc"],
    "ceil": ["floor"],
    "trunc": ["floor", "round"],
    "append": ["extend"],
    "extend": ["append"],
    "remove": ["discard"],
    "discard": ["remove"],
    "startswith": ["endswith"],
    "endswith": ["startswith"],
    "lower": ["upper", "casefold"],
    "upper": ["lower"],
    "title": ["capitalize"],
    "capitalize": ["title"],
    "keys": ["values", "items"],
    "values": ["keys", "items"],
    "items": ["values", "keys"],
    "find": ["rfind", "index"],
    "rfind": ["find"],
    "index": ["rindex", "find"],
    "rindex": ["index"],
    "strip": ["rstrip", "lstrip"],
    "lstrip": ["strip", "rstrip"],
    "rstrip": ["strip", "lstrip"],
    "split": ["rsplit"],
    "rsplit": ["split"],
    "search": ["match", "fullmatch"],
    "match": ["search", "fullmatch"],
    "fullmatch": ["match", "search"],
    "union": ["intersection", "difference"],
    "intersection": ["union", "difference"],
    "difference": ["symmetric_difference", "intersection"],
    "issubset": ["issuperset"],
    "issuperset": ["issubset"],
    "isdigit": ["isnumeric", "isalnum", "isalpha"],
    "isalpha": ["isalnum", "isdigit"],
    "isalnum": ["isalpha", "isdigit"],
    "isupper": ["islower"],
    "islower": ["isupper"],
    "pop": ["popleft", "get"],
    "popleft": ["pop"],
    "appendleft": ["append"],
    "get": ["pop"],
    "copy": ["deepcopy"],
    "deepcopy": ["copy"],
    "round": ["int", "math.floor"],
    "int": ["round"],
    "sorted": ["reversed"],
    "reversed": ["sorted"],
    "insert": ["append"],
    "update": ["setdefault"],
}
