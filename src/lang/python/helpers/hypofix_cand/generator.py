"""The Generator: what every family shares. Families record candidates as text changes of the
original source (emit, replace, insert_*); materialize keeps, likeliest first, those whose
edited file parses and that the DSL expresses, with their features for rankers.
"""

import ast

from .kinds import docstring_node, is_fresh, kind_of_value, type_class, usage_classes
from .text import apply_dsl, line_edits, short
from .units import names_in, own_fields, qualname, walk_exprs


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
        self._exprs = {}
        # {line: {name: type name}} seen when the failing test first ran each line (hints.types).
        self.types = {}
        for entry in hints.get("types", []) or []:
            if isinstance(entry, dict) and isinstance(entry.get("types"), dict):
                self.types[int(entry.get("line", 0))] = entry["types"]

    _usage = None  # {id of a function (or None): usage_classes of its nodes}

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

    # Questions families share -----------------------------------------------------------
    def exprs(self, unit):
        """The expressions of a unit's own fields (not of the statements nested in it), in order,
        without the nodes never edited."""
        if id(unit) not in self._exprs:
            self._exprs[id(unit)] = [n for part in own_fields(unit) for n in walk_exprs(part, self.m.skip)]
        return self._exprs[id(unit)]

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

    def usage(self, node):
        """How the enclosing function (or the module) uses its names: usage_classes, cached."""
        if self._usage is None:
            self._usage = {}
        fn = self.m.enclosing_function(node)
        key = id(fn)
        if key not in self._usage:
            self._usage[key] = usage_classes(list(self.own_nodes(fn)) if fn is not None else list(ast.walk(self.m.tree)))
        return self._usage[key]

    def own_nodes(self, fn):
        """Nodes of a function, not of functions or classes nested in it."""
        stack = list(ast.iter_child_nodes(fn))
        while stack:
            n = stack.pop()
            yield n
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.extend(ast.iter_child_nodes(n))

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

    def unit_names(self):
        key = id(self.unit)
        if key not in self._unit_names:
            self._unit_names[key] = set(names_in(self.unit)) if self.unit is not None else set()
        return self._unit_names[key]

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

    def enclosing_loop_of(self, node):
        loops = self.m.enclosing_loops(node)
        return loops[0] if loops else None
