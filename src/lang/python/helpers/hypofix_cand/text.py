"""Source text: positions of nodes, the tokens between operands, and the edit DSL of
src/lang/experiment.ts computed from an edited copy of the file.
"""

import difflib
import io
import tokenize


def in_backticks(code):
    """A code span: a backtick run longer than any inside the code (as text.ts codeSpan does)."""
    code = " ".join(code.split("\n"))
    longest = 0
    run = 0
    for ch in code:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    ticks = "`" * (longest + 1)
    pad = " " if longest or code.startswith("`") or code.endswith("`") else ""
    return ticks + pad + code + pad + ticks


def short(code, limit=80):
    code = " ".join(code.split())
    return code if len(code) <= limit else code[: limit - 3] + "..."


class Source:
    """The file's text with conversions from ast positions (UTF-8 byte columns) to text offsets."""

    def __init__(self, text):
        self.text = text
        self.lines = text.split("\n")
        self.starts = []
        at = 0
        for line in self.lines:
            self.starts.append(at)
            at += len(line) + 1

    def offset(self, lineno, col):
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node):
        return (
            self.offset(node.lineno, node.col_offset),
            self.offset(node.end_lineno, node.end_col_offset),
        )

    def seg(self, node):
        start, end = self.span(node)
        return self.text[start:end]

    def indent_of(self, lineno):
        line = self.lines[lineno - 1]
        return line[: len(line) - len(line.lstrip())]

    def line_end(self, lineno):
        """Offset of the end of line `lineno` (before its newline)."""
        return self.starts[lineno - 1] + len(self.lines[lineno - 1])


def gap_tokens(text):
    """The operator and keyword tokens in the text between two operands (parentheses skipped)."""
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.OP, tokenize.NAME) and tok.string not in "()":
                found.append(tok)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return found


def char_offset_in(text, row, col):
    """Offset in `text` of tokenize's (row, col) position (col counts characters)."""
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: row - 1]) + col


# ---------------------------------------------------------------------------------------------
# Edits: the DSL of experiment.ts, from an edited copy of the file.


def narrow(old, new):
    """The smallest word-aligned fragment of `old` that changes, occurring once in it, and its replacement."""
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old), len(new)) - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]
    ):
        suffix += 1
    a, b_old, b_new = prefix, len(old) - suffix, len(new) - suffix

    def word(ch):
        return ch.isalnum() or ch == "_"

    while a > 0 and (word(old[a - 1]) or (a < len(old) and not old[a - 1].isspace() and a == b_old)):
        a -= 1
    while b_old < len(old) and word(old[b_old]):
        b_old += 1
        b_new += 1
    stripped_start = len(old) - len(old.lstrip())
    stripped_end = len(old.rstrip())
    for quote in "\"'":
        while old[a:b_old].count(quote) % 2 and b_old < stripped_end:
            b_old += 1
            b_new += 1
    while True:
        fragment = old[a:b_old]
        if fragment.strip() and old.count(fragment) == 1 and fragment == fragment.strip():
            return fragment, new[a:b_new]
        if a <= stripped_start and b_old >= stripped_end:
            break
        # Widen by one character on each side, then back to whole words.
        a = max(stripped_start, a - 1)
        if b_old < stripped_end:
            b_old += 1
            b_new += 1
        while a > stripped_start and word(old[a - 1]):
            a -= 1
        while b_old < stripped_end and word(old[b_old]):
            b_old += 1
            b_new += 1
    tail = len(old) - stripped_end
    return old[stripped_start:stripped_end], new[stripped_start : len(new) - tail]


def indentation_at(lines, idx):
    """Indentation of line idx, or of the next non-blank line when it is blank (applyEdits' rule)."""
    for line in lines[idx:]:
        if line.strip():
            return line[: len(line) - len(line.lstrip())]
    return ""


def line_edits(old_lines, new_lines, head=0, tail=0):
    """REPLACE/ADD/DEL edits turning old_lines into new_lines (equal in their first `head` and last
    `tail` lines); None when the DSL cannot say it."""
    edits = []
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = min(tail, len(old_lines) - head, len(new_lines) - head)
    while (
        tail < min(len(old_lines), len(new_lines)) - head
        and old_lines[len(old_lines) - 1 - tail] == new_lines[len(new_lines) - 1 - tail]
    ):
        tail += 1
    middle_old = old_lines[head : len(old_lines) - tail]
    middle_new = new_lines[head : len(new_lines) - tail]
    matcher = difflib.SequenceMatcher(None, middle_old, middle_new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        i1, i2, j1, j2 = i1 + head, i2 + head, j1 + head, j2 + head
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                old, new = old_lines[i1 + k], new_lines[j1 + k]
                if old.strip() == new.strip():
                    # Only the indentation changes, which REPLACE cannot say: the line goes and comes back.
                    edits.append({"op": "DEL", "line": i1 + k + 1, "old": old.strip()})
                    edits.append({"op": "ADD", "line": i1 + k + 1, "stmt": new})
                    continue
                fragment, replacement = narrow(old, new)
                edits.append({"op": "REPLACE", "line": i1 + k + 1, "old": fragment, "new": replacement})
            continue
        for k in range(i1, i2):
            if not old_lines[k].strip():
                return None  # a blank line cannot be named by DEL
            edits.append({"op": "DEL", "line": k + 1, "old": old_lines[k].strip()})
        if j2 > j1:
            added = new_lines[j1:j2]
            first = added[0]
            if not first[:1].isspace() and indentation_at(old_lines, i1) != "":
                return None  # applyEdits would indent it like the line below
            edits.append({"op": "ADD", "line": i1 + 1, "stmt": "\n".join(added)})
    return edits


def apply_dsl(lines, edits):
    """The edits applied as experiment.ts applyEdits applies them (to check what we emit says what we mean).
    Only the window of lines the edits touch is rebuilt."""
    count = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
    lo = min(e["line"] for e in edits) - 1
    hi = min(max(e["line"] for e in edits), len(lines))
    current = {}
    above = {}
    after = []
    for edit in edits:
        idx = edit["line"] - 1
        if edit["op"] == "ADD":
            given = edit["stmt"].split("\n")
            if not edit["stmt"][:1].isspace():
                indent = indentation_at(lines, idx)
                given = [g if g == "" else indent + g for g in given]
            if edit["line"] == count + 1:
                after.extend(given)
            else:
                above.setdefault(idx, []).extend(given)
            continue
        text = current[idx] if idx in current else lines[idx]
        if text is None or edit["old"] not in text:
            return None
        if edit["op"] == "REPLACE":
            current[idx] = text.replace(edit["old"], edit["new"])
        else:
            rest = text.replace(edit["old"], "")
            current[idx] = None if not rest.strip() else rest
    out = lines[:lo]
    for i in range(lo, hi):
        if i == count:
            out.extend(after)
            after = []
        out.extend(above.get(i, []))
        line = current[i] if i in current else lines[i]
        if line is not None:
            out.append(line)
    rest = lines[hi:]
    if after and count < len(lines) and count >= hi:
        # The file ends with a newline: what goes after its last line goes before the final "".
        out.extend(rest[: count - hi])
        out.extend(after)
        out.extend(rest[count - hi :])
    else:
        out.extend(rest)
        out.extend(after)
    return out


def py_string(value, quote):
    """A string literal in the file's quote style."""
    body = repr(value)[1:-1]
    if quote == '"':
        body = body.replace("\\'", "'").replace('"', '\\"')
    return quote + body + quote
