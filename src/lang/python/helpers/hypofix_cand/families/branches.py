"""moved-statement: a write in the wrong block. An assignment, augmented assignment or in-place
update done in one branch of an `if` only (copied into the other branch, or moved after the
`if`), done inside a loop where it belongs after it (or before it, for a fresh start), or done
after a block where it belongs inside it.
"""

import ast

from ..kinds import MUTATORS, is_fresh
from ..text import in_backticks, short
from ..units import names_in

TERMINAL = (ast.Return, ast.Continue, ast.Break, ast.Raise)
LOOPS = (ast.For, ast.AsyncFor, ast.While)


def is_write(stmt):
    """A one-line statement that stores a value or updates a container in place."""
    if stmt.lineno != stmt.end_lineno:
        return False
    if isinstance(stmt, (ast.Assign, ast.AugAssign)) or isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return True
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in MUTATORS


def block_of(gen, stmt):
    """(the compound statement, the list of statements) directly holding stmt, else (None, None)."""
    parent = gen.m.parent.get(stmt)
    for field in ("body", "orelse"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and stmt in block:
            return parent, block
    return None, None


def moved(gen, stmt, anchor, after, indent):
    """Changes moving the one-line stmt to a new line before/after `anchor`, at `indent`."""
    src = gen.src
    line = src.lines[stmt.lineno - 1]
    text = line.strip()
    start = src.starts[stmt.lineno - 1]
    if stmt.lineno >= len(src.lines) or src.offset(stmt.lineno, stmt.col_offset) != start + len(src.indent_of(stmt.lineno)):
        return None
    if src.line_end(stmt.lineno) != src.offset(stmt.end_lineno, stmt.end_col_offset):
        return None  # a comment or another statement shares its line
    if after and anchor.end_lineno == stmt.lineno:
        return [(start, start + len(src.indent_of(stmt.lineno)), indent)]  # the block's last line: dedent it
    if after:
        add = gen.insert_after(anchor, [text], indent=indent)
    else:
        add = gen.insert_before(anchor, [text])
        if add is not None and src.indent_of(anchor.lineno) != indent:
            add = (add[0], add[1], indent + text + "\n")
    if add is None:
        return None
    return [(start, src.starts[stmt.lineno], ""), add]


def copied_into(gen, block, text):
    """A change adding `text` at the end of `block` (before its closing return/continue/...)."""
    last = block[-1]
    if isinstance(last, TERMINAL):
        return gen.insert_before(last, [text])
    return gen.insert_after(last, [text], indent=gen.src.indent_of(last.lineno))


def moved_statement(gen, unit):
    if not is_write(unit) or gen.m.enclosing_function(unit) is None:
        return
    text = gen.src.seg(unit)
    owner, block = block_of(gen, unit)
    options = []  # (prior, changes, where)
    if isinstance(owner, ast.If):
        other = owner.orelse if block is owner.body else owner.body
        elif_ = len(other) == 1 and isinstance(other[0], ast.If) and gen.src.lines[other[0].lineno - 1].lstrip().startswith("elif")
        if other and not elif_ and not any(gen.src.seg(s) == text for s in other):
            change = copied_into(gen, other, text)
            if change is not None:
                options.append((2.5, [change], f"belongs in both branches of the `if` at line {owner.lineno}"))
        if len(block) > 1 and not isinstance(block[-1], TERMINAL):
            indent = gen.src.indent_of(owner.lineno)
            options.append((2.8, moved(gen, unit, owner, True, indent), f"belongs after the `if` at line {owner.lineno}, on every path"))
    elif isinstance(owner, LOOPS) and block is owner.body and len(block) > 1:
        indent = gen.src.indent_of(owner.lineno)
        if is_fresh(getattr(unit, "value", None)):
            options.append((2.6, moved(gen, unit, owner, False, indent), f"belongs before the loop at line {owner.lineno}: it starts the value again on every pass"))
        elif not isinstance(block[-1], TERMINAL):
            options.append((2.9, moved(gen, unit, owner, True, indent), f"belongs after the loop at line {owner.lineno}, once"))
    # A write just after a block that belongs inside it (at its end), or inside the next loop.
    if block is not None:
        at = block.index(unit)
        before = block[at - 1] if at > 0 else None
        if isinstance(before, (ast.If,) + LOOPS) and before.body and not isinstance(before.body[-1], TERMINAL):
            indent = gen.src.indent_of(before.body[-1].lineno)
            kind = "loop" if isinstance(before, LOOPS) else "`if`"
            options.append((2.9, moved(gen, unit, before.body[-1], True, indent), f"belongs inside the {kind} at line {before.lineno}"))
        following = block[at + 1] if at + 1 < len(block) else None
        if isinstance(following, LOOPS) and following.body and not is_fresh(getattr(unit, "value", None)):
            indent = gen.src.indent_of(following.body[0].lineno)
            options.append((3.0, moved(gen, unit, following.body[0], False, indent), f"belongs inside the loop at line {following.lineno}, on every pass"))
    for prior, changes, where in options:
        if not changes:
            continue
        claim = f"The write {in_backticks(short(text))} at line {unit.lineno} is in the wrong place: it {where}."
        gen.emit("moved-statement", prior, changes, claim, unit, names=names_in(unit), before=text, after=where)
