"""repeated-edit: the same slip made in two functions. A one-token candidate of the statement,
together with the same replacement where another function of the file holds the same text
around it (copied code), as one candidate of two (or three) hunks. Runs after the families that
propose the single edits (it reads the unit's candidates so far).
"""

import ast

from ..text import in_backticks, short

# The families whose candidates replace one token (or a name's text) in place.
SINGLE = {
    "changed-operator", "changed-identifier", "changed-attribute", "changed-literal", "changed-key",
    "wrong-function", "off-by-one", "swapped-operands", "missing-argument", "extra-argument",
}

# Single edits of a statement looked at, likeliest first; copies of one edit used.
MAX_EDITS = 6
MAX_COPIES = 2
# Characters on each side of the replaced text that a copy of its line must repeat.
CONTEXT = 8


def function_spans(gen):
    cached = gen.__dict__.get("_function_spans")
    if cached is None:
        cached = sorted(
            ((n.lineno, n.end_lineno, n) for n in ast.walk(gen.m.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
            key=lambda s: s[0],
        )
        gen.__dict__["_function_spans"] = cached
    return cached


def function_at(gen, line):
    """The innermost function holding a 1-based line, else None."""
    inner = None
    for first, last, node in function_spans(gen):
        if first <= line <= last:
            inner = node
    return inner


def copies(gen, start, end, fn):
    """(line index, offset) of the replaced text where another function repeats it with its context."""
    src = gen.src
    row = src.text.count("\n", 0, start)
    line = src.lines[row]
    a, b = start - src.starts[row], end - src.starts[row]
    before, after = line[max(0, a - CONTEXT) : a], line[b : b + CONTEXT]
    needle = before + line[a:b] + after
    if "\n" in needle or len(needle.strip()) < (b - a) + CONTEXT:
        return []  # too little context would match unrelated code
    out = []
    for i, other in enumerate(src.lines):
        at = other.find(needle)
        if i == row or at < 0:
            continue
        owner = function_at(gen, i + 1)
        if owner is None or owner is fn:
            continue
        out.append((i, src.starts[i] + at + len(before)))
    return out[:MAX_COPIES]


def repeated_edit(gen, unit):
    fn = gen.m.enclosing_function(unit)
    if fn is None:
        return
    singles = sorted((p for p in gen.found if p[10] is unit and p[2] in SINGLE and len(p[3]) == 1), key=lambda p: (p[0], p[1]))
    for prior, _order, _family, changes, claim, node, names, literals, before, after, _unit in singles[:MAX_EDITS]:
        start, end, new = changes[0]
        old = gen.src.text[start:end]
        if "\n" in old or "\n" in new or len(old) > 60:
            continue
        found = copies(gen, start, end, fn)
        for k, (i, at) in enumerate(found):
            more = [(at, at + len(old), new)]
            where = f"line {i + 1} ({function_at(gen, i + 1).name})"
            text = f"{claim.rstrip('.')}; the same slip is copied at {where}: {in_backticks(short(old))} there should be {in_backticks(short(new))} too."
            gen.emit("repeated-edit", prior + 0.5 + 0.1 * k, [changes[0]] + more, text, node, names=names, literals=literals, before=before, after=after)
        if len(found) > 1:
            more = [(at, at + len(old), new) for _, at in found]
            text = f"{claim.rstrip('.')}; the same slip is copied in {len(found)} other functions, each to change alike."
            gen.emit("repeated-edit", prior + 0.8, [changes[0]] + more, text, node, names=names, literals=literals, before=before, after=after)
