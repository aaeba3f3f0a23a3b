"""What the file knows: scopes and bindings, kinds of names, keys, strings, attributes,
exceptions (Module), and where a suspect line's statement or function starts and ends.
"""

import ast

from .kinds import docstring_node, kind_of_annotation, kind_of_value
from .units import header_range


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
        self.test_strings = []  # short string literals of the failing tests' files
        self.test_calls = {}  # {callee name: [[repr of each literal positional argument, or None]]} in them
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


def n_params(fn):
    return len([a for a in fn.args.args if a.arg not in ("self", "cls")])
