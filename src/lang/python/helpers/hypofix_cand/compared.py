"""The values the failing assertion compared (hints.values, reprs), read back as Python values
where they are literals: the strings a pattern should or should not match, the value an edge
case should return.
"""

import ast


def compared_values(gen):
    """[(repr, value)] of the compared values that are literals, in the order given."""
    cached = getattr(gen, "_compared", None)
    if cached is None:
        cached = []
        for text in gen.hints.get("values", []) or []:
            if not isinstance(text, str) or len(text) > 2000:
                continue
            try:
                cached.append((text, ast.literal_eval(text)))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
        gen._compared = cached
    return cached


def strings_in(value, out=None, limit=50):
    """The strings inside a literal value (itself, a container's items, a dict's keys and values)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(value, str):
        if value not in out:
            out.append(value)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            strings_in(item, out, limit)
    elif isinstance(value, dict):
        for k, v in value.items():
            strings_in(k, out, limit)
            strings_in(v, out, limit)
    return out
