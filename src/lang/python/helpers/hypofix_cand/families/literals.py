"""changed-literal (numbers, strings, booleans, None) and changed-key (a dictionary key).
"""

import ast
import difflib

from ..kinds import is_fresh
from ..text import in_backticks, py_string, short


# changed-literal
def changed_literal(gen, node):
    value_node = node.operand if isinstance(node, ast.UnaryOp) else node
    value = value_node.value
    if isinstance(node, ast.UnaryOp):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return
        value = -value
    if id(node) in gen.m.skip:
        return
    parent = gen.m.parent.get(node)
    text = gen.src.seg(node)
    alts = []  # (prior, new text, why)
    if isinstance(value, bool):
        alts.append((1.0, repr(not value), "the flag is the wrong way round"))
    elif value is None:
        for i, alt in enumerate(return_shapes(gen, node)):
            alts.append((2.4 + 0.2 * i, alt, "the default value has the wrong shape"))
    elif isinstance(value, int):
        if isinstance(parent, ast.Subscript) and parent.slice is node:
            return  # off-by-one handles indexes
        seen = [value + 1, value - 1] if value != 0 else [1, -1]
        for i, alt in enumerate(seen):
            alts.append((1.5 + 0.3 * i, str(alt), "the constant is off by one"))
        for i, alt in enumerate(sorted(n for n in gen.m.numbers if isinstance(n, int) and n not in seen and n != value and abs(n - value) <= 100)[:3]):
            alts.append((3.0 + 0.1 * i, str(alt), "the constant is another one used in the file"))
    elif isinstance(value, float):
        for i, alt in enumerate(sorted(n for n in gen.m.numbers if n != value)[:3]):
            alts.append((3.0 + 0.1 * i, repr(alt), "the constant is another one used in the file"))
    elif isinstance(value, str):
        if id(node) in gen.m.key_ids:
            changed_key(gen, node)
            if value not in ("", " "):
                return
        if "\n" in text and text.count("\n") > 0 and text.lstrip("rRbBuU").startswith(('"""', "'''")):
            return  # a block of text, not a token to tune
        quote = '"' if text.endswith('"') else "'"
        if value == "":
            alts.append((1.5, quote + " " + quote, "the string should be a space"))
        elif value == " ":
            alts.append((1.5, quote + quote, "the string should be empty"))
        for i, alt in enumerate(similar_strings(gen, value)):
            alts.append((2.2 + 0.2 * i, py_string(alt, quote), "the string is another one used in the file"))
        if value.isalpha() and value.lower() != value:
            alts.append((2.8, py_string(value.lower(), quote), "the string's case is wrong"))
        if value.isalpha() and value.upper() != value and len(value) <= 3:
            alts.append((2.8, py_string(value.upper(), quote), "the string's case is wrong"))
    for prior, new, why in alts:
        claim = f"The literal {in_backticks(short(text))} at line {node.lineno} is wrong ({why}): it should be {in_backticks(short(new))}."
        gen.replace("changed-literal", prior, node, new, claim, literals=[text, new])


def similar_strings(gen, value, limit=4):
    """Strings of the file that a slip could have replaced: separators with separators, words with similar words."""
    out = []
    sep = lambda s: 0 < len(s) <= 3 and not any(c.isalnum() for c in s)
    for other, _count in sorted(gen.m.strings.items(), key=lambda kv: -kv[1]):
        if other == value or "\n" in other and len(other) > 3:
            continue
        if (sep(value) or value in ("", " ")) and sep(other):
            out.append(other)
        elif value and other and difflib.SequenceMatcher(None, value.lower(), other.lower()).ratio() >= 0.6:
            out.append(other)
    return out[:limit]


def return_shapes(gen, node):
    fn = gen.m.enclosing_function(node)
    shapes = []
    if fn is not None:
        for n in ast.walk(fn):
            if isinstance(n, ast.Return) and n.value is not None and is_fresh(n.value):
                t = gen.src.seg(n.value)
                if t not in shapes and t != "None":
                    shapes.append(t)
    return shapes[:3]


# changed-key
def changed_key(gen, node):
    value = node.value
    text = gen.src.seg(node)
    quote = '"' if text.endswith('"') else "'"
    hinted = [k for k in gen.hints.get("keys", []) if k != value]
    close = lambda k: -difflib.SequenceMatcher(None, value, k).ratio()  # noqa: E731
    # Keys the failing tests use (they name what the code should produce or read), then keys
    # of this module and of the repository modules it imports from.
    tested = sorted((k for k in gen.m.test_keys if k != value and k not in hinted), key=close)[:4]
    others = [k for k in set(gen.m.keys) | gen.m.foreign_keys if k != value and k not in hinted and k not in tested]
    ranked = sorted(others, key=lambda k: (close(k), k))
    for i, key in enumerate(hinted[:6] + tested + ranked[:8]):
        ratio = difflib.SequenceMatcher(None, value, key).ratio()
        base = 0.8 if key in hinted else 1.3 if key in tested else 1.6 if key in gen.m.keys else 1.8
        prior = base + (1 - ratio) * 1.5 + 0.05 * i
        new = py_string(key, quote)
        claim = f"The key {in_backticks(text)} at line {node.lineno} is the wrong one: it should be {in_backticks(new)}."
        gen.replace("changed-key", prior, node, new, claim, literals=[text, new])
