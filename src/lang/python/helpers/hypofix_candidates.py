"""Repair candidates for one Python file, drawn from the file's own syntax tree.

Usage: python3 -I hypofix_candidates.py < request.json. Standard library only, Python 3.9+;
the user's code is parsed with `ast`, never imported or run. The request names the file (or
carries its source) and the suspect lines or a function's span; the result, printed as JSON
after RESULT_MARK, is a list of candidate edits in the edit-and-run DSL of
src/lang/python/experiment.ts, each named by the kind of mistake it repairs (the families
follow the simple-stupid-bug taxonomies of ManySStuBs4J and PySStuBs), with a one-sentence
claim, features for rankers and a prior (smaller is likelier). Every candidate's edited
source parses. src/lang/python/candidates.ts is the only caller and validates the output.
"""

import ast
import builtins
import difflib
import io
import json
import os
import re
import sys
import time
import tokenize

RESULT_MARK = "\n@@HYPOFIX-RESULT@@\n"
DEFAULT_BUDGET = 80
MAX_TOTAL = 3000

BUILTIN_NAMES = set(dir(builtins))
COMPARE_TEXT = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
# Alternatives for a comparison operator, likeliest first: the bound, then the direction.
COMPARE_ALTERNATIVES = {
    "<": ["<=", ">", ">=", "!=", "=="],
    "<=": ["<", ">=", ">", "==", "!="],
    ">": [">=", "<", "<=", "!=", "=="],
    ">=": [">", "<=", "<", "==", "!="],
    "==": ["!=", "is", "<=", ">="],
    "!=": ["==", "is not", "<", ">"],
    "is": ["is not", "=="],
    "is not": ["is", "!="],
    "in": ["not in"],
    "not in": ["in"],
}
BINOP_TEXT = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
}
BINOP_ALTERNATIVES = {
    "+": ["-", "*"],
    "-": ["+"],
    "*": ["/", "//", "+", "**"],
    "/": ["//", "*"],
    "//": ["/", "%", "*"],
    "%": ["//"],
    "**": ["*"],
    "&": ["|"],
    "|": ["&"],
    "<<": [">>"],
    ">>": ["<<"],
}
NON_COMMUTATIVE = {"-", "/", "//", "%", "**", "<<", ">>"}


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


# ---------------------------------------------------------------------------------------------
# What the file knows: scopes, kinds of names, keys, strings, attributes, exceptions.

FRESH_CALLS = {"list", "dict", "set", "defaultdict", "Counter", "OrderedDict", "deque"}
KIND_OF_CALL = {
    "int": "int",
    "len": "int",
    "sum": "number",
    "round": "number",
    "float": "float",
    "abs": "number",
    "str": "str",
    "repr": "str",
    "list": "list",
    "sorted": "list",
    "dict": "dict",
    "set": "set",
    "tuple": "tuple",
    "bool": "bool",
    "defaultdict": "dict",
    "Counter": "dict",
    "OrderedDict": "dict",
}
KIND_OF_METHOD = {
    "strip": "str",
    "lstrip": "str",
    "rstrip": "str",
    "lower": "str",
    "upper": "str",
    "title": "str",
    "capitalize": "str",
    "casefold": "str",
    "format": "str",
    "join": "str",
    "split": "list",
    "rsplit": "list",
    "splitlines": "list",
    "isdigit": "bool",
    "startswith": "bool",
    "endswith": "bool",
    "count": "int",
    "find": "int",
}
KIND_OF_ANNOTATION = {
    "List": "list",
    "Dict": "dict",
    "Set": "set",
    "Tuple": "tuple",
    "Sequence": "list",
    "Mapping": "dict",
    "Iterable": "list",
    "FrozenSet": "set",
    "frozenset": "set",
    "Optional": None,
}
NUMERIC = {"int", "float", "bool", "number"}


def kind_of_value(node):
    """A coarse type of an expression's value, when the syntax says it."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return None
        if isinstance(node.value, bool):
            return "bool"
        return type(node.value).__name__
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return "bool"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return KIND_OF_CALL.get(node.func.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return KIND_OF_METHOD.get(node.func.attr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return kind_of_value(node.operand)
    return None


def kind_of_annotation(node):
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript):
        base = node.value
        name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
        if name == "Optional":
            inner = node.slice
            if isinstance(inner, ast.Index):  # Python 3.8 shape, kept for safety
                inner = inner.value
            return kind_of_annotation(inner)
        return KIND_OF_ANNOTATION.get(name, name.lower() if name in ("list", "dict", "set", "tuple") else name)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = kind_of_annotation(node.left), kind_of_annotation(node.right)
        if left == "None":
            return right
        return left if right in ("None", None) else None
    if isinstance(node, ast.Name):
        return KIND_OF_ANNOTATION.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


CLASS_OF_KIND = {
    "list": "container",
    "dict": "container",
    "set": "container",
    "tuple": "container",
    "int": "scalar",
    "float": "scalar",
    "number": "scalar",
    "bool": "scalar",
    "str": "text",
}
CONTAINER_METHODS = {
    "append", "extend", "add", "update", "items", "keys", "values", "get", "pop", "remove",
    "discard", "sort", "setdefault", "popleft", "appendleft", "clear", "copy",
}
TEXT_METHODS = {"strip", "lower", "upper", "startswith", "endswith", "split", "replace", "format", "encode", "isdigit"}
CONTAINER_CALLS = {"len", "sorted", "sum", "list", "set", "any", "all", "enumerate", "zip", "reversed", "dict", "tuple"}


def usage_classes(nodes):
    """{name: "container" | "scalar" | "text"} from how a function uses each name (conflicts left out)."""
    found = {}

    def mark(node, cls):
        if isinstance(node, ast.Name):
            found.setdefault(node.id, set()).add(cls)

    for n in nodes:
        if isinstance(n, ast.Subscript):
            mark(n.value, "container")
            index = n.slice
            if isinstance(index, ast.Name):
                mark(index, "scalar")
        elif isinstance(n, (ast.For, ast.comprehension)):
            mark(n.iter, "container")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            if n.func.id in CONTAINER_CALLS and len(n.args) == 1:
                mark(n.args[0], "container")
            elif n.func.id == "range":
                for a in n.args:
                    mark(a, "scalar")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr in CONTAINER_METHODS:
                mark(n.func.value, "container")
            elif n.func.attr in TEXT_METHODS:
                mark(n.func.value, "text")
            elif n.func.attr == "join" and len(n.args) == 1:
                mark(n.args[0], "container")
        elif isinstance(n, ast.Compare):
            for op, right in zip(n.ops, n.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    mark(right, "container")
            operands = [n.left] + list(n.comparators)
            if any(isinstance(o, ast.Constant) and isinstance(o.value, (int, float)) and not isinstance(o.value, bool) for o in operands):
                for o in operands:
                    mark(o, "scalar")
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
            mark(n.left, "scalar")
            mark(n.right, "scalar")
    return {name: next(iter(cls)) for name, cls in found.items() if len(cls) == 1}


def compatible(a, b):
    if a is None or b is None or a == b:
        return True
    return a in NUMERIC and b in NUMERIC


def docstring_node(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        if isinstance(body[0].value.value, str):
            return body[0]
    return None


def is_fresh(node):
    """An empty or zero initial value: what an accumulator starts from."""
    if isinstance(node, ast.Constant):
        return node.value in (0, "", None, False) or node.value == 0.0
    if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in FRESH_CALLS and not node.keywords and len(node.args) <= 1
    return False


class Binding:
    __slots__ = ("name", "line", "kinds", "role")

    def __init__(self, name, line, role):
        self.name = name
        self.line = line
        self.kinds = set()
        self.role = role  # param, local, loop, import, function, class, global

    @property
    def kind(self):
        kinds = self.kinds - {None}
        return next(iter(kinds)) if len(kinds) == 1 else None


class Scope:
    """Names bound in a function (or the module), each with where it is first bound and its kind."""

    def __init__(self, node, parent):
        self.node = node
        self.parent = parent
        self.names = {}
        self.globals = set()
        self.is_class = False

    def bind(self, name, line, role, kind=None):
        b = self.names.get(name)
        if b is None:
            b = self.names[name] = Binding(name, line, role)
        else:
            b.line = min(b.line, line)
        b.kinds.add(kind)
        return b


def is_property(decorator):
    if isinstance(decorator, ast.Name):
        return decorator.id in ("property", "cached_property")
    if isinstance(decorator, ast.Attribute):
        return decorator.attr in ("setter", "getter", "cached_property")
    return False


def bind_target(scope, target, line, role, kind=None):
    if isinstance(target, ast.Name):
        scope.bind(target.id, line, role, kind)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            bind_target(scope, elt, line, role)
    elif isinstance(target, ast.Starred):
        bind_target(scope, target.value, line, role, "list")


class Module:
    """Facts about the whole file that candidates draw on."""

    def __init__(self, src, tree):
        self.src = src
        self.tree = tree
        self.parent = {}
        self.scope_of = {}  # function or module node -> Scope
        self.class_of = {}  # function node -> enclosing ClassDef (for methods)
        self.skip = set()  # ids of nodes never edited: docstrings, annotations, f-string insides
        self.keys = {}  # string keys used with dicts -> count
        self.strings = {}  # other string literals -> count
        self.numbers = {}
        self.attributes = {}  # base text -> set of attribute names seen after it
        self.all_attributes = set()
        self.class_attributes = {}  # ClassDef -> {name: kind} assigned as self.<name>
        self.methods = {}  # ClassDef -> {name: FunctionDef}
        self.functions = {}  # module-level name -> FunctionDef
        self.exceptions = []  # exception types defined or raised in the module, in order
        self.imports = set()  # names imported at module level
        self.round_digits = set()
        self.key_ids = set()  # ids of the string constants used as keys
        self.foreign_attributes = []  # {attribute: kind} of the classes in the modules this one imports from
        self.foreign_functions = {}  # their module-level functions: {name: number of parameters}
        self.exception_inits = {}  # exception classes defined here or imported: exception_inits
        self.foreign_keys = set()  # string keys the repository modules this one imports from use
        self.test_keys = set()  # string keys the failing tests' files use
        self._regions = None
        self._visible = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.module_scope = Scope(tree, None)
        self.scope_of[tree] = self.module_scope
        self._collect(tree, self.module_scope, None)
        self._facts()
        self.exception_inits.update(exception_inits(self))

    # Scopes and bindings.
    def _collect(self, node, scope, cls):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope.bind(child.name, child.lineno, "function")
                outer = scope.parent if scope.is_class else scope
                if scope is self.module_scope:
                    self.functions[child.name] = child
                if cls is not None and self.parent.get(child) is cls:
                    self.class_of[child] = cls
                    if any(is_property(d) for d in child.decorator_list):
                        self.class_attributes.setdefault(cls, {})[child.name] = kind_of_annotation(child.returns)
                    else:
                        self.methods.setdefault(cls, {})[child.name] = child
                inner = Scope(child, outer)
                self.scope_of[child] = inner
                args = child.args
                every = list(getattr(args, "posonlyargs", [])) + list(args.args) + list(args.kwonlyargs)
                for a in every:
                    inner.bind(a.arg, child.lineno, "param", kind_of_annotation(a.annotation))
                for a in (args.vararg, args.kwarg):
                    if a is not None:
                        inner.bind(a.arg, child.lineno, "param", "tuple" if a is args.vararg else "dict")
                for d in child.args.defaults + [d for d in child.args.kw_defaults if d is not None]:
                    self._collect_expr(d, outer)
                self._collect(child, inner, self.class_of.get(child) if cls is not None else None)
                continue
            if isinstance(child, ast.ClassDef):
                scope.bind(child.name, child.lineno, "class")
                # A class body is a scope of its own that its methods do not see; its fields
                # (dataclass, NamedTuple, class constants) are attributes of its objects.
                body = Scope(child, scope)
                body.is_class = True
                self._collect(child, body, child)
                fields = self.class_attributes.setdefault(child, {})
                for name, b in body.names.items():
                    if b.role == "local":
                        fields.setdefault(name, b.kind)
                continue
            if isinstance(child, ast.Lambda):
                inner = Scope(child, scope)
                self.scope_of[child] = inner
                for a in child.args.args:
                    inner.bind(a.arg, child.lineno, "param")
                self._collect(child, inner, None)
                continue
            line = getattr(child, "lineno", None)
            if isinstance(child, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                kind = kind_of_value(child.value) if child.value is not None else None
                if isinstance(child, ast.AnnAssign):
                    kind = kind_of_annotation(child.annotation) or kind
                for t in targets:
                    if isinstance(child, ast.AugAssign):
                        if isinstance(t, ast.Name):
                            scope.bind(t.id, line, "local")
                    else:
                        bind_target(scope, t, line, "local", kind)
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        owner = self._class_of_scope(scope)
                        if owner is not None:
                            self.class_attributes.setdefault(owner, {})[t.attr] = kind
            elif isinstance(child, (ast.For, ast.AsyncFor)):
                kind = None
                it = child.iter
                if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
                    kind = "int"
                bind_target(scope, child.target, line, "loop", kind)
                if (
                    isinstance(it, ast.Call)
                    and isinstance(it.func, ast.Name)
                    and it.func.id == "enumerate"
                    and isinstance(child.target, ast.Tuple)
                    and child.target.elts
                    and isinstance(child.target.elts[0], ast.Name)
                ):
                    scope.bind(child.target.elts[0].id, line, "loop", "int")
            elif isinstance(child, (ast.With, ast.AsyncWith)):
                for item in child.items:
                    if item.optional_vars is not None:
                        bind_target(scope, item.optional_vars, line, "local")
            elif isinstance(child, ast.ExceptHandler) and child.name:
                scope.bind(child.name, line, "local")
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                for alias in child.names:
                    name = alias.asname or alias.name.split(".")[0]
                    scope.bind(name, line, "import")
                    if scope is self.module_scope:
                        self.imports.add(name)
            elif isinstance(child, (ast.Global, ast.Nonlocal)):
                scope.globals.update(child.names)
            elif isinstance(child, ast.NamedExpr):
                bind_target(scope, child.target, line, "local", kind_of_value(child.value))
            elif isinstance(child, ast.comprehension):
                bind_target(scope, child.target, child.target.lineno, "comprehension")
            self._collect(child, scope, cls)

    def _collect_expr(self, node, scope):
        self._collect(ast.Expr(value=node), scope, None)

    def _class_of_scope(self, scope):
        while scope is not None and not isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope = scope.parent
        if scope is None:
            return None
        return self.class_of.get(scope.node)

    def _facts(self):
        src = self.src
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = docstring_node(node.body)
                if doc is not None:
                    self.skip.update(id(n) for n in ast.walk(doc))
            if isinstance(node, ast.arg) and node.annotation is not None:
                self.skip.update(id(n) for n in ast.walk(node.annotation))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
                self.skip.update(id(n) for n in ast.walk(node.returns))
            if isinstance(node, ast.AnnAssign):
                self.skip.update(id(n) for n in ast.walk(node.annotation))
            if isinstance(node, ast.JoinedStr):
                # Literal parts are never edited; an expression inside braces is, when its recorded
                # position really holds it (before 3.12 some f-string positions are off).
                for part in node.values:
                    if isinstance(part, ast.FormattedValue) and self._position_holds(part.value):
                        if part.format_spec is not None:
                            self.skip.update(id(n) for n in ast.walk(part.format_spec))
                    else:
                        self.skip.update(id(n) for n in ast.walk(part))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for d in node.decorator_list:
                    self.skip.update(id(n) for n in ast.walk(d))
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
                self.skip.update(id(n) for n in ast.walk(node))
            if isinstance(node, ast.ClassDef):
                for base in node.bases:
                    text = src.seg(base)
                    if text.endswith(("Error", "Exception", "Warning")) or text in self.exceptions:
                        self._exception(node.name)
            if isinstance(node, ast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(exc, (ast.Name, ast.Attribute)):
                    self._exception(src.seg(exc))
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
                for t in types:
                    if isinstance(t, (ast.Name, ast.Attribute)):
                        self._exception(src.seg(t))
            for key in self._key_nodes(node):
                self.keys[key.value] = self.keys.get(key.value, 0) + 1
                self.key_ids.add(id(key))
            if isinstance(node, ast.Attribute):
                self.all_attributes.add(node.attr)
                self.attributes.setdefault(src.seg(node.value), set()).add(node.attr)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round":
                if len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
                    self.round_digits.add(node.args[1].value)
        for node in ast.walk(self.tree):
            if id(node) in self.skip or id(node) in self.key_ids or not isinstance(node, ast.Constant):
                continue
            if isinstance(node.value, str):
                self.strings[node.value] = self.strings.get(node.value, 0) + 1
            elif isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
                self.numbers[node.value] = self.numbers.get(node.value, 0) + 1

    def _position_holds(self, node):
        try:
            text = self.src.seg(node)
            parsed = ast.parse(text.strip(), mode="eval").body
        except (SyntaxError, ValueError, IndexError):
            return False
        return text == text.strip() and ast.dump(parsed) == ast.dump(node)

    def _exception(self, name):
        if name not in self.exceptions:
            self.exceptions.append(name)

    @staticmethod
    def _key_nodes(node):
        """String constants used as dictionary keys: d["k"], {"k": v}, d.get("k"), "k" in d."""
        out = []
        if isinstance(node, ast.Subscript):
            s = node.slice
            if isinstance(s, ast.Index):  # pragma: no cover - Python 3.8 shape
                s = s.value
            out.append(s)
        elif isinstance(node, ast.Dict):
            out.extend(k for k in node.keys if k is not None)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get", "pop", "setdefault") and node.args:
                out.append(node.args[0])
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            if not isinstance(node.comparators[0], (ast.Constant, ast.JoinedStr)):
                out.append(node.left)
        return [k for k in out if isinstance(k, ast.Constant) and isinstance(k.value, str)]

    # Queries.
    def statement_region(self, stmt, first, last):
        """(start, end, indented, suffix) of a statement (a compound statement's header, completed by a
        `pass` body) alone on its lines that holds [first, last); None when there is none."""
        if not isinstance(stmt, ast.stmt) or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return None
        src = self.src
        own_start, own_end = src.span(stmt)
        suffix = ""
        last_line = stmt.end_lineno
        if hasattr(stmt, "body"):
            header_last = header_range(stmt)[1]
            if not stmt.body or stmt.body[0].lineno <= header_last:
                return None
            last_line = header_last
            own_end = src.line_end(header_last)
            suffix = "\n" + src.indent_of(stmt.lineno) + "    pass"
        start = src.starts[stmt.lineno - 1]
        end = src.line_end(last_line)
        if not (own_start <= first and last <= own_end):
            return None
        if src.text[start:own_start].strip() or (not suffix and src.text[own_end:end].split("#")[0].strip()):
            return None  # shares a line with another statement or a header
        return start, end, stmt.col_offset > 0, suffix

    def region_of(self, first, last):
        """(start, end, indented) offsets of the innermost function, else top-level statement, that
        holds the text range [first, last) with whole lines around it; None when none does."""
        if self._regions is None:
            self._regions = []
            for stmt in ast.walk(self.tree):
                top = self.parent.get(stmt) is self.tree
                if not (top or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))):
                    continue
                line = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
                start = self.src.starts[line - 1]
                end = self.src.line_end(stmt.end_lineno)
                self._regions.append((end - start, start, end, stmt.col_offset > 0))
            self._regions.sort()
        for _size, start, end, indented in self._regions:
            # A change at the very end (an insertion after the last line) belongs to what follows.
            if start <= first and last < end:
                return start, end, indented, ""
        return None

    def enclosing_function(self, node):
        node = self.parent.get(node)
        while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node = self.parent.get(node)
        return node

    def enclosing_loops(self, node):
        loops = []
        while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            parent = self.parent.get(node)
            if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and node in parent.body:
                loops.append(parent)
            node = parent
        return loops

    def visible(self, node, line):
        """Names a reader at `node` can use: {name: Binding}, innermost scope first. A local counts
        when bound before the statement holding `node` starts (or anywhere in a loop around it)."""
        stmt = node
        while stmt is not None and not isinstance(stmt, (ast.stmt, ast.ExceptHandler)):
            stmt = self.parent.get(stmt)
        if stmt is not None and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            line = min(line, stmt.lineno)
        found = {}
        fn = self.enclosing_function(node)
        scope = self.scope_of.get(fn) if fn is not None else self.module_scope
        loops = self.enclosing_loops(node)
        loop_start = min((l.lineno for l in loops), default=line)
        comprehension = self._in_comprehension(node)
        key = (id(fn), line, loop_start)
        if not comprehension and key in self._visible:
            return self._visible[key]
        while scope is not None:
            for name, b in scope.names.items():
                if name in found:
                    continue
                # Bound on this very line counts only inside a loop (from the pass before).
                if scope is self.module_scope or b.role == "param" or b.line < line or loops and loop_start <= b.line <= line:
                    if b.role != "comprehension":
                        found[name] = b
                    elif self._inside_comprehension_of(node, name):
                        found[name] = b
            scope = scope.parent
        if not comprehension:
            self._visible[key] = found
        return found

    def _in_comprehension(self, node):
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                return True
            node = self.parent.get(node)
        return False

    def _inside_comprehension_of(self, node, name):
        while node is not None and not isinstance(node, ast.stmt):
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                for gen in node.generators:
                    if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(gen.target)):
                        return True
            node = self.parent.get(node)
        return False


# ---------------------------------------------------------------------------------------------
# Units: the statements (or their headers) a suspect line belongs to.

HEADER_FIELDS = {
    ast.If: ("test",),
    ast.While: ("test",),
    ast.For: ("target", "iter"),
    ast.AsyncFor: ("target", "iter"),
    ast.With: ("items",),
    ast.AsyncWith: ("items",),
    ast.Try: (),
    ast.ClassDef: (),
}
BODY_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def own_fields(unit):
    """The expression parts of a statement that belong to it, not to statements nested in it."""
    if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return list(unit.args.defaults) + [d for d in unit.args.kw_defaults if d is not None]
    if isinstance(unit, ast.ExceptHandler):
        return [unit.type] if unit.type is not None else []
    names = HEADER_FIELDS.get(type(unit))
    if names is None:
        names = [f for f in unit._fields if f not in BODY_FIELDS]
    out = []
    for name in names:
        value = getattr(unit, name, None)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, ast.withitem):
                out.append(v.context_expr)
                if v.optional_vars is not None:
                    out.append(v.optional_vars)
            elif isinstance(v, (ast.expr, ast.keyword)):
                out.append(v)
    return out


def header_range(unit):
    first = unit.lineno
    parts = own_fields(unit)
    last = max([first] + [p.end_lineno for p in parts if getattr(p, "end_lineno", None)])
    if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)):
        last = max([last] + [a.end_lineno for a in ast.walk(unit.args) if isinstance(a, ast.arg)])
        if unit.returns is not None:
            last = max(last, unit.returns.end_lineno)
    if not hasattr(unit, "body") and not isinstance(unit, ast.ExceptHandler):
        last = max(last, unit.end_lineno)
    return first, last


def units_of(module):
    units = []
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.stmt, ast.ExceptHandler)) and id(node) not in module.skip:
            if isinstance(node, ast.ClassDef):
                continue
            units.append((header_range(node), node))
    return units


def walk_exprs(node, skip):
    """Expressions under `node` in source order, skipping docstrings, annotations and f-string insides."""
    if id(node) in skip:
        return
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.expr, ast.keyword, ast.comprehension, ast.arguments, ast.arg)):
            yield from walk_exprs(child, skip)


def qualname(module, node):
    parts = []
    while node is not None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            parts.append(node.name)
        node = module.parent.get(node)
    return ".".join(reversed(parts))


def needs_parens(node, module):
    """True when text replacing `node` with a binary expression must be parenthesised."""
    parent = module.parent.get(node)
    return isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Attribute, ast.Subscript, ast.Await)) and not (
        isinstance(parent, ast.Subscript) and parent.slice is node
    ) or (isinstance(parent, ast.Call) and parent.func is node)


def is_value(node):
    """A name, attribute or subscript: something whose truth a condition may test."""
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and isinstance(getattr(node, "ctx", None), ast.Load)


def is_atom(node):
    return isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set))


# Runtime type names (hints.types) that take part in arithmetic with an integer.
NUMERIC_TYPES = {"int", "float", "bool", "Decimal", "Fraction", "complex"}
# Runtime types an integer index or slice bound applies to.
SEQUENCE_TYPES = {"list", "tuple", "str", "bytes", "bytearray", "range", "deque", "memoryview"}


def type_class(name):
    """The class of a runtime type name for compatibility: numbers are one class; None fits anything."""
    if name is None or name == "NoneType":
        return None
    return "number" if name in NUMERIC_TYPES else name


# ---------------------------------------------------------------------------------------------
# The generator.


class Generator:
    def __init__(self, module, hints):
        self.m = module
        self.src = module.src
        self.hints = hints
        self.seen = set()
        self.found = []  # candidates of the unit being worked on
        self.unit = None
        self.suspect = None
        self.parses = 0
        self._returns = {}
        self._unit_names = {}
        # {line: {name: type name}} seen when the failing test first ran each line (hints.types).
        self.types = {}
        for entry in hints.get("types", []) or []:
            if isinstance(entry, dict) and isinstance(entry.get("types"), dict):
                self.types[int(entry.get("line", 0))] = entry["types"]

    # Emission ----------------------------------------------------------------------------
    def emit(self, family, prior, changes, claim, node, names=(), literals=(), before="", after=""):
        """Records a candidate as text changes [(start, end, text)] of the original source; checked later."""
        self.found.append((prior, len(self.found), family, changes, claim, node, names, literals, before, after, self.unit))

    def materialize(self, budget):
        """The recorded candidates, likeliest first, that parse and that the DSL can express, up to `budget`."""
        out = []
        for pending in sorted(self.found, key=lambda p: (p[0], p[1])):
            if len(out) >= budget:
                break
            built = self.build(*pending)
            if built is not None:
                out.append(built)
        return out

    def build(self, prior, _order, family, changes, claim, node, names, literals, before, after, unit):
        text = self.src.text
        pieces = []
        at = 0
        for start, end, new in sorted(changes, key=lambda c: (c[0], c[1])):
            if start < at:
                return None
            pieces.append(text[at:start])
            pieces.append(new)
            at = end
        pieces.append(text[at:])
        edited = "".join(pieces)
        if edited == text or edited in self.seen:
            return None
        self.seen.add(edited)
        if not self.parses_after(changes, edited, unit):
            return None
        new_lines = edited.split("\n")
        head = text.count("\n", 0, min(c[0] for c in changes))
        tail = len(self.src.lines) - 1 - text.count("\n", 0, max(c[1] for c in changes))
        edits = line_edits(self.src.lines, new_lines, head, tail)
        if not edits or apply_dsl(self.src.lines, edits) != new_lines:
            return None
        fn = self.m.enclosing_function(node) if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else node
        features = {
            "node": type(node).__name__,
            "statement": type(unit).__name__ if unit is not None else "",
            "function": qualname(self.m, fn) if fn is not None else "",
            "names": sorted(set(n for n in names if n)),
            "literals": [str(v) for v in literals],
            "before": short(before, 200),
            "after": short(after, 200),
            "inLoop": bool(self.m.enclosing_loops(node)),
            "edits": len(edits),
        }
        return {
            "family": family,
            "line": min(e["line"] for e in edits),
            "suspect": self.suspect,
            "edits": edits,
            "claim": claim,
            "features": features,
            "prior": round(prior, 3),
        }

    def parses_after(self, changes, edited, unit=None):
        """Whether the edited file parses. The rest of the file is untouched (and parsed already), so
        the statement holding the changes is parsed alone when it can be; if that fails, the innermost
        function (else top-level statement, else file) holding them decides."""
        first = min(c[0] for c in changes)
        last = max(c[1] for c in changes)
        delta = sum(len(c[2]) - (c[1] - c[0]) for c in changes)
        small = self.m.statement_region(unit, first, last)
        if small is not None and self._parses(edited, small, delta):
            return True
        return self._parses(edited, self.m.region_of(first, last), delta)

    def _parses(self, edited, region, delta):
        self.parses += 1
        if region is None:
            snippet = edited
        else:
            start, end, indented, suffix = region
            snippet = edited[start : end + delta] + suffix
            if indented:
                snippet = "if 1:\n" + snippet  # an indented statement parses as the body of a block
        try:
            ast.parse(snippet)
        except (SyntaxError, ValueError):
            return False
        return True

    def replace(self, family, prior, node, new_text, claim, **kw):
        start, end = self.src.span(node)
        old = self.src.text[start:end]
        if old == new_text:
            return
        kw.setdefault("before", old)
        kw.setdefault("after", new_text)
        self.emit(family, prior, [(start, end, new_text)], claim, node, **kw)

    def insert_before(self, stmt, lines):
        """A change inserting statement lines above `stmt` at its indentation; None if it shares its line."""
        src = self.src
        indent = src.indent_of(stmt.lineno)
        start = src.offset(stmt.lineno, stmt.col_offset)
        if start != src.starts[stmt.lineno - 1] + len(indent):
            return None
        at = src.starts[stmt.lineno - 1]
        return (at, at, "".join(indent + line + "\n" for line in lines))

    def insert_after(self, stmt, lines, indent=None):
        src = self.src
        if indent is None:
            indent = src.indent_of(stmt.lineno)
        first = src.offset(stmt.lineno, stmt.col_offset)
        if first != src.starts[stmt.lineno - 1] + len(src.indent_of(stmt.lineno)):
            return None
        at = src.line_end(stmt.end_lineno)
        return (at, at, "".join("\n" + indent + line for line in lines))

    def body_start(self, fn):
        """The first statement of a function's body after its docstring, or the docstring to insert after."""
        body = fn.body
        doc = docstring_node(body)
        if doc is not None:
            return (body[1], False) if len(body) > 1 else (doc, True)
        return body[0], False

    def insert_at_top(self, fn, lines):
        stmt, after = self.body_start(fn)
        if after:
            return self.insert_after(stmt, lines)
        return self.insert_before(stmt, lines)

    def runtime_type(self, node):
        """The type name a name or `self.<attribute>` had when the failing test ran its line (or,
        failing that, another line of the same function), else None."""
        if isinstance(node, ast.Name):
            key = node.id
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            key = "self." + node.attr
        else:
            return None
        return self.type_near(key, node)

    def type_near(self, key, node):
        """The type name `key` (a name or `self.<attribute>`) had at node's line, else at the
        nearest line of its function that the failing test ran."""
        if not self.types:
            return None
        seen = self.types.get(node.lineno)
        if seen is not None and key in seen:
            return seen[key]
        fn = self.m.enclosing_function(node)
        if fn is None:
            return None
        for line in sorted(self.types, key=lambda n: abs(n - node.lineno)):
            if fn.lineno <= line <= (fn.end_lineno or fn.lineno) and key in self.types[line]:
                return self.types[line][key]
        return None

    def not_numeric(self, node):
        """Whether the failing test showed `node` holding something that is not a number."""
        cls = type_class(self.runtime_type(node))
        return cls is not None and cls != "number"

    # Families on expressions of one unit -------------------------------------------------
    def expression_families(self, unit, nodes):
        for node in nodes:
            if isinstance(node, ast.Compare):
                self.changed_operator_compare(node)
            elif isinstance(node, ast.BinOp):
                self.changed_operator_binop(node)
                self.swapped_operands(node)
                self.off_by_one_drop(node)
            elif isinstance(node, ast.BoolOp):
                self.changed_operator_boolop(node)
                self.condition_parts(node)
            elif isinstance(node, ast.Constant):
                self.changed_literal(node)
            elif isinstance(node, ast.UnaryOp):
                self.changed_unary(node)
            elif isinstance(node, ast.Name):
                self.changed_identifier(node)
            elif isinstance(node, ast.Attribute):
                self.changed_attribute(node)
            elif isinstance(node, ast.Subscript):
                self.off_by_one_subscript(node)
            elif isinstance(node, ast.Call):
                self.call_families(node)
        self.negated_condition(unit)
        self.truthiness(unit)
        self.extended_expression(unit, nodes)
        if isinstance(unit, ast.AugAssign):
            self.changed_operator_augassign(unit)
        if isinstance(unit, ast.Assign):
            self.overwrite_instead_of_accumulate(unit)

    # changed-operator
    def op_gap(self, left, right):
        """(start, end, text) of the operator between two operand nodes, or None."""
        src = self.src
        a = src.offset(left.end_lineno, left.end_col_offset)
        b = src.offset(right.lineno, right.col_offset)
        gap = src.text[a:b]
        toks = gap_tokens(gap)
        if not toks:
            return None
        first, last = toks[0], toks[-1]
        start = a + char_offset_in(gap, *first.start)
        end = a + char_offset_in(gap, *last.end)
        return start, end, src.text[start:end]

    def changed_operator_compare(self, node):
        operands = [node.left] + list(node.comparators)
        for i, op in enumerate(node.ops):
            found = self.op_gap(operands[i], operands[i + 1])
            if found is None:
                continue
            start, end, old = found
            old_text = COMPARE_TEXT[type(op)]
            for k, alt in enumerate(COMPARE_ALTERNATIVES.get(old_text, [])):
                bound = {old_text, alt} in ({"<", "<="}, {">", ">="})
                if old_text in ("is", "is not", "==", "!=") and alt in ("is", "is not", "==", "!="):
                    if (alt in ("is", "is not")) != (old_text in ("is", "is not")):
                        prior = 2.2  # `is` vs `==`: only right for singletons
                    else:
                        prior = 1.0
                elif old_text in ("in", "not in"):
                    prior = 1.0
                else:
                    prior = 1.0 if bound else 1.4 + 0.3 * k
                left, right = self.src.seg(operands[i]), self.src.seg(operands[i + 1])
                why = "the bound is off by one" if bound else "the comparison tests the wrong relation"
                claim = (
                    f"The comparison at line {node.lineno} uses {in_backticks(old_text)} where "
                    f"{in_backticks(alt)} is meant ({why}): {in_backticks(short(left + ' ' + old_text + ' ' + right))} "
                    f"should be {in_backticks(short(left + ' ' + alt + ' ' + right))}."
                )
                self.emit(
                    "changed-operator",
                    prior,
                    [(start, end, alt)],
                    claim,
                    node,
                    names=names_in(node),
                    before=old_text,
                    after=alt,
                )

    def changed_operator_binop(self, node):
        old = BINOP_TEXT.get(type(node.op))
        found = self.op_gap(node.left, node.right)
        if old is None or found is None:
            return
        start, end, _ = found
        text_operand = any(isinstance(o, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(o, "value", ""), str) for o in (node.left, node.right))
        for k, alt in enumerate(BINOP_ALTERNATIVES.get(old, [])):
            prior = (1.3 if k == 0 else 2.4 + 0.2 * k) + (1.5 if text_operand else 0)
            claim = (
                f"The arithmetic at line {node.lineno} uses {in_backticks(old)} where {in_backticks(alt)} is meant: "
                f"{in_backticks(short(self.src.seg(node)))} should use {in_backticks(alt)}."
            )
            self.emit("changed-operator", prior, [(start, end, alt)], claim, node, names=names_in(node), before=old, after=alt)

    def changed_operator_boolop(self, node):
        old, alt = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        changes = []
        for left, right in zip(node.values, node.values[1:]):
            found = self.op_gap(left, right)
            if found is None:
                return
            changes.append((found[0], found[1], alt))
        claim = (
            f"The condition at line {node.lineno} joins its parts with {in_backticks(old)} where "
            f"{in_backticks(alt)} is meant: {in_backticks(short(self.src.seg(node)))}."
        )
        self.emit("changed-operator", 1.4, changes, claim, node, names=names_in(node), before=old, after=alt)

    def changed_operator_augassign(self, unit):
        old = BINOP_TEXT.get(type(unit.op))
        found = self.op_gap(unit.target, unit.value)
        if old is None or found is None:
            return
        start, end, _ = found
        alts = [a + "=" for a in BINOP_ALTERNATIVES.get(old, [])] + ["="]
        for k, alt in enumerate(alts):
            prior = 1.3 if k == 0 else 2.4 + 0.2 * k
            what = "overwrites" if alt == "=" else "uses"
            claim = (
                f"Line {unit.lineno} updates {in_backticks(self.src.seg(unit.target))} with "
                f"{in_backticks(old + '=')} where {in_backticks(alt)} is meant"
                + (" (the value should be replaced, not accumulated)." if alt == "=" else ".")
            )
            del what
            self.emit("changed-operator", prior, [(start, end, alt)], claim, unit, names=names_in(unit.target), before=old + "=", after=alt)

    def overwrite_instead_of_accumulate(self, unit):
        """`total = x` inside a loop, where `total` was initialised before it: `total += x`."""
        if len(unit.targets) != 1 or not isinstance(unit.targets[0], (ast.Name, ast.Attribute)):
            return
        loops = self.m.enclosing_loops(unit)
        if not loops:
            return
        target = self.src.seg(unit.targets[0])
        if any(isinstance(n, (ast.Name, ast.Attribute)) and self.src.seg(n) == target for n in ast.walk(unit.value)):
            return  # `x = x + ...` already accumulates
        found = self.op_gap(unit.targets[0], unit.value)
        if found is None:
            return
        kind = kind_of_value(unit.value)
        for k, alt in enumerate(["+=", "-=", "*="] if kind != "str" else ["+="]):
            claim = (
                f"Line {unit.lineno} overwrites {in_backticks(target)} on every pass of the loop where it should "
                f"accumulate: {in_backticks('=')} should be {in_backticks(alt)}."
            )
            self.emit("changed-operator", 2.3 + 0.4 * k, [(found[0], found[1], alt)], claim, unit, names=[target], before="=", after=alt)

    def changed_unary(self, node):
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            self.changed_literal(node)
            return
        if isinstance(node.op, ast.USub):
            claim = f"The sign at line {node.lineno} is wrong: {in_backticks(short(self.src.seg(node)))} should be {in_backticks(short(self.src.seg(node.operand)))}."
            self.replace("changed-operator", 2.2, node, self.src.seg(node.operand), claim, names=names_in(node))

    # swapped-operands
    def swapped_operands(self, node):
        old = BINOP_TEXT.get(type(node.op))
        if old not in NON_COMMUTATIVE:
            return
        left, right = self.src.seg(node.left), self.src.seg(node.right)
        if left == right:
            return
        (ls, le), (rs, re_) = self.src.span(node.left), self.src.span(node.right)
        wrap = lambda n, t: t if is_atom(n) else "(" + t + ")"
        claim = (
            f"The operands at line {node.lineno} are the wrong way round: "
            f"{in_backticks(short(self.src.seg(node)))} should be {in_backticks(short(wrap(node.right, right) + ' ' + old + ' ' + wrap(node.left, left)))}."
        )
        self.emit(
            "swapped-operands",
            2.4,
            [(ls, le, wrap(node.right, right)), (rs, re_, wrap(node.left, left))],
            claim,
            node,
            names=names_in(node),
        )

    # changed-literal
    def changed_literal(self, node):
        value_node = node.operand if isinstance(node, ast.UnaryOp) else node
        value = value_node.value
        if isinstance(node, ast.UnaryOp):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return
            value = -value
        if id(node) in self.m.skip:
            return
        parent = self.m.parent.get(node)
        text = self.src.seg(node)
        alts = []  # (prior, new text, why)
        if isinstance(value, bool):
            alts.append((1.0, repr(not value), "the flag is the wrong way round"))
        elif value is None:
            for i, alt in enumerate(self.return_shapes(node)):
                alts.append((2.4 + 0.2 * i, alt, "the default value has the wrong shape"))
        elif isinstance(value, int):
            if isinstance(parent, ast.Subscript) and parent.slice is node:
                return  # off-by-one handles indexes
            seen = [value + 1, value - 1] if value != 0 else [1, -1]
            for i, alt in enumerate(seen):
                alts.append((1.5 + 0.3 * i, str(alt), "the constant is off by one"))
            for i, alt in enumerate(sorted(n for n in self.m.numbers if isinstance(n, int) and n not in seen and n != value and abs(n - value) <= 100)[:3]):
                alts.append((3.0 + 0.1 * i, str(alt), "the constant is another one used in the file"))
        elif isinstance(value, float):
            for i, alt in enumerate(sorted(n for n in self.m.numbers if n != value)[:3]):
                alts.append((3.0 + 0.1 * i, repr(alt), "the constant is another one used in the file"))
        elif isinstance(value, str):
            if id(node) in self.m.key_ids:
                self.changed_key(node)
                if value not in ("", " "):
                    return
            if "\n" in text and text.count("\n") > 0 and text.lstrip("rRbBuU").startswith(('"""', "'''")):
                return  # a block of text, not a token to tune
            quote = '"' if text.endswith('"') else "'"
            if value == "":
                alts.append((1.5, quote + " " + quote, "the string should be a space"))
            elif value == " ":
                alts.append((1.5, quote + quote, "the string should be empty"))
            for i, alt in enumerate(self.similar_strings(value)):
                alts.append((2.2 + 0.2 * i, py_string(alt, quote), "the string is another one used in the file"))
            if value.isalpha() and value.lower() != value:
                alts.append((2.8, py_string(value.lower(), quote), "the string's case is wrong"))
            if value.isalpha() and value.upper() != value and len(value) <= 3:
                alts.append((2.8, py_string(value.upper(), quote), "the string's case is wrong"))
        for prior, new, why in alts:
            claim = f"The literal {in_backticks(short(text))} at line {node.lineno} is wrong ({why}): it should be {in_backticks(short(new))}."
            self.replace("changed-literal", prior, node, new, claim, literals=[text, new])

    def similar_strings(self, value, limit=4):
        """Strings of the file that a slip could have replaced: separators with separators, words with similar words."""
        out = []
        sep = lambda s: 0 < len(s) <= 3 and not any(c.isalnum() for c in s)
        for other, _count in sorted(self.m.strings.items(), key=lambda kv: -kv[1]):
            if other == value or "\n" in other and len(other) > 3:
                continue
            if (sep(value) or value in ("", " ")) and sep(other):
                out.append(other)
            elif value and other and difflib.SequenceMatcher(None, value.lower(), other.lower()).ratio() >= 0.6:
                out.append(other)
        return out[:limit]

    def return_shapes(self, node):
        fn = self.m.enclosing_function(node)
        shapes = []
        if fn is not None:
            for n in ast.walk(fn):
                if isinstance(n, ast.Return) and n.value is not None and is_fresh(n.value):
                    t = self.src.seg(n.value)
                    if t not in shapes and t != "None":
                        shapes.append(t)
        return shapes[:3]

    # changed-key
    def changed_key(self, node):
        value = node.value
        text = self.src.seg(node)
        quote = '"' if text.endswith('"') else "'"
        hinted = [k for k in self.hints.get("keys", []) if k != value]
        close = lambda k: -difflib.SequenceMatcher(None, value, k).ratio()  # noqa: E731
        # Keys the failing tests use (they name what the code should produce or read), then keys
        # of this module and of the repository modules it imports from.
        tested = sorted((k for k in self.m.test_keys if k != value and k not in hinted), key=close)[:4]
        others = [k for k in set(self.m.keys) | self.m.foreign_keys if k != value and k not in hinted and k not in tested]
        ranked = sorted(others, key=lambda k: (close(k), k))
        for i, key in enumerate(hinted[:6] + tested + ranked[:8]):
            ratio = difflib.SequenceMatcher(None, value, key).ratio()
            base = 0.8 if key in hinted else 1.3 if key in tested else 1.6 if key in self.m.keys else 1.8
            prior = base + (1 - ratio) * 1.5 + 0.05 * i
            new = py_string(key, quote)
            claim = f"The key {in_backticks(text)} at line {node.lineno} is the wrong one: it should be {in_backticks(new)}."
            self.replace("changed-key", prior, node, new, claim, literals=[text, new])

    # changed-identifier
    def changed_identifier(self, node):
        if id(node) in self.m.skip or node.id in ("self", "cls"):
            return
        parent = self.m.parent.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            return  # call_families: wrong-function
        if isinstance(node.ctx, ast.Del):
            return
        line = node.lineno
        visible = self.m.visible(node, line)
        mine = visible.get(node.id)
        if mine is not None and mine.role in ("function", "class", "import"):
            return
        if mine is None and node.id in BUILTIN_NAMES:
            return
        kind = mine.kind if mine is not None else None
        usage = self.usage(node)
        use = CLASS_OF_KIND.get(kind) or usage.get(node.id)
        unit_names = self.unit_names()
        hinted = set(self.hints.get("names", []))
        options = []
        for name, b in visible.items():
            if name == node.id or b.role in ("function", "class", "import") or name in ("self", "cls"):
                continue
            other_use = CLASS_OF_KIND.get(b.kind) or usage.get(name)
            # A name of another type is a rarer slip (it mostly fails loudly), not an impossible one.
            mismatch = not compatible(kind, b.kind) or (use is not None and other_use is not None and use != other_use)
            if isinstance(node.ctx, ast.Store) and b.role == "param":
                continue
            local = b.role != "global" and b is not self.m.module_scope.names.get(name)
            prior = (2.4 if name in unit_names else 2.8 if local else 3.4) + (1.2 if mismatch else 0)
            if name in hinted:
                prior -= 1.0
            if kind is not None and b.kind == kind:
                prior -= 0.2
            ratio = difflib.SequenceMatcher(None, node.id, name).ratio()
            prior -= 0.4 * ratio
            fn = self.m.enclosing_function(node)
            unused = self.unused_names(fn) if fn is not None else {}
            if name in unused and isinstance(node.ctx, ast.Load):
                # A value computed and never read is likely the one meant where another is read.
                prior -= 1.2 if unused[name] == "local" else 0.6
            mine_type = type_class(self.runtime_type(node))
            other_type = type_class(self.type_near(name, node))
            if mine_type is not None and other_type is not None and mine_type != other_type:
                prior += 1.5  # the failing test showed the two holding different types
            options.append((prior, name))
        # `x` where `self.x` was meant.
        cls = self.method_class(node)
        if cls is not None and isinstance(node.ctx, ast.Load):
            attrs = self.m.class_attributes.get(cls, {})
            if node.id in attrs:
                options.append((2.2, "self." + node.id))
        if isinstance(node.ctx, ast.Store):
            options = [(p + 0.8, n) for p, n in options]
        options.sort()
        for prior, name in options[:12]:
            where = "assigns to" if isinstance(node.ctx, ast.Store) else "uses"
            claim = f"Line {line} {where} {in_backticks(node.id)} where {in_backticks(name)} is meant."
            self.replace("changed-identifier", prior, node, name, claim, names=[node.id, name])

    _usage = None

    def unused_names(self, fn):
        """{name: "local" | "param"} of fn's parameters and assigned locals whose value is never
        read, in fn or a function nested in it (adding to a container or storing into it is no
        read). Loop, `with` and `except` names are left out: an unused one is common in sound code."""
        cache = self.__dict__.setdefault("_unused", {})
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
            parent = self.m.parent.get(n)
            if isinstance(parent, ast.Attribute) and parent.value is n and parent.attr in MUTATORS:
                call = self.m.parent.get(parent)
                if isinstance(call, ast.Call) and call.func is parent:
                    continue
            if isinstance(parent, ast.Subscript) and parent.value is n and isinstance(parent.ctx, (ast.Store, ast.Del)):
                continue
            reads.add(n.id)
        out = {name: role for name, role in bound.items() if name not in reads and not name.startswith("_") and name not in ("self", "cls")}
        cache[id(fn)] = out
        return out

    def unit_names(self):
        key = id(self.unit)
        if key not in self._unit_names:
            self._unit_names[key] = set(names_in(self.unit)) if self.unit is not None else set()
        return self._unit_names[key]

    def usage(self, node):
        """How the enclosing function (or the module) uses its names: usage_classes, cached."""
        if self._usage is None:
            self._usage = {}
        fn = self.m.enclosing_function(node)
        key = id(fn)
        if key not in self._usage:
            self._usage[key] = usage_classes(list(self.own_nodes(fn)) if fn is not None else list(ast.walk(self.m.tree)))
        return self._usage[key]

    def method_class(self, node):
        fn = self.m.enclosing_function(node)
        while fn is not None and fn not in self.m.class_of:
            fn = self.m.enclosing_function(fn)
        if fn is None:
            return None
        args = fn.args.args
        if not args or args[0].arg != "self":
            return None
        return self.m.class_of[fn]

    # changed-attribute
    def changed_attribute(self, node):
        if id(node) in self.m.skip:
            return
        parent = self.m.parent.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            return  # call_families: wrong-function
        base = self.src.seg(node.value)
        if base in self.m.imports:
            return  # a module's constant: changed-identifier of a module is rarely the fix
        options = []
        hinted = set(self.hints.get("attributes", []))
        cls = self.method_class(node) if base == "self" else None
        same_base = set(self.m.attributes.get(base, set()))
        if cls is not None:
            same_base |= set(self.m.class_attributes.get(cls, {}))
            same_base -= set(self.m.methods.get(cls, {}))
        kinds = {}  # attribute -> its kind, in the classes that have this attribute
        if cls is None:
            # An object of a class defined here or imported from the repository that has this
            # attribute: its other attributes.
            for attrs in list(self.m.class_attributes.values()) + self.m.foreign_attributes:
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
                kind = self.m.class_attributes.get(cls, {}).get(node.attr)
                if not compatible(kind, self.m.class_attributes.get(cls, {}).get(name)):
                    continue
            elif kinds.get(node.attr) is not None and kinds.get(name) is not None:
                # Declared types (annotations, property return types): `issued` and `due` are both dates.
                prior += -0.5 if kinds[node.attr] == kinds[name] else 0.8
            if base == "self":
                # The types the failing test showed on the object.
                mine, other = (type_class(self.type_near("self." + a, node)) for a in (node.attr, name))
                if mine is not None and other is not None:
                    prior += -0.3 if mine == other else 1.0
            options.append((prior, base + "." + name, name))
        # `self.x` where the local `x` was meant.
        if isinstance(node.ctx, ast.Load):
            visible = self.m.visible(node, node.lineno)
            b = visible.get(node.attr)
            if b is not None and b.role in ("param", "local", "loop"):
                options.append((2.4, node.attr, node.attr))
        options.sort()
        for prior, new, name in options[:10]:
            claim = f"Line {node.lineno} reads the attribute {in_backticks(node.attr)} where {in_backticks(name)} is meant: {in_backticks(short(self.src.seg(node)))} should be {in_backticks(new)}."
            family = "changed-attribute" if "." in new else "changed-identifier"
            self.replace(family, prior, node, new, claim, names=[node.attr, name])

    # negated-condition, over-specific-condition, over-broad-condition
    def condition_tests(self, unit):
        tests = []
        if isinstance(unit, (ast.If, ast.While)):
            tests.append(unit.test)
        if isinstance(unit, ast.Assert):
            tests.append(unit.test)
        for node in own_fields(unit):
            for n in walk_exprs(node, self.m.skip):
                if isinstance(n, ast.IfExp):
                    tests.append(n.test)
                elif isinstance(n, ast.comprehension):
                    tests.extend(n.ifs)
        if isinstance(unit, ast.Return) and unit.value is not None:
            if isinstance(unit.value, (ast.BoolOp, ast.Compare)) or (
                isinstance(unit.value, ast.UnaryOp) and isinstance(unit.value.op, ast.Not)
            ):
                tests.append(unit.value)
        return tests

    def truthiness(self, unit):
        """A truth test where a None test is meant, or the other way: `not x` lets 0 and "" through
        as missing (`x is None`), `x is None` lets them through as present (`not x`)."""
        for test in self.condition_tests(unit):
            for n in ast.walk(test):
                if id(n) in self.m.skip:
                    continue
                parent = self.m.parent.get(n)
                subject = None
                if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) and is_value(n.operand):
                    subject, family, new = n.operand, "over-broad-condition", "{} is None"
                elif isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.comparators[0], ast.Constant) and n.comparators[0].value is None and is_value(n.left):
                    subject = n.left
                    family, new = ("missing-condition", "not {}") if isinstance(n.ops[0], ast.Is) else ("missing-condition", "{}") if isinstance(n.ops[0], ast.IsNot) else (None, None)
                elif is_value(n) and (n is test or isinstance(parent, ast.BoolOp)) and not (isinstance(parent, ast.UnaryOp)):
                    subject, family, new = n, "over-broad-condition", "{} is not None"
                if subject is None or family is None:
                    continue
                text = self.src.seg(subject)
                edited = new.format(text)
                if new == "not {}" and isinstance(parent, (ast.Compare, ast.BinOp)):
                    edited = "(" + edited + ")"
                claim = f"The condition at line {n.lineno} tests {in_backticks(short(self.src.seg(n)))} where {in_backticks(short(edited))} is meant (a value like 0 or an empty string is handled the wrong way)."
                self.replace(family, 2.0, n, edited, claim, names=names_in(subject))

    def negated_condition(self, unit):
        for test in self.condition_tests(unit):
            text = self.src.seg(test)
            if isinstance(test, ast.Constant):
                continue  # `while True:` is meant
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                new = self.src.seg(test.operand)
                if isinstance(test.operand, (ast.BoolOp, ast.Compare)) and not is_atom(test.operand):
                    new = "(" + new + ")" if needs_parens(test, self.m) else new
                claim = f"The condition at line {test.lineno} is negated by mistake: {in_backticks(short(text))} should be {in_backticks(short(new))}."
                self.replace("negated-condition", 1.0, test, new, claim, names=names_in(test))
            elif not (isinstance(test, ast.Compare) and len(test.ops) == 1):
                new = "not " + (text if is_atom(test) else "(" + text + ")")
                if needs_parens(test, self.m) or isinstance(self.m.parent.get(test), ast.BoolOp):
                    new = "(" + new + ")"
                claim = f"The condition at line {test.lineno} is the wrong way round: {in_backticks(short(text))} should be {in_backticks(short(new))}."
                self.replace("negated-condition", 1.2, test, new, claim, names=names_in(test))
            if isinstance(test, ast.BoolOp):
                for part in test.values:
                    ptext = self.src.seg(part)
                    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
                        new = self.src.seg(part.operand)
                        if not is_atom(part.operand):
                            new = "(" + new + ")"
                    elif isinstance(part, ast.Compare) and len(part.ops) == 1:
                        continue  # changed-operator negates a single comparison
                    else:
                        new = "not " + (ptext if is_atom(part) else "(" + ptext + ")")
                    claim = f"Part of the condition at line {test.lineno} is negated the wrong way: {in_backticks(short(ptext))} should be {in_backticks(short(new))}."
                    self.replace("negated-condition", 1.5, part, new, claim, names=names_in(part))

    def condition_parts(self, node):
        """Drop one conjunct (an over-specific condition) or one disjunct (an over-broad one)."""
        conj = isinstance(node.op, ast.And)
        joiner = " and " if conj else " or "
        for i, part in enumerate(node.values):
            rest = [self.src.seg(v) if is_atom(v) or not isinstance(v, ast.BoolOp) else "(" + self.src.seg(v) + ")" for j, v in enumerate(node.values) if j != i]
            new = joiner.join(rest)
            if len(rest) > 1 and needs_parens(node, self.m):
                new = "(" + new + ")"
            family = "over-specific-condition" if conj else "over-broad-condition"
            what = "should not require" if conj else "should not accept on"
            claim = f"The condition at line {node.lineno} {what} {in_backticks(short(self.src.seg(part)))}: {in_backticks(short(self.src.seg(node)))} should be {in_backticks(short(new))}."
            self.replace(family, 2.0 + 0.1 * i, node, new, claim, names=names_in(part))

    # off-by-one
    def off_by_one_subscript(self, node):
        index = node.slice
        if isinstance(index, ast.Index):  # pragma: no cover - Python 3.8 shape
            index = index.value
        if isinstance(node.ctx, ast.Del):
            return
        container = self.runtime_type(node.value)
        if container is not None and container not in SEQUENCE_TYPES:
            return  # a mapping's key (or another object's index) is not off by one
        if isinstance(index, ast.Slice):
            for bound in (index.lower, index.upper):
                if bound is not None:
                    self.shift(bound, "the slice bound is off by one", 1.5)
            return
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return
        if isinstance(index, ast.Tuple):
            return
        self.shift(index, "the index is off by one", 1.5)
        if isinstance(index, ast.Constant) and index.value == 0:
            self.replace("off-by-one", 2.0, index, "-1", f"Line {node.lineno} takes the first item where the last is meant: {in_backticks(short(self.src.seg(node)))} should end in {in_backticks('[-1]')}.")
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub) and isinstance(index.operand, ast.Constant) and index.operand.value == 1:
            self.replace("off-by-one", 2.0, index, "0", f"Line {node.lineno} takes the last item where the first is meant: {in_backticks(short(self.src.seg(node)))} should end in {in_backticks('[0]')}.")

    def shift(self, node, why, prior, down_first=False):
        """`e` → `e + 1` / `e - 1`, and `e ± 1` → `e`; not for a value the failing test showed is no number."""
        if self.not_numeric(node):
            return
        text = self.src.seg(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
            alts = [str(node.value + 1), str(node.value - 1)] if node.value != 0 else ["1"]
        elif isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, int):
            v = -node.operand.value
            alts = [str(v + 1) if v + 1 != 0 else None, str(v - 1)]
            alts = [a for a in alts if a is not None]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(node.right, ast.Constant) and node.right.value == 1:
            return  # off_by_one_drop
        else:
            inner = text if is_atom(node) or isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) else "(" + text + ")"
            alts = [inner + " - 1", inner + " + 1"] if down_first else [inner + " + 1", inner + " - 1"]
        for i, alt in enumerate(alts):
            new = "(" + alt + ")" if needs_parens(node, self.m) and " " in alt else alt
            claim = f"At line {node.lineno} {why}: {in_backticks(short(text))} should be {in_backticks(short(new))}."
            self.replace("off-by-one", prior + 0.2 * i, node, new, claim, names=names_in(node), literals=[text, new])

    def off_by_one_drop(self, node):
        if isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(node.right, ast.Constant) and node.right.value == 1 and not isinstance(node.right.value, bool):
            new = self.src.seg(node.left)
            text = self.src.seg(node)
            claim = f"The {in_backticks(('+ 1' if isinstance(node.op, ast.Add) else '- 1'))} at line {node.lineno} is an off-by-one: {in_backticks(short(text))} should be {in_backticks(short(new))}."
            self.replace("off-by-one", 1.4, node, new, claim, names=names_in(node))

    def range_call(self, node):
        """range(n) ↔ range(n + 1), range(1, n); range(a, b) → range(a, b + 1), range(a + 1, b)."""
        args = node.args
        if not args or len(args) > 2 or any(isinstance(a, ast.Starred) for a in args):
            return
        for arg in args:
            self.shift(arg, "the range is off by one", 1.4)
        if len(args) == 1:
            start, end = self.src.span(args[0])
            text = self.src.seg(args[0])
            bound = text if is_atom(args[0]) else "(" + text + ")"
            for prior, new in ((1.8, "1, " + text), (1.9, "1, " + bound + " + 1")):
                claim = f"The range at line {node.lineno} should start at 1: {in_backticks(short(self.src.seg(node)))} should be {in_backticks('range(' + short(new) + ')')}."
                self.emit("off-by-one", prior, [(start, end, new)], claim, node, names=names_in(node))

    # Calls: wrong-function, missing-argument, extra-argument, swapped-arguments ------------
    def call_families(self, node):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name is None or id(node) in self.m.skip:
            return
        if isinstance(func, ast.Name) and name == "range":
            self.range_call(node)
        if isinstance(func, ast.Name) and name == "len" and isinstance(self.m.parent.get(node), ast.Compare):
            # `i == len(items)` where the last index, `len(items) - 1`, is meant (or the other way).
            self.shift(node, "the length compared is off by one", 1.6, down_first=True)
        self.wrong_function(node, func, name)
        self.missing_argument(node, func, name)
        self.extra_argument(node, name)
        self.swapped_arguments(node, name)

    def wrong_function(self, node, func, name):
        options = []
        for i, alt in enumerate(CONFUSED.get(name, [])):
            options.append((1.6 + 0.3 * i, alt))
        # A function of this module, or imported from the repository, with as many parameters.
        arities = {n: n_params(fn) for n, fn in self.m.functions.items()}
        for n, arity in self.m.foreign_functions.items():
            if n in self.m.imports:
                arities.setdefault(n, arity)
        if isinstance(func, ast.Name) and name in arities:
            for other, arity in arities.items():
                if other != name and arity == arities[name]:
                    options.append((3.0 - 0.4 * difflib.SequenceMatcher(None, name, other).ratio(), other))
        if isinstance(func, ast.Attribute) and self.src.seg(func.value) == "self":
            cls = self.method_class(node)
            methods = self.m.methods.get(cls, {}) if cls is not None else {}
            if name in methods:
                arity = n_params(methods[name])
                for other, fn in methods.items():
                    if other != name and not other.startswith("__") and n_params(fn) == arity:
                        options.append((3.0 - 0.4 * difflib.SequenceMatcher(None, name, other).ratio(), other))
        options.sort()
        if isinstance(func, ast.Name):
            start, end = self.src.span(func)
        else:
            end = self.src.offset(func.end_lineno, func.end_col_offset)
            start = end - len(func.attr)
            if self.src.text[start:end] != func.attr:
                return
        for prior, alt in options[:8]:
            claim = f"Line {node.lineno} calls {in_backticks(name)} where {in_backticks(alt)} is meant: {in_backticks(short(self.src.seg(node)))}."
            self.emit("wrong-function", prior, [(start, end, alt)], claim, node, names=[name, alt], before=name, after=alt)
        # x.sort() used for its value, sorted(x) used as a statement.
        parent = self.m.parent.get(node)
        if isinstance(func, ast.Attribute) and name in ("sort", "reverse") and not isinstance(parent, ast.Expr):
            builtin = "sorted" if name == "sort" else "reversed"
            args = [self.src.seg(func.value)] + [self.src.seg(a) for a in node.args + node.keywords]
            new = builtin + "(" + ", ".join(args) + ")"
            if name == "reverse":
                new = "list(" + new + ")"
            claim = f"Line {node.lineno} uses the value of {in_backticks(short(self.src.seg(node)))}, which sorts in place and returns None: it should be {in_backticks(short(new))}."
            self.replace("wrong-function", 1.2, node, new, claim, names=[name, builtin])
        if isinstance(func, ast.Name) and name == "sorted" and isinstance(parent, ast.Expr) and node.args:
            target = node.args[0]
            if isinstance(target, (ast.Name, ast.Attribute)):
                rest = [self.src.seg(k) for k in node.keywords]
                new = self.src.seg(target) + ".sort(" + ", ".join(rest) + ")"
                claim = f"Line {node.lineno} sorts a copy and drops it: {in_backticks(short(self.src.seg(node)))} should be {in_backticks(short(new))}."
                self.replace("wrong-function", 1.6, node, new, claim, names=["sorted", "sort"])

    def missing_argument(self, node, func, name):
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
                for i, key in enumerate(self.sort_keys(node)):
                    options.append((2.0 + 0.15 * i, "key=" + key, "the items should be compared by a key"))
        if name in ("max", "min") and not attr and n == 1 and "key" not in keywords:
            for i, key in enumerate(self.sort_keys(node)):
                options.append((2.2 + 0.15 * i, "key=" + key, "the items should be compared by a key"))
            if "default" not in keywords:
                options.append((2.6, "default=0", "an empty input should give a default"))
        if name == "round" and not attr and n == 1:
            digits = sorted(self.m.round_digits) or [2]
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
            if "ROUND_HALF_UP" in self.m.imports:
                options.append((1.5, "rounding=ROUND_HALF_UP", "half values should round up"))
            elif "decimal" in self.m.imports:
                options.append((1.5, "rounding=decimal.ROUND_HALF_UP", "half values should round up"))
        if name == "ConfigParser" and "interpolation" not in keywords:
            options.append((1.8, "interpolation=None", "a % in a value is text, not interpolation"))
        if not attr and name == "open" and "encoding" not in keywords and n >= 1:
            options.append((2.6, 'encoding="utf-8"', "the file is UTF-8 whatever the locale"))
        # A function of this module called without an optional parameter that has a name in scope.
        target = self.m.functions.get(name) if not attr else None
        if attr and self.src.seg(func.value) == "self":
            cls = self.method_class(node)
            target = self.m.methods.get(cls, {}).get(name) if cls is not None else None
        if target is not None:
            params = [a.arg for a in target.args.args if a.arg not in ("self", "cls")]
            visible = self.m.visible(node, node.lineno)
            for p in params[n:]:
                if p not in keywords and p in visible and visible[p].role not in ("function", "class", "import"):
                    options.append((1.9, p + "=" + p, "the caller's " + in_backticks(p) + " should be passed on"))
        if not options:
            return
        if node.args or node.keywords:
            last = max(list(node.args) + list(node.keywords), key=lambda a: (a.end_lineno, a.end_col_offset))
            at = self.src.offset(last.end_lineno, last.end_col_offset)
            prefix = ", "
        else:
            at = self.src.offset(node.end_lineno, node.end_col_offset) - 1
            if self.src.text[at] != ")":
                return
            prefix = ""
        positional_ok = not node.keywords
        for prior, arg, why in options:
            if "=" not in arg and not positional_ok:
                continue
            new_call = short(self.src.seg(node))
            claim = f"The call at line {node.lineno} is missing an argument ({why}): {in_backticks(new_call)} should pass {in_backticks(arg)}."
            self.emit("missing-argument", prior, [(at, at, prefix + arg)], claim, node, names=[name], literals=[arg], before=self.src.seg(node), after=arg)

    def sort_keys(self, node):
        keys = ["len", "str.lower", "lambda item: item[1]", "lambda item: item[0]"]
        for k in sorted(self.m.keys, key=lambda k: -self.m.keys[k])[:3]:
            keys.append(f"lambda item: item[{k!r}]")
        return keys

    def extra_argument(self, node, name):
        parts = list(node.args) + list(node.keywords)
        if not parts or any(isinstance(a, ast.Starred) for a in node.args):
            return
        ordered = sorted(parts, key=lambda a: (a.lineno, a.col_offset))
        for i, part in enumerate(ordered):
            if len(ordered) == 1 and not isinstance(part, ast.keyword):
                continue  # f(x) → f() is rarely the fix
            start, end = self.src.span(part)
            if i > 0:
                prev = ordered[i - 1]
                start = self.src.offset(prev.end_lineno, prev.end_col_offset)
            elif len(ordered) > 1:
                nxt = ordered[1]
                end = self.src.offset(nxt.lineno, nxt.col_offset)
            text = self.src.seg(part)
            prior = 2.6 if isinstance(part, ast.keyword) else 3.0
            claim = f"The call at line {node.lineno} passes {in_backticks(short(text))}, which it should not: {in_backticks(short(self.src.seg(node)))}."
            self.emit("extra-argument", prior + 0.05 * i, [(start, end, "")], claim, node, names=[name], before=text)

    def swapped_arguments(self, node, name):
        args = node.args
        if len(args) < 2 or any(isinstance(a, ast.Starred) for a in args):
            return
        pairs = list(zip(range(len(args)), range(1, len(args))))
        if len(args) == 3:
            pairs.append((0, 2))
        for i, j in pairs:
            a, b = args[i], args[j]
            ta, tb = self.src.seg(a), self.src.seg(b)
            if ta == tb:
                continue
            (as_, ae), (bs, be) = self.src.span(a), self.src.span(b)
            claim = f"The call at line {node.lineno} passes {in_backticks(short(ta))} and {in_backticks(short(tb))} the wrong way round: {in_backticks(short(self.src.seg(node)))}."
            self.emit("swapped-arguments", 2.2 + 0.2 * (j - i - 1), [(as_, ae, tb), (bs, be, ta)], claim, node, names=[name] + names_in(a) + names_in(b))

    # Statement families: wrong-exception, missing-guard, discarded-result, extended-expression
    def statement_families(self, unit):
        if isinstance(unit, ast.ExceptHandler):
            self.wrong_exception_handler(unit)
        if isinstance(unit, ast.Raise):
            self.wrong_exception_raised(unit)
        self.discarded_result(unit)
        self.missing_guard(unit)
        self.missing_copy(unit)
        self.missing_condition(unit)
        self.missing_clamp(unit)
        self.missing_call(unit)

    # missing-call
    def missing_call(self, unit):
        """A method call on an object that a sibling method (or function) makes and this one does not,
        inserted before the statement (`self._data.move_to_end(key)` in `get` as in `set`), when every
        name it reads is bound here."""
        if not isinstance(unit, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)):
            return
        fn = self.m.enclosing_function(unit)
        if fn is None:
            return
        cls = self.m.class_of.get(fn)
        siblings = list(self.m.methods.get(cls, {}).values()) if cls is not None else list(self.m.functions.values())
        own = {self.src.seg(n) for n in ast.walk(fn) if isinstance(n, ast.Expr)}
        visible = self.m.visible(unit, unit.lineno)
        found = []
        for g in siblings:
            if g is fn:
                continue
            for n in ast.walk(g):
                if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)):
                    continue
                if n.value.func.attr in SIDE_CALLS or isinstance(n.value.func.value, ast.Constant):
                    continue  # filling containers is missing-append's; logging and I/O are not state a test sees
                text = self.src.seg(n)
                if text in own or text in found or "\n" in text:
                    continue
                names = [x.id for x in ast.walk(n) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)]
                if all(name in visible or name in BUILTIN_NAMES for name in names):
                    found.append(text)
        for i, text in enumerate(found[:3]):
            change = self.insert_before(unit, [text])
            if change is None:
                return
            claim = f"A call is missing before line {unit.lineno}: {in_backticks(short(text))}, as another function of the same code makes it."
            self.emit("missing-call", 2.6 + 0.2 * i, [change], claim, unit, before="", after=text)

    # missing clamp (extended-expression)
    def missing_clamp(self, unit):
        """`x += e` that should stop at a bound the object or function holds (`min(self.capacity,
        x + e)`), or `x -= e` that should not go below zero (`max(0, x - e)`)."""
        if not isinstance(unit, ast.AugAssign) or not isinstance(unit.op, (ast.Add, ast.Sub)):
            return
        target = unit.target
        if not isinstance(target, (ast.Name, ast.Attribute)) or self.not_numeric(target):
            return
        text = self.src.seg(target)
        value = self.src.seg(unit.value)
        value = "(" + value + ")" if isinstance(unit.value, (ast.BoolOp, ast.IfExp, ast.Lambda)) else value
        options = []
        if isinstance(unit.op, ast.Add):
            bounds = []
            cls = self.method_class(unit) if isinstance(target, ast.Attribute) else None
            if cls is not None:
                bounds += ["self." + a for a in self.m.class_attributes.get(cls, {}) if UPPER_BOUND.search(a)]
            visible = self.m.visible(unit, unit.lineno)
            bounds += [n for n, b in visible.items() if b.role in ("param", "local") and UPPER_BOUND.search(n)]
            for i, bound in enumerate(b for b in bounds if b != text):
                options.append((2.4 + 0.1 * i, f"{text} = min({bound}, {text} + {value})", f"stop at {bound}"))
        else:
            options.append((2.9, f"{text} = max(0, {text} - {value})", "not go below zero"))
        start, end = self.src.span(unit)
        for prior, new, why in options[:4]:
            claim = f"Line {unit.lineno} lets {in_backticks(text)} run past its bound: it should {why}, {in_backticks(new)}."
            self.emit("extended-expression", prior, [(start, end, new)], claim, unit, names=[text], before=self.src.seg(unit), after=new)

    # missing-copy
    def missing_copy(self, unit):
        if isinstance(unit, ast.Return):
            value, prior = unit.value, 2.4
        elif isinstance(unit, ast.Assign) and len(unit.targets) == 1 and isinstance(unit.targets[0], ast.Name):
            value, prior = unit.value, 2.8
        else:
            return
        if not isinstance(value, (ast.Name, ast.Attribute)):
            return
        if isinstance(value, ast.Name):
            b = self.m.visible(value, value.lineno).get(value.id)
            if b is None or b.role != "param":
                return  # a fresh local is nobody else's: copying it changes nothing
        kind = self.kind_at(value)
        if kind is None and isinstance(value, ast.Name) and self.usage(value).get(value.id) == "container":
            kind = "container"
        if kind not in ("dict", "list", "set", "container"):
            return
        text = self.src.seg(value)
        options = [kind + "(" + text + ")"] if kind != "container" else [text + ".copy()", "list(" + text + ")"]
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
            prior -= 0.3  # handing out internal state
        for i, new in enumerate(options):
            claim = f"Line {unit.lineno} hands out {in_backticks(text)} itself, so changes through one name show through the other: it should be a copy, {in_backticks(new)}."
            self.replace("missing-copy", prior + 0.2 * i, value, new, claim, names=names_in(value))

    # missing-condition
    def missing_condition(self, unit):
        if not isinstance(unit, (ast.If, ast.While)) or isinstance(unit.test, ast.Constant):
            return
        test = unit.test
        text = self.src.seg(test)
        base = "(" + text + ")" if isinstance(test, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)) and not (
            isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)
        ) else text
        conditions = []
        for stmt in unit.body[:3]:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and isinstance(n.value, (ast.Name, ast.Attribute)):
                    key = n.slice
                    if isinstance(key, ast.Name) or isinstance(key, ast.Constant) and isinstance(key.value, str):
                        conditions.append(self.src.seg(key) + " in " + self.src.seg(n.value))
                elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id not in ("self", "cls"):
                    b = self.m.visible(n, n.lineno).get(n.value.id)
                    if b is not None and b.role in ("param", "local", "loop") and b is not self.m.module_scope.names.get(n.value.id):
                        conditions.append(n.value.id + " is not None")
        seen = set()
        for i, cond in enumerate(c for c in conditions if not (c in seen or seen.add(c))):
            if cond in text:
                continue
            new = base + " and " + cond
            claim = f"The condition at line {unit.lineno} misses a case: {in_backticks(short(text))} should also require {in_backticks(cond)}."
            self.replace("missing-condition", 2.4 + 0.2 * i, test, new, claim, names=names_in(test))
            if i >= 3:
                break

    # missing-init
    def missing_init(self, fn):
        nodes = list(self.own_nodes(fn))
        scope = self.m.scope_of.get(fn)
        if scope is None:
            return
        assigned = set()
        for n in nodes:
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr, ast.comprehension)):
                for t in ([n.target] if hasattr(n, "target") else getattr(n, "targets", [])) + [
                    i.optional_vars for i in getattr(n, "items", []) if i.optional_vars is not None
                ]:
                    assigned.update(x.id for x in ast.walk(t) if isinstance(x, ast.Name))
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                assigned.update((a.asname or a.name).split(".")[0] for a in n.names)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                assigned.add(n.name)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                assigned.add(n.name)
        params = {b for b, v in scope.names.items() if v.role == "param"}
        outer = set()
        s = scope.parent
        while s is not None:
            outer.update(s.names)
            s = s.parent
        missing = {}
        for n in nodes:
            if isinstance(n, ast.Name) and n.id not in assigned and n.id not in params and n.id not in scope.globals:
                if n.id in outer or n.id in BUILTIN_NAMES:
                    continue
                missing.setdefault(n.id, []).append(n)
        for name, uses in missing.items():
            init = self.initial_value(name, nodes)
            first = min(uses, key=lambda u: (u.lineno, u.col_offset))
            anchor = self.top_statement_in(fn, first)
            if anchor is None:
                continue
            inits = [(1.0, init)]
            if init == "None":
                # Nothing says what kind of value: a parameter passed through a one-argument function
                # of this module (`cleaned = normalize(text)`), or the parameter itself.
                params = [a.arg for a in fn.args.args if a.arg not in ("self", "cls")][:3]
                helpers = [f for f, node in self.m.functions.items() if node is not fn and n_params(node) == 1][:4]
                inits += [(1.3 + 0.1 * i, f"{f}({p})") for i, (f, p) in enumerate((f, p) for f in helpers for p in params)]
                inits += [(1.6 + 0.1 * i, p) for i, p in enumerate(params)]
            for prior, value in inits:
                change = self.insert_before(anchor, [f"{name} = {value}"])
                if change is None:
                    break
                claim = f"{in_backticks(name)} is used in {in_backticks(fn.name)} but never given a value: {in_backticks(name + ' = ' + value)} is missing before line {anchor.lineno}."
                self.emit("missing-init", prior, [change], claim, fn, names=[name], literals=[value])

    def initial_value(self, name, nodes):
        for n in nodes:
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
                if n.func.attr in ("append", "extend", "insert", "pop", "sort"):
                    return "[]"
                if n.func.attr in ("add", "discard"):
                    return "set()"
                if n.func.attr in ("get", "setdefault", "items", "keys", "values", "update"):
                    return "{}"
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name and isinstance(n.ctx, ast.Store):
                return "{}"
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
                kind = kind_of_value(n.value)
                return '""' if kind == "str" else "[]" if kind == "list" else "0"
        return "None"

    def top_statement_in(self, fn, node):
        """The statement of fn's own body that holds node."""
        while node is not None and self.m.parent.get(node) is not fn:
            node = self.m.parent.get(node)
        if node is None or node not in fn.body:
            return None
        return node

    def exception_options(self, current):
        module_types = [e for e in self.m.exceptions if e not in current]
        module_types += [e for e in self.m.exception_inits if e not in current and e not in module_types]
        related = [e for c in current for e in RELATED_EXCEPTIONS.get(c, []) if e not in current]
        options = []
        # The types the failure raised or expected come first.
        for i, e in enumerate(self.hints.get("exceptions", [])):
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

    def wrong_exception_handler(self, handler):
        if handler.type is None:
            return
        node = handler.type
        current = [self.src.seg(t) for t in (node.elts if isinstance(node, ast.Tuple) else [node])]
        for prior, alt in self.exception_options(current)[:10]:
            claim = f"The {in_backticks('except')} clause at line {handler.lineno} catches {in_backticks(short(self.src.seg(node)))}, but the error to handle there is {in_backticks(alt)}."
            self.replace("wrong-exception", prior, node, alt, claim, names=current + [alt])
            if not isinstance(node, ast.Tuple):
                both = "(" + self.src.seg(node) + ", " + alt + ")"
                claim = f"The {in_backticks('except')} clause at line {handler.lineno} should also catch {in_backticks(alt)}: {in_backticks(both)}."
                self.replace("wrong-exception", prior + 0.3, node, both, claim, names=current + [alt])

    def wrong_exception_raised(self, unit):
        exc = unit.exc
        if exc is None:
            return
        func = exc.func if isinstance(exc, ast.Call) else exc
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return
        current = self.src.seg(func)
        for prior, alt in self.exception_options([current])[:6]:
            claim = f"Line {unit.lineno} raises {in_backticks(current)} where callers expect {in_backticks(alt)}."
            self.replace("wrong-exception", prior + 0.6, func, alt, claim, names=[current, alt])
            args = self.exception_arguments(exc, alt)
            if args is not None:
                new = f"{alt}({', '.join(args)})"
                claim = f"Line {unit.lineno} raises {in_backticks(short(self.src.seg(exc)))} where callers expect {in_backticks(new)}."
                self.replace("wrong-exception", prior + 0.5, exc, new, claim, names=[current, alt, *args])

    def exception_arguments(self, exc, alt):
        """Arguments for raising `alt`, whose __init__ takes named values (sku, requested, available),
        from what the raise at hand shows: a parameter's namesake in scope, else the next name its
        message used (`f"cannot ship {qty} of {sku}"`), in order. None when they do not all fit."""
        params = self.m.exception_inits.get(alt)
        if not params or len(params) < 2 or not isinstance(exc, ast.Call):
            return None
        visible = self.m.visible(exc, exc.lineno)
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
    # discarded-result
    def discarded_result(self, unit):
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
        name = self.src.seg(target)
        text = self.src.seg(value)
        new = name + " = " + text
        claim = f"Line {unit.lineno} computes {in_backticks(short(text))} and drops the result: it should be {in_backticks(short(new))}."
        self.replace("discarded-result", 1.6, value, new, claim, names=names_in(value))

    # missing-guard
    def missing_guard(self, unit):
        if not isinstance(unit, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.If, ast.For, ast.While)):
            return
        fn = self.m.enclosing_function(unit)
        if fn is None:
            return
        visible = self.m.visible(unit, unit.lineno)
        risky = []  # (name text, guard conditions)
        for part in own_fields(unit):
            for n in walk_exprs(part, self.m.skip):
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
                    called = self.m.parent.get(n)
                    if not (isinstance(called, ast.Call) and called.func is n and n.attr in MUTATORS):
                        risky.append((n.value.id, ["{} is None"]))
                elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
                    index = n.slice
                    keyed = isinstance(index, ast.Constant) and isinstance(index.value, str) or isinstance(
                        index, (ast.Name, ast.Attribute)
                    ) and self.usage(n).get(self.src.seg(index)) != "scalar" and self.kind_at(index) not in NUMERIC
                    if keyed and not isinstance(n.ctx, ast.Store):
                        risky.append((n.value.id, ["{} is None", self.src.seg(index) + " not in {}"]))
                    else:
                        risky.append((n.value.id, ["{} is None", "not {}"]))
                elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
                    d = n.right
                    if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "len" and d.args:
                        d = d.args[0]
                    if isinstance(d, (ast.Name, ast.Attribute)):
                        risky.append((self.src.seg(d), ["not {}"]))
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("int", "float", "len", "max", "min", "sum") and n.args:
                    if isinstance(n.args[0], ast.Name):
                        risky.append((n.args[0].id, ["not {}", "{} is None"]))
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
                    if n.func.attr not in MUTATORS:
                        risky.append((n.func.value.id, ["not {}", "{} is None"]))
        if isinstance(unit, (ast.For,)) and isinstance(unit.iter, ast.Name):
            risky.append((unit.iter.id, ["{} is None"]))
        loops = self.m.enclosing_loops(unit)
        exits = ["continue"] if loops else []
        exits += ["return " + r for r in self.default_returns(fn)]
        done = set()
        count = 0
        for name, conditions in risky:
            base = name.split(".")[0]
            b = visible.get(base)
            if base in ("self", "cls") or b is None or b.role not in ("param", "local", "loop"):
                continue
            if b is self.m.module_scope.names.get(base):
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
                    change = self.insert_before(unit, [f"if {test}:", f"    {exit_}"])
                    if change is None:
                        return
                    claim = f"Line {unit.lineno} runs even when {in_backticks(test)}; a guard is missing: {in_backticks('if ' + test + ': ' + exit_)} before it."
                    self.emit("missing-guard", 2.6 + 0.2 * k + 0.3 * j + 0.1 * count, [change], claim, unit, names=[name], before="", after=f"if {test}: {exit_}")
            if count >= 6:
                return

    def default_returns(self, fn):
        """What an early return gives back: the function's own empty results, else None."""
        cached = self._returns.get(id(fn))
        if cached is None:
            cached = self._returns[id(fn)] = self._default_returns(fn)
        return cached

    def _default_returns(self, fn):
        shapes = []
        inits = {}
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_fresh(n.value):
                inits.setdefault(n.targets[0].id, self.src.seg(n.value))
        for n in ast.walk(fn):
            if isinstance(n, ast.Return) and n.value is not None:
                if is_fresh(n.value) or isinstance(n.value, ast.Constant):
                    t = self.src.seg(n.value)
                elif isinstance(n.value, ast.Name) and n.value.id in inits:
                    t = inits[n.value.id]
                else:
                    continue
                if t not in shapes:
                    shapes.append(t)
        if "None" not in shapes:
            shapes.append("None")
        return shapes[:2]

    # extended-expression
    def extended_expression(self, unit, nodes):
        if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ExceptHandler)):
            return
        delta = None
        if "timedelta" in self.m.imports:
            delta = "timedelta(days=1)"
        elif "datetime" in self.m.imports and "datetime" not in [a for a in self.m.imports if False]:
            delta = "datetime.timedelta(days=1)" if self._imports_module("datetime") else None
        for node in nodes:
            if not isinstance(node, (ast.Name, ast.Attribute, ast.Call)) or id(node) in self.m.skip:
                continue
            if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "len"):
                continue
            parent = self.m.parent.get(node)
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
            text = self.src.seg(node)
            kind = self.kind_at(node)
            if kind in ("str", "list", "dict", "set", "tuple", "bool") or self.not_numeric(node):
                continue
            if isinstance(node, ast.Name) and self.usage(node).get(node.id) in ("container", "text"):
                continue
            dateish = any(w in text.lower() for w in DATE_WORDS)
            wrap = lambda t: "(" + t + ")" if needs_parens(node, self.m) else t
            options = []
            if kind in NUMERIC or (kind is None and not dateish):
                options += [(3.0, text + " + 1"), (3.2, text + " - 1")]
            if delta is not None and dateish and kind not in NUMERIC:
                p = 2.4 if dateish else 3.4
                options += [(p, text + " + " + delta), (p + 0.2, text + " - " + delta)]
            if isinstance(parent, (ast.Return, ast.Assign, ast.AugAssign)) and not isinstance(node, ast.Call):
                # A term left out: `qty` where `qty - short.available` is meant, the term read just above.
                for i, term in enumerate(self.nearby_terms(node, text)):
                    options += [(2.6 + 0.2 * i, text + " - " + term), (2.9 + 0.2 * i, text + " + " + term)]
            for prior, new in options:
                claim = f"At line {node.lineno} {in_backticks(short(text))} is not the value meant: it should be {in_backticks(short(new))}."
                self.replace("extended-expression", prior, node, wrap(new), claim, names=names_in(node))

    def nearby_terms(self, node, text, above=6, limit=3):
        """Attribute reads (`short.available`) of the few lines above node in its function, nearest
        first, that may be numbers: the terms an assignment there may have left out."""
        fn = self.m.enclosing_function(node)
        if fn is None:
            return []
        found = []
        for n in self.own_nodes(fn):
            if not isinstance(n, ast.Attribute) or not isinstance(n.ctx, ast.Load) or id(n) in self.m.skip:
                continue
            if not (node.lineno - above <= n.lineno < node.lineno) or not isinstance(n.value, ast.Name):
                continue
            parent = self.m.parent.get(n)
            if isinstance(parent, (ast.Call, ast.Attribute)) and getattr(parent, "func", None) is n or isinstance(parent, ast.Attribute):
                continue  # a method called, or an object read through
            term = self.src.seg(n)
            if term == text or term in text or self.not_numeric(n):
                continue
            found.append((node.lineno - n.lineno, n.col_offset, term))
        out = []
        for _, _, term in sorted(found):
            if term not in out:
                out.append(term)
        return out[:limit]

    def _imports_module(self, name):
        for n in self.m.tree.body:
            if isinstance(n, ast.Import) and any(a.name == name and a.asname is None for a in n.names):
                return True
        return False

    def kind_at(self, node):
        if isinstance(node, ast.Name):
            b = self.m.visible(node, node.lineno).get(node.id)
            return b.kind if b is not None else None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            cls = self.method_class(node)
            return self.m.class_attributes.get(cls, {}).get(node.attr) if cls is not None else None
        if isinstance(node, ast.Call):
            return kind_of_value(node)
        return None

    # Function families: missing-return, missing-reset, missing-append ------------------
    def own_nodes(self, fn):
        """Nodes of a function, not of functions or classes nested in it."""
        stack = list(ast.iter_child_nodes(fn))
        while stack:
            n = stack.pop()
            yield n
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.extend(ast.iter_child_nodes(n))

    def missing_return(self, fn):
        if fn.name.startswith("__") or fn.name.startswith("test"):
            return
        nodes = list(self.own_nodes(fn))
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
            return
        last = fn.body[-1]
        if isinstance(last, ast.Expr) and not (isinstance(last.value, ast.Constant) and isinstance(last.value.value, str)):
            call = isinstance(last.value, ast.Call)
            if not (call and isinstance(last.value.func, ast.Attribute) and last.value.func.attr in MUTATORS) and not (
                call and isinstance(last.value.func, ast.Name) and last.value.func.id == "print"
            ):
                text = self.src.seg(last.value)
                claim = f"{in_backticks(fn.name)} computes {in_backticks(short(text))} at line {last.lineno} but does not return it."
                self.replace("missing-return", 1.7 if not call else 2.3, last.value, "return " + text, claim, names=names_in(last.value))
        if any(isinstance(n, ast.Return) and n.value is not None for n in nodes):
            return
        scope = self.m.scope_of.get(fn)
        if scope is None:
            return
        accumulators = []
        others = []
        for n in nodes:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                name = n.targets[0].id
                (accumulators if is_fresh(n.value) else others).append((n.lineno, name))
        ordered = [nm for _, nm in sorted(accumulators)] + [nm for _, nm in sorted(others, reverse=True)]
        seen = []
        for name in ordered:
            if name not in seen:
                seen.append(name)
        body_indent = self.src.indent_of(fn.body[0].lineno) if fn.body[0].lineno != fn.lineno else None
        if body_indent is None:
            return
        for i, name in enumerate(seen[:4]):
            change = self.insert_after(last, ["return " + name], indent=body_indent)
            if change is None:
                return
            claim = f"{in_backticks(fn.name)} builds {in_backticks(name)} but never returns it: {in_backticks('return ' + name)} is missing at its end."
            self.emit("missing-return", 1.8 + 0.3 * i, [change], claim, fn, names=[name])

    def mutated_names(self, nodes):
        """{text of the mutated name or self-attribute: first node mutating it}."""
        out = {}
        for n in nodes:
            target = None
            if isinstance(n, ast.AugAssign):
                target = n.target
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
                target = n.func.value
            elif isinstance(n, (ast.Assign,)) and any(isinstance(t, ast.Subscript) for t in n.targets):
                target = next(t.value for t in n.targets if isinstance(t, ast.Subscript))
            if target is not None and (
                isinstance(target, ast.Name)
                or isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
            ):
                out.setdefault(self.src.seg(target), n)
        return out

    def missing_reset(self, fn):
        nodes = list(self.own_nodes(fn))
        inits = {}  # name -> (line, init text)
        for n in nodes:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_fresh(n.value):
                inits.setdefault(n.targets[0].id, (n.lineno, self.src.seg(n.value)))
        loops = [n for n in nodes if isinstance(n, (ast.For, ast.While))]
        for loop in loops:
            inside = [n for b in loop.body for n in ast.walk(b)]
            mutated = self.mutated_names(inside)
            for name, where in mutated.items():
                if name not in inits or inits[name][0] >= loop.lineno:
                    continue
                reads = sum(1 for n in inside if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load))
                nested = any(isinstance(n, (ast.For, ast.While)) for n in inside)
                if not nested and reads <= 1:
                    continue  # a plain accumulation (`total += x`) is meant to carry over
                prior = 2.0 if nested else 2.6
                change = self.insert_before(loop.body[0], [f"{name} = {inits[name][1]}"])
                if change is None:
                    continue
                claim = f"{in_backticks(name)} carries its value from one pass of the loop at line {loop.lineno} into the next: it should start again from {in_backticks(inits[name][1])} at the top of each pass."
                self.emit("missing-reset", prior, [change], claim, loop, names=[name])
        # A method mutating an attribute that __init__ starts empty: reset at the top of the method.
        cls = self.m.class_of.get(fn)
        if cls is not None and fn.name != "__init__":
            init = self.m.methods.get(cls, {}).get("__init__")
            fresh = {}
            if init is not None:
                for n in ast.walk(init):
                    if isinstance(n, ast.Assign) and len(n.targets) == 1 and is_fresh(n.value):
                        t = n.targets[0]
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            fresh["self." + t.attr] = self.src.seg(n.value)
            for name in self.mutated_names(nodes):
                if name in fresh:
                    change = self.insert_at_top(fn, [f"{name} = {fresh[name]}"])
                    if change is None:
                        continue
                    claim = f"{in_backticks(fn.name)} adds to {in_backticks(name)} what earlier calls left there: it should start again from {in_backticks(fresh[name])}."
                    self.emit("missing-reset", 2.8, [change], claim, fn, names=[name])
        # A module-level container the function fills: state carried across calls.
        module_fresh = {}
        for n in self.m.tree.body:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and is_fresh(n.value):
                module_fresh[n.targets[0].id] = self.src.seg(n.value)
        for name in self.mutated_names(nodes):
            if name in module_fresh and name not in inits:
                scope = self.m.scope_of.get(fn)
                prefix = [f"global {name}"] if scope is not None and name in scope.globals else []
                if prefix:
                    continue  # the function means to share it
                change = self.insert_at_top(fn, [f"{name} = {module_fresh[name]}"])
                if change is None:
                    continue
                claim = f"{in_backticks(fn.name)} fills the module-level {in_backticks(name)}, so one call sees what earlier calls left: it should start from a new {in_backticks(module_fresh[name])}."
                self.emit("missing-reset", 3.2, [change], claim, fn, names=[name])

    def missing_append(self, fn):
        nodes = list(self.own_nodes(fn))
        loops = [n for n in nodes if isinstance(n, (ast.For, ast.While))]
        for loop in loops:
            inside = [n for b in loop.body for n in ast.walk(b)]
            for call in inside:
                if not (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append"
                    and isinstance(call.func.value, ast.Name)
                    and len(call.args) == 1
                    and isinstance(call.args[0], ast.Name)
                ):
                    continue
                acc, item = call.func.value.id, call.args[0].id
                # The last group is never flushed: append it after the loop.
                rebound = any(
                    isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == item for t in n.targets)
                    for n in inside
                )
                if rebound and self.enclosing_loop_of(call) is loop:
                    for k, lines in enumerate(([f"if {item}:", f"    {acc}.append({item})"], [f"{acc}.append({item})"])):
                        change = self.insert_after(loop, lines)
                        if change is None:
                            break
                        claim = f"The loop at line {loop.lineno} appends {in_backticks(item)} to {in_backticks(acc)} only when a new one starts, so the last {in_backticks(item)} is never added after the loop."
                        self.emit("missing-append", 2.0 + 0.3 * k, [change], claim, loop, names=[acc, item])
            # A branch that forgets to append what the other branch appends.
            for node in inside:
                if isinstance(node, ast.If) and node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
                    for body, other in ((node.body, node.orelse), (node.orelse, node.body)):
                        appends = [
                            s for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                            and isinstance(s.value.func, ast.Attribute) and s.value.func.attr in ("append", "add")
                        ]
                        if not appends or any(self.src.seg(a) == self.src.seg(s) for a in appends for s in other):
                            continue
                        if isinstance(other[-1], (ast.Return, ast.Continue, ast.Break, ast.Raise)):
                            continue
                        stmt = self.src.seg(appends[0])
                        change = self.insert_after(other[-1], [stmt])
                        if change is None:
                            continue
                        claim = f"One branch of the {in_backticks('if')} at line {node.lineno} does {in_backticks(short(stmt))} and the other forgets to."
                        self.emit("missing-append", 2.8, [change], claim, node, names=names_in(appends[0]))

    def enclosing_loop_of(self, node):
        loops = self.m.enclosing_loops(node)
        return loops[0] if loops else None


    # Function families: mutable-default, missing-return, missing-reset, missing-append ------
    def function_families(self, fn):
        self.mutable_default(fn)
        self.missing_return(fn)
        self.missing_reset(fn)
        self.missing_append(fn)
        self.missing_init(fn)

    def mutable_default(self, fn):
        args = fn.args
        positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
        pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        for arg, default in pairs:
            mutable = isinstance(default, (ast.List, ast.Dict, ast.Set)) or (
                isinstance(default, ast.Call) and isinstance(default.func, ast.Name) and default.func.id in FRESH_CALLS
            )
            if not mutable:
                continue
            text = self.src.seg(default)
            start, end = self.src.span(default)
            guard = self.insert_at_top(fn, [f"if {arg.arg} is None:", f"    {arg.arg} = {text}"])
            if guard is None:
                continue
            claim = (
                f"The default {in_backticks(arg.arg + '=' + short(text))} of {in_backticks(fn.name)} (line {fn.lineno}) "
                f"is one object shared by every call, so what one call puts in it leaks into the next: default to "
                f"{in_backticks('None')} and make a new {in_backticks(short(text))} in each call."
            )
            self.emit("mutable-default", 0.9, [(start, end, "None"), guard], claim, fn, names=[arg.arg], literals=[text])


# Methods and functions that return a new value and leave their argument as it was.
RETURNS_NEW = {
    "strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "capitalize", "replace",
    "format", "zfill", "center", "ljust", "rjust", "removeprefix", "removesuffix", "union",
    "intersection", "difference", "symmetric_difference", "quantize", "normalize", "astimezone",
}
RETURNS_NEW_BUILTIN = {"sorted", "reversed", "round", "abs", "int", "float", "str", "list", "set", "tuple"}
# Methods that change their object in place.
# Method calls missing_call does not copy between functions.
SIDE_CALLS = {
    "append", "extend", "add", "update", "debug", "info", "warning", "warn", "error", "exception",
    "critical", "log", "write", "writelines", "flush", "close", "print",
}
# Names of an upper bound a running total may have to stop at.
UPPER_BOUND = re.compile(r"(^|_)(cap|capacity|max|maximum|limit|ceiling|most|size|burst)(_|$)", re.IGNORECASE)
MUTATORS = {
    "append", "extend", "add", "update", "insert", "setdefault", "pop", "remove", "discard",
    "clear", "appendleft", "popleft", "sort", "reverse",
}
DATE_WORDS = ("date", "day", "end", "start", "until", "since", "due", "expir", "deadline", "when", "time", "at")

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


def n_params(fn):
    return len([a for a in fn.args.args if a.arg not in ("self", "cls")])


def names_in(node):
    if node is None:
        return []
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in out:
            out.append(n.id)
        elif isinstance(n, ast.Attribute) and n.attr not in out:
            out.append(n.attr)
    return out


def py_string(value, quote):
    """A string literal in the file's quote style."""
    body = repr(value)[1:-1]
    if quote == '"':
        body = body.replace("\\'", "'").replace('"', '\\"')
    return quote + body + quote


# ---------------------------------------------------------------------------------------------
# The request.


def suspect_units(module, lines, span):
    units = units_of(module)
    chosen = []  # (suspect line, unit)
    if span:
        start, end = span
        for (first, last), unit in sorted(units, key=lambda u: (u[0][0], u[1].col_offset)):
            if first >= start and first <= end:
                chosen.append((first, unit))
        return chosen
    for line in lines:
        inner = None
        for (first, last), unit in units:
            if first <= line <= last and (inner is None or last - first < inner[0][1] - inner[0][0]):
                inner = ((first, last), unit)
        if inner is not None:
            chosen.append((line, inner[1]))
    return chosen


MAX_IMPORTED_FILES = 12
MAX_IMPORTED_BYTES = 512 * 1024


def imported_files(tree, root, file):
    """Repository files this module imports names from (`from .models import X`, `from pkg.mod import Y`)."""
    here = os.path.dirname(os.path.join(root, file))
    bases = [root, os.path.join(root, "src")]
    top = here
    while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    bases.append(top)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        parts = (node.module or "").split(".") if node.module else []
        if node.level:
            start = here
            for _ in range(node.level - 1):
                start = os.path.dirname(start)
            options = [os.path.join(start, *parts)]
        else:
            options = [os.path.join(b, *parts) for b in bases]
        for base in options:
            for path in (base + ".py", os.path.join(base, "__init__.py")):
                real = os.path.realpath(path)
                if real.startswith(os.path.realpath(root) + os.sep) and os.path.isfile(real) and real not in found:
                    found.append(real)
    return found[:MAX_IMPORTED_FILES]


def exception_inits(module):
    """{name: parameter names of its __init__ (without self), or None when it has none} of the
    exception classes a module defines."""
    out = {}
    for node in module.tree.body:
        if isinstance(node, ast.ClassDef) and node.name in module.exceptions:
            init = module.methods.get(node, {}).get("__init__")
            if init is None or init.args.vararg is not None or init.args.kwonlyargs:
                out[node.name] = None
            else:
                out[node.name] = [a.arg for a in init.args.args[1:]]
    return out


def file_keys(paths, root):
    """String keys (Module._key_nodes) used in these repository files; unreadable ones are skipped."""
    keys = set()
    real_root = os.path.realpath(root) + os.sep
    for rel in paths[:MAX_IMPORTED_FILES]:
        path = os.path.realpath(os.path.join(root, rel))
        if not path.startswith(real_root):
            continue
        try:
            if os.path.getsize(path) > MAX_IMPORTED_BYTES:
                continue
            with open(path, encoding="utf-8-sig") as fh:
                tree = ast.parse(fh.read())
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            keys.update(k.value for k in Module._key_nodes(node))
    return keys


def foreign_facts(paths):
    """{attribute: kind} of the classes, {name: parameter count} of the functions, the exception
    classes' __init__ parameters (exception_inits) and the string keys of other modules."""
    out = []
    functions = {}
    exceptions = {}
    keys = set()
    for path in paths:
        try:
            if os.path.getsize(path) > MAX_IMPORTED_BYTES:
                continue
            with open(path, encoding="utf-8-sig") as fh:
                text = fh.read()
            other = Module(Source(text), ast.parse(text))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        out.extend(dict(attrs) for attrs in other.class_attributes.values() if attrs)
        for name, fn in other.functions.items():
            functions.setdefault(name, n_params(fn))
        for name, params in exception_inits(other).items():
            exceptions.setdefault(name, params)
        keys.update(other.keys)
    return out, functions, exceptions, keys


def generate(text, lines, span, hints, budget, root=None, file=None, tests=None):
    src = Source(text)
    tree = ast.parse(text)
    module = Module(src, tree)
    if root and file:
        module.foreign_attributes, module.foreign_functions, foreign, module.foreign_keys = foreign_facts(
            imported_files(tree, root, file)
        )
        module.test_keys = file_keys(tests or [], root)
        # Exception classes imported from the repository are raised here under their imported names.
        module.exception_inits.update({name: params for name, params in foreign.items() if name in module.imports})
    gen = Generator(module, hints)
    out = []
    done_units = set()
    done_functions = set()
    for line, unit in suspect_units(module, lines, span):
        gen.suspect = line
        gen.found = []
        if id(unit) not in done_units:
            done_units.add(id(unit))
            gen.unit = unit
            nodes = [n for part in own_fields(unit) for n in walk_exprs(part, module.skip)]
            gen.expression_families(unit, nodes)
            gen.statement_families(unit)
        fn = unit if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)) else module.enclosing_function(unit)
        if fn is not None and id(fn) not in done_functions:
            done_functions.add(id(fn))
            gen.unit = fn
            gen.function_families(fn)
        out.extend(gen.materialize(budget))
        if len(out) >= MAX_TOTAL:
            break
    return out[:MAX_TOTAL], gen.parses


def main():
    request = json.load(sys.stdin)
    started = time.perf_counter()
    text = request.get("source")
    if text is None:
        root = request.get("root") or os.getcwd()
        path = os.path.normpath(os.path.join(root, request["file"]))
        if not path.startswith(os.path.normpath(root) + os.sep):
            return {"problem": f"{request['file']} is outside the repository"}
        try:
            # utf-8-sig: a byte order mark is no character of line 1 (the edits keep it on the host).
            with open(path, encoding="utf-8-sig") as fh:
                text = fh.read()
        except UnicodeDecodeError:
            return {"problem": f"{request['file']} is not UTF-8: Hypofix edits UTF-8 source files only"}
        except OSError as e:
            return {"problem": f"{request['file']} could not be read: {type(e).__name__}"}
    span = request.get("span")
    try:
        candidates, parses = generate(
            text,
            request.get("lines") or [],
            (span["start"], span["end"]) if span else None,
            request.get("hints") or {},
            int(request.get("budget") or DEFAULT_BUDGET),
            request.get("root") or os.getcwd(),
            request["file"],
            [t for t in request.get("tests") or [] if isinstance(t, str)],
        )
    except SyntaxError as e:
        return {"problem": f"{request['file']} does not parse: {e.msg} (line {e.lineno})"}
    return {
        "candidates": candidates,
        "stats": {"parses": parses, "ms": round((time.perf_counter() - started) * 1000, 1)},
    }


if __name__ == "__main__":
    result = main()
    sys.stdout.write(RESULT_MARK + json.dumps(result))
