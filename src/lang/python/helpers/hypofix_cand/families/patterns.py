"""changed-pattern: a regular expression, written as a string literal that `re.*` is given or
that `re.compile` made into the object a statement uses, matches too little or too much: an
anchor (`^`, `$`, `\\b`) missing or extra, a character class too narrow or too wide, a quantifier
(`+`/`*`, `?`, greedy or lazy) off, a meta character (`.`) left unescaped.

The pattern is split into tokens by the `re` module's own tokenizer and every edited pattern is
parsed by its parser. Candidates are ordered by evidence: first those that match differently on
the values the failing assertion compared, then on the failing tests' strings, then the rest.
"""

import ast
import re

try:
    from re import _parser as sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.9 and 3.10
    import sre_parse

from ..compared import compared_values, strings_in
from ..text import in_backticks, short


# Functions of the `re` module that take a pattern first, and methods of a compiled pattern.
MODULE_FUNCTIONS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer"}
METHODS = MODULE_FUNCTIONS - {"compile"}
# Where each function of the module takes its flags positionally.
FLAGS_AT = {"compile": 1, "match": 2, "fullmatch": 2, "search": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4, "subn": 4}
MODULES = ("re", "regex")

# Candidates kept per pattern, best evidence first.
MAX_PER_PATTERN = 12

# Evidence strings a candidate is run on (each at most this long): bounds the time a
# backtracking pattern can take.
MAX_EVIDENCE = 120
MAX_EVIDENCE_LENGTH = 200

CATEGORIES = {"\\d", "\\w", "\\s", "\\D", "\\W", "\\S"}
QUANTIFIERS = {"*", "+", "?"}


def changed_pattern(gen, call):
    found = pattern_of(gen, call)
    if found is None:
        return
    literal, how, flags = found
    body = literal_body(gen, literal)
    if body is None:
        return
    pattern = literal.value
    if flags & re.VERBOSE or re.match(r"\(\?[aiLmsux]*x", pattern):
        return  # whitespace and comments are not what they seem in a verbose pattern
    try:
        tokens = tokenize(pattern)
        old = re.compile(pattern, flags)
    except (re.error, sre_parse.error, RecursionError, OverflowError, ValueError):
        return
    edits = pattern_edits(pattern, tokens, how, evidence_chars(gen, flags))
    hinted, tested = evidence_strings(gen)
    scored = []
    seen = {pattern}
    for order, (new, why) in enumerate(edits):
        if new in seen:
            continue
        seen.add(new)
        try:
            sre_parse.parse(new, flags)
            compiled = re.compile(new, flags)
        except (re.error, sre_parse.error, RecursionError, OverflowError, ValueError):
            continue
        on_hints = differs(old, compiled, how, hinted)
        on_tests = differs(old, compiled, how, tested)
        tier = 0 if on_hints else 1 if on_tests else 2
        scored.append((tier, on_hints + on_tests if tier < 2 else 0, order, new, why))
    scored.sort(key=lambda s: (s[0], s[1], s[2]))
    for rank, (tier, _count, _order, new, why) in enumerate(scored[:MAX_PER_PATTERN]):
        text = new_literal(body, new)
        if text is None:
            continue
        claim = f"The regular expression {in_backticks(short(repr(pattern)))} at line {literal.lineno} {why}: it should be {in_backticks(short(repr(new)))}."
        prior = (1.9, 2.4, 3.2)[tier] + 0.05 * rank
        gen.replace("changed-pattern", prior, literal, text, claim, literals=[repr(pattern), repr(new)])


def pattern_of(gen, call):
    """(string literal, how it is matched: match/fullmatch/search, flags) of the pattern a call
    uses: `re.search("...", s)`, or `NAME.search(s)` where NAME is bound to `re.compile("...")`
    in the function, the module or (for `self.NAME`, `cls.NAME`) the class."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if isinstance(func.value, ast.Name) and func.value.id in MODULES and func.attr in MODULE_FUNCTIONS:
        literal = call.args[0] if call.args else keyword(call, "pattern")
        flags = flags_of(call, FLAGS_AT[func.attr])
        if isinstance(literal, ast.Name):
            compiled = compiled_named(gen, call, literal.id, None)
            if compiled is None:
                return None
            literal, flags = compiled
        if is_str(literal):
            return literal, how_of(func.attr), flags
        return None
    if func.attr not in METHODS:
        return None
    owner = func.value
    if isinstance(owner, ast.Name):
        compiled = compiled_named(gen, call, owner.id, None)
    elif isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id in ("self", "cls"):
        compiled = compiled_named(gen, call, owner.attr, gen.method_class(call) or class_around(gen, call))
    else:
        compiled = None
    if compiled is None:
        return None
    return compiled[0], how_of(func.attr), compiled[1]


def how_of(name):
    """How the call applies the pattern: once at the start, to the whole text, once anywhere, or
    at every place it matches (sub, split, findall: the spans of every match count)."""
    return name if name in ("match", "fullmatch", "search") else "all"


def is_str(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def keyword(call, name):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def flags_of(call, position):
    """The flags a call passes (`re.I | re.M`, by position or `flags=`), 0 when none or unknown."""
    node = keyword(call, "flags")
    if node is None and len(call.args) > position:
        node = call.args[position]
    return flag_value(node) if node is not None else 0


def flag_value(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return flag_value(node.left) | flag_value(node.right)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in MODULES:
        value = getattr(re, node.attr, 0)
        return int(value) if isinstance(value, (int, re.RegexFlag)) else 0
    return 0


def class_around(gen, node):
    n = gen.m.parent.get(node)
    while n is not None and not isinstance(n, ast.ClassDef):
        n = gen.m.parent.get(n)
    return n


def compiled_named(gen, node, name, cls):
    """(literal, flags) of `name = re.compile("...")` in the enclosing function, else the class
    body `cls` (when given), else the module's top level; or a plain string assigned there."""
    places = []
    fn = gen.m.enclosing_function(node)
    if cls is None and fn is not None:
        places.append(fn)
    if cls is not None:
        places.append(cls)
    places.append(gen.m.tree)
    for place in places:
        found = patterns_bound(gen, place).get(name)
        if found is not None:
            return found
    return None


def patterns_bound(gen, place):
    """{name: (literal, flags)} of the patterns and strings a function, class body or module
    assigns to a plain name, first assignment kept; cached."""
    cache = gen.__dict__.setdefault("_patterns_bound", {})
    if id(place) in cache:
        return cache[id(place)]
    nodes = gen.own_nodes(place) if isinstance(place, (ast.FunctionDef, ast.AsyncFunctionDef)) else place.body
    out = {}
    for n in nodes:
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
            continue
        value = n.value
        if is_str(value):
            out.setdefault(n.targets[0].id, (value, 0))
        elif (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id in MODULES
            and value.func.attr == "compile"
            and value.args
            and is_str(value.args[0])
        ):
            out.setdefault(n.targets[0].id, (value.args[0], flags_of(value, 1)))
    cache[id(place)] = out
    return out


def literal_body(gen, literal):
    """(prefix, quote, raw) of a one-piece string literal whose text between the quotes is the
    pattern itself (a raw string, or one whose backslashes all stand for themselves), else None."""
    text = gen.src.seg(literal)
    m = re.match(r"([rRuU]*)('''|\"\"\"|'|\")", text)
    if m is None or not text.endswith(m.group(2)) or len(text) < len(m.group(0)) + len(m.group(2)):
        return None
    prefix, quote = m.group(1), m.group(2)
    inner = text[len(m.group(0)) : len(text) - len(quote)]
    raw = "r" in prefix.lower()
    if inner != literal.value:
        return None
    return prefix, quote, raw


def new_literal(body, pattern):
    """The literal for `pattern` in the old one's style (made raw when it gains a backslash)."""
    prefix, quote, raw = body
    if "\\" in pattern and not raw:
        prefix = "r" + prefix
    text = prefix + quote + pattern + quote
    if pattern.endswith("\\") or quote[0] in pattern:
        return None
    try:
        ok = ast.literal_eval(text) == pattern
    except (ValueError, SyntaxError):
        ok = False
    return text if ok else None


def tokenize(pattern):
    """[(start, end, token)] by the `re` module's tokenizer: one character or one escape each."""
    t = sre_parse.Tokenizer(pattern)
    out = []
    while t.next is not None:
        start = t.tell()
        tok = t.get()
        out.append((start, start + len(tok), tok))
    return out


def pattern_of_tokens(tokens, i, j):
    return "".join(t[2] for t in tokens[i : j + 1])


def structure(tokens):
    """The parts of a pattern an edit works on: character classes [(start, end, negated,
    [(item start, item end)])], and outside them the quantifiers, anchors, category escapes
    and unescaped dots [(kind, start, end, token)]."""
    classes, parts = [], []
    i = 0
    prev = None
    while i < len(tokens):
        start, end, tok = tokens[i]
        if tok == "[":
            j = i + 1
            negated = j < len(tokens) and tokens[j][2] == "^"
            if negated:
                j += 1
            items = []
            first = True
            while j < len(tokens) and (tokens[j][2] != "]" or first):
                a = tokens[j]
                if j + 2 < len(tokens) and tokens[j + 1][2] == "-" and tokens[j + 2][2] != "]":
                    items.append((a[0], tokens[j + 2][1]))
                    j += 3
                else:
                    items.append((a[0], a[1]))
                    j += 1
                first = False
            if j >= len(tokens):
                return [], []
            classes.append((start, tokens[j][1], negated, items))
            parts.append(("class", start, tokens[j][1], pattern_of_tokens(tokens, i, j)))
            prev = "]"
            i = j + 1
            continue
        if tok in QUANTIFIERS and prev == "(":
            kind = "group-extension"
        elif tok in QUANTIFIERS and prev is not None and prev not in ("(", "|"):
            lazy = i + 1 < len(tokens) and tokens[i + 1][2] == "?"
            parts.append(("quantifier", start, tokens[i + 1][1] if lazy else end, tok + ("?" if lazy else "")))
            prev = tok
            i += 2 if lazy else 1
            continue
        elif tok in ("^", "$", "\\b", "\\A", "\\Z"):
            kind = "anchor"
        elif tok in CATEGORIES:
            kind = "category"
        elif tok == ".":
            kind = "dot"
        elif tok == ")":
            kind = "group-end"
        else:
            kind = "atom" if tok not in ("(", "|") else tok
        parts.append((kind, start, end, tok))
        prev = tok
        i += 1
    return classes, parts


def pattern_edits(pattern, tokens, how, chars):
    """[(new pattern, why)] in a fixed order: anchors, classes widened by the evidence's
    characters and narrowed, quantifiers, escapes."""
    classes, parts = structure(tokens)
    out = []
    splice = lambda a, b, text: pattern[:a] + text + pattern[b:]
    anchors = [p for p in parts if p[0] == "anchor"]
    for kind, a, b, tok in anchors:
        what = {"^": "should not be anchored at the start", "$": "should not be anchored at the end"}.get(tok, f"should not require {tok}")
        out.append((splice(a, b, ""), what))
    starts = pattern.startswith(("^", "\\A"))
    ends = pattern.endswith("$") and not pattern.endswith("\\$") or pattern.endswith("\\Z")
    if not starts and how in ("search", "all"):
        out.append(("^" + pattern, "should match only at the start"))
    if not ends and how != "fullmatch":
        out.append((pattern + "$", "should match only up to the end"))
    if not starts and not ends and how in ("search", "all"):
        out.append(("^" + pattern + "$", "should match the whole text"))
    if "\\b" not in pattern:
        out.append(("\\b" + pattern + "\\b", "should match whole words only"))
    for start, end, negated, items in classes:
        close = end - 1
        # Before a literal `-` that ends the class, so the new characters do not make a range.
        at = close - 1 if pattern[close - 1] == "-" and pattern[close - 2] != "\\" and close - 1 > start + 1 else close
        # A negated class narrows by the characters it matches now: those its items do not name.
        named = "[" + pattern[start + 2 : end] if negated else pattern[start:end]
        for add in chars(named):
            verb = "should not accept" if negated else "should also accept"
            out.append((splice(at, at, add), f"{verb} {add!r} in {pattern[start:end]}"))
        if len(items) > 1:
            for a, b in items:
                verb = "should also accept" if negated else "should not accept"
                out.append((splice(a, b, ""), f"{verb} {pattern[a:b]!r} in {pattern[start:end]}"))
    for kind, a, b, tok in parts:
        if kind == "category":
            for add in chars(tok):
                out.append((splice(a, b, "[" + tok + add + "]"), f"should let {tok} also accept {add!r}"))
    for kind, a, b, tok in parts:
        if kind != "quantifier":
            continue
        base, lazy = tok[0], tok.endswith("?") and len(tok) == 2
        if base == "+":
            out.append((splice(a, b, "*" + ("?" if lazy else "")), "should also accept none (`*`, not `+`)"))
        elif base == "*":
            out.append((splice(a, b, "+" + ("?" if lazy else "")), "should require at least one (`+`, not `*`)"))
        elif base == "?":
            out.append((splice(a, b, ""), "should not make that part optional"))
        if base in "+*":
            if lazy:
                out.append((splice(a, b, base), f"should match as much as it can (`{base}`, not `{tok}`)"))
            else:
                out.append((splice(a, b, base + "?"), f"should match as little as it can (`{base}?`, not `{base}`)"))
    for i, (kind, a, b, tok) in enumerate(parts):
        following = parts[i + 1][0] if i + 1 < len(parts) else None
        if kind in ("class", "group-end", "category", "dot") and following != "quantifier":
            what = "the group before it" if kind == "group-end" else pattern[a:b]
            out.append((splice(b, b, "?"), f"should make {what} optional"))
    for kind, a, b, tok in parts:
        if kind == "dot":
            out.append((splice(a, b, "\\."), "should match a literal dot (`\\.`), not any character"))
    return out


def evidence_strings(gen):
    """(strings of the compared values, the failing tests' strings), each bounded."""
    cached = getattr(gen, "_pattern_evidence", None)
    if cached is None:
        hinted = []
        for _text, value in compared_values(gen):
            strings_in(value, hinted)
        hinted = [s for s in hinted if len(s) <= MAX_EVIDENCE_LENGTH][:MAX_EVIDENCE]
        tested = [s for s in gen.m.test_strings if s not in hinted and len(s) <= MAX_EVIDENCE_LENGTH][:MAX_EVIDENCE]
        cached = gen._pattern_evidence = (hinted, tested)
    return cached


def evidence_chars(gen, flags):
    """A function giving, for a class or category escape, the additions the evidence suggests:
    the characters of the evidence strings it does not match, most frequent first (digits as
    `0-9`, letters as `a-z`/`A-Z` when their class holds ranges), at most four."""
    hinted, tested = evidence_strings(gen)
    counts = {}
    for weight, strings in ((10, hinted), (1, tested)):
        for s in strings:
            for c in set(s):
                if c.isprintable():
                    counts[c] = counts.get(c, 0) + weight
    # What tells the compared values apart is what the pattern lost or let through: their
    # characters in one and not the other count most.
    if len(hinted) >= 2:
        for c in set(hinted[0]) ^ set(hinted[1]):
            if c.isprintable():
                counts[c] = counts.get(c, 0) + 100

    def chars(part):
        try:
            matcher = re.compile(part if part.startswith("[") else "[" + part + "]", flags)
        except re.error:
            return []
        ranged = "-" in part[1:-1] if part.startswith("[") else False
        out = []
        for c, _n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if matcher.fullmatch(c):
                continue
            if ranged and c.isdigit():
                add = "0-9"
            elif ranged and c.isascii() and c.isalpha():
                add = "a-z" if c.islower() else "A-Z"
            elif c in "\\]^-[":
                add = "\\" + c
            else:
                add = c
            if add not in out:
                out.append(add)
            if len(out) >= 4:
                break
        return out

    return chars


def differs(old, new, how, strings):
    """How many of the strings the two patterns match differently (where, or what groups)."""
    count = 0
    for s in strings:
        if outcome(old, how, s) != outcome(new, how, s):
            count += 1
    return count


def outcome(compiled, how, s):
    if how == "all":
        return [(m.span(), m.groups()) for m in compiled.finditer(s)]
    m = getattr(compiled, how)(s)
    return None if m is None else (m.span(), m.groups())
