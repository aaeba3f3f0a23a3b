"""What a failing test says about its bug, read from the live objects while it fails.

Used by hypofix_runtime.py's `evidence` mode: a pytest plugin (Collector) runs beside the
failing test and reports, as JSON-ready dicts:

- comparison: a failed `assert a <op> b` with both values and how they differ (a number
  off by one or by a factor, a sign, dates a day apart, a sequence an item short or in
  another order, dict keys), from pytest's own `pytest_assertrepr_compare` hook;
- exception: type, message and the names of its classes (to compare with `except` clauses);
- key: for a KeyError, the mapping that lacked the key and the keys it held;
- attribute: for an AttributeError, the object's type and attributes;
- handlers: the `except` clauses around each repository frame the exception went through;
- cause: where a caught-and-re-raised exception started;
- signatures: the parameters of the functions called on the failing line and the given lines;
- carried: mutable defaults and containers that keep growing from one call to the next;
- probes: for each given line, what a debugger experiment should print there before it is
  edited, and the values it would show (for a `return`, also the returned expression and the
  function's parameters).

Nothing here calls code the test did not call, except `getattr` on names a line already
reads and `inspect.signature` of what it calls.
"""

import ast
import builtins
import datetime
import difflib
import inspect
import sys

from hypofix_compat import read_source

CAP = 200
MAX_ITEMS = 60
MAX_VALUES = 100  # as the debugger experiment


class Collector:
    def __init__(self, root, is_repo_file, is_test_file, rel, safe_repr, lines):
        self.root = root
        self.is_repo_file = is_repo_file
        self.is_test_file = is_test_file
        self.rel = rel
        self.repr = lambda v: safe_repr(v, CAP)
        self.comparison = None
        self.failure = None
        # {(relpath, line)} whose calls' signatures to report on first hit
        self.lines = {(f, int(n)) for f, n in lines}
        self.signatures = []
        self.seen_lines = set()
        self.typed = {}  # (line key, code object) -> hits whose locals' types were recorded
        self.calls = {}
        self.carried = {}
        self._trees = {}
        # What a debugger experiment would print at each given line, and the values it would show
        # (evaluated at each hit as bdb would, before the line runs), so the engine need not run it.
        self.full_repr = safe_repr
        self.probes = {key: self.probe(*key) for key in sorted(self.lines)}
        self.compiled = {}
        for key, p in self.probes.items():
            if p is not None and p["expr"]:
                try:
                    self.compiled[key] = compile(p["expr"], "<expression>", "eval")
                    p.update({"values": [], "total": 0})
                except SyntaxError:
                    pass

    # ---- pytest hooks ------------------------------------------------------------

    def pytest_assertrepr_compare(self, config, op, left, right):
        self.comparison = {"op": op, **compare(left, right, self.repr)}
        return None

    def pytest_exception_interact(self, node, call, report):
        import pytest

        if isinstance(node, pytest.Item) and self.failure is None:
            self.failure = call.excinfo.value

    # ---- tracing (signatures of given lines, values carried across calls) ----------

    def start(self):
        sys.settrace(self._global)

    def stop(self):
        sys.settrace(None)

    def _source_file(self, filename):
        if not self.is_repo_file(filename):
            return None
        relpath = self.rel(filename)
        return None if self.is_test_file(relpath) else relpath

    def _global(self, frame, event, arg):
        relpath = self._source_file(frame.f_code.co_filename)
        if relpath is None:
            return None
        self._on_call(frame, relpath)
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            relpath = self.rel(frame.f_code.co_filename)
            key = (relpath, frame.f_lineno)
            if key in self.lines and key not in self.seen_lines:
                self.seen_lines.add(key)
                self.signatures.extend(self.call_signatures(frame, relpath, frame.f_lineno))
            probe = self.probes.get(key)
            hits = self.typed.get((key, frame.f_code), 0)
            if probe is not None and hits < TYPED_HITS:
                # Per code object (a comprehension's variables live in a frame of their own), and
                # more than once: a loop's variable is bound only from its second pass on.
                self.typed[(key, frame.f_code)] = hits + 1
                types = probe.setdefault("types", {})
                for name, kind in value_types(frame).items():
                    types.setdefault(name, kind)
            code = self.compiled.get(key)
            if code is not None:
                self.record(self.probes[key], code, frame)
        elif event == "return":
            self._on_return(frame)
        return self._local

    def record(self, probe, code, frame):
        probe["total"] += 1
        if len(probe["values"]) >= MAX_VALUES:
            return
        try:
            probe["values"].append({"value": self.full_repr(eval(code, frame.f_globals, frame.f_locals))})
        except Exception as e:  # the expression failing is an observation, as in the debugger
            probe["values"].append({"error": f"{type(e).__name__}: {e}"})

    def _on_call(self, frame, relpath):
        code = frame.f_code
        record = self.calls.setdefault(code, {"file": relpath, "calls": []})
        record["calls"].append({"self": id(frame.f_locals.get("self")), "entry": container_sizes(frame)})
        fn = function_of(frame)
        defaults = getattr(fn, "__defaults__", None) or ()
        if defaults:
            names = code.co_varnames[: code.co_argcount][-len(defaults) :]
            for name, default in zip(names, defaults):
                if isinstance(default, (list, dict, set)) and frame.f_locals.get(name) is default and default:
                    self.carried.setdefault(
                        (relpath, code.co_name, name),
                        {
                            "file": relpath,
                            "function": code.co_name,
                            "line": code.co_firstlineno,
                            "name": name,
                            "kind": "default",
                            "value": self.repr(default),
                        },
                    )
    def _on_return(self, frame):
        record = self.calls.get(frame.f_code)
        if record is None:
            return
        for call in reversed(record["calls"]):
            if "exit" not in call:
                call["exit"] = container_sizes(frame)
                break

    def grown(self):
        """Containers of `self` that each call of a method starts where the last left them, and grows."""
        out = []
        for code, record in self.calls.items():
            by_object = {}
            for call in record["calls"]:
                if "exit" in call:
                    by_object.setdefault(call["self"], []).append(call)
            for calls in by_object.values():
                if len(calls) < 2:
                    continue
                for name in calls[0]["entry"]:
                    pairs = [(c["entry"].get(name), c["exit"].get(name)) for c in calls]
                    if any(a is None or b is None for a, b in pairs):
                        continue
                    grows = all(b > a for a, b in pairs)
                    chained = all(pairs[i + 1][0] == pairs[i][1] for i in range(len(pairs) - 1))
                    if grows and chained:
                        out.append(
                            {
                                "file": record["file"],
                                "function": code.co_name,
                                "line": code.co_firstlineno,
                                "name": name,
                                "kind": "grows",
                                "value": f"sizes when each call started: {[a for a, _ in pairs][:10]}",
                            }
                        )
        return out

    # ---- static helpers ------------------------------------------------------------

    def tree(self, relpath):
        if relpath not in self._trees:
            try:
                self._trees[relpath] = ast.parse(read_source(self.root + "/" + relpath))
            except (OSError, SyntaxError, ValueError):
                self._trees[relpath] = None
        return self._trees[relpath]

    def statement(self, relpath, line):
        """The innermost simple statement (or compound header) at a line."""
        tree = self.tree(relpath)
        if tree is None:
            return None
        best = None
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
                header_end = node.body[0].lineno - 1 if hasattr(node, "body") and node.body else node.end_lineno
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and line > header_end:
                    continue
                if best is None or node.lineno >= best.lineno:
                    best = node
        if best is not None and hasattr(best, "body") and best.body and not isinstance(best, ast.Try):
            # a compound statement: only its header (the test of an if, the iterable of a for)
            parts = [getattr(best, f) for f in ("test", "iter", "target", "items") if getattr(best, f, None) is not None]
            return ast.Module(body=[ast.Expr(value=p) for p in parts if isinstance(p, ast.expr)], type_ignores=[])
        return best

    def call_signatures(self, frame, relpath, line):
        stmt = self.statement(relpath, line)
        if stmt is None:
            return []
        out = []
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            ok, fn = safe_eval(node.func, frame)
            if not ok:
                continue
            try:
                sig = inspect.signature(fn)
            except (TypeError, ValueError):
                continue
            params = [
                p.name + ("=" + self.repr(p.default) if p.default is not inspect.Parameter.empty else "")
                for p in sig.parameters.values()
                if p.name != "self"
            ]
            out.append(
                {
                    "file": relpath,
                    "line": line,
                    "callee": ast.unparse(node.func),
                    "params": params[:20],
                    "given": len(node.args),
                    "keywords": [k.arg for k in node.keywords if k.arg],
                }
            )
        return out

    # ---- the failure -------------------------------------------------------------------

    def result(self):
        exc = self.failure
        out = {
            "comparison": self.comparison,
            "exception": None,
            "key": None,
            "attribute": None,
            "handlers": [],
            "cause": None,
            "signatures": self.signatures,
            "carried": list(self.carried.values()) + self.grown(),
            "probes": [p for p in self.probes.values() if p is not None],
        }
        if exc is None:
            return out
        out["exception"] = {
            "type": type(exc).__name__,
            "message": text_of(exc),
            "classes": [c.__name__ for c in type(exc).__mro__],
        }
        frames = self.repo_frames(exc)
        inner = frames[-1] if frames else None
        if isinstance(exc, KeyError) and exc.args and inner is not None:
            out["key"] = self.key_evidence(exc.args[0], *inner)
        if isinstance(exc, AttributeError) and inner is not None:
            out["attribute"] = self.attribute_evidence(exc, *inner)
        if inner is not None and (inner[1], inner[2]) not in self.seen_lines:
            out["signatures"] = self.call_signatures(*inner) + out["signatures"]
        out["handlers"] = self.handlers(exc, frames)
        origin = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
        if origin is not None:
            start = self.repo_frames(origin)
            if start:
                frame, relpath, line = start[-1]
                out["cause"] = {
                    "type": type(origin).__name__,
                    "message": text_of(origin),
                    "file": relpath,
                    "line": line,
                    "function": frame.f_code.co_name,
                }
        return out

    def probe(self, relpath, line):
        """What a debugger experiment should print at a line before it is edited: the condition, the
        returned value or the right-hand side when evaluating it again is harmless, else the names it
        reads. For a `return`, also the returned expression and the function's parameters."""
        tree = self.tree(relpath)
        stmt = None
        for node in ast.walk(tree) if tree is not None else []:
            if isinstance(node, ast.stmt) and node.lineno == line:
                stmt = node
                break
        if stmt is None:
            return None
        expr = None
        if isinstance(stmt, (ast.If, ast.While)):
            expr = stmt.test
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            expr = stmt.iter
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            expr = stmt.value
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            expr = stmt.value
        elif isinstance(stmt, ast.AugAssign):
            expr = ast.Tuple(elts=[load(stmt.target), stmt.value], ctx=ast.Load())
        text = None
        computed = False
        if expr is not None and pure(expr) and any(isinstance(n, ast.Name) for n in ast.walk(expr)):
            text = ast.unparse(expr)
            computed = not isinstance(stmt, ast.AugAssign)
        else:
            names = read_names(stmt)
            if names:
                text = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
        # computed: the expression is what the line itself computes (not merely the names it reads)
        out = {"file": relpath, "line": line, "expr": text, "computed": computed}
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            out["returned"] = ast.unparse(stmt.value)
            fn = enclosing_function(tree, line)
            params = parameters(fn) if fn is not None else None
            if params is not None:
                out["params"] = params
        return out

    def repo_frames(self, exc):
        """(frame, relpath, line) of the repository's non-test frames the exception went through, outermost first."""
        found = []
        tb = exc.__traceback__
        while tb is not None:
            relpath = self._source_file(tb.tb_frame.f_code.co_filename)
            if relpath is not None:
                found.append((tb.tb_frame, relpath, tb.tb_lineno))
            tb = tb.tb_next
        return found

    def key_evidence(self, key, frame, relpath, line):
        containers = []
        stmt = self.statement(relpath, line)
        for node in ast.walk(stmt) if stmt is not None else []:
            target = None
            if isinstance(node, ast.Subscript):
                target, index = node.value, node.slice
                if hasattr(ast, "Index") and isinstance(index, getattr(ast, "Index")):
                    index = index.value  # Python 3.8 and older
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                if node.func.attr in ("pop", "__getitem__", "remove"):
                    target, index = node.func.value, node.args[0]
            if target is None:
                continue
            ok_index, value = safe_eval(index, frame)
            ok_target, container = safe_eval(target, frame)
            if ok_index and ok_target and same(value, key) and hasattr(container, "keys"):
                containers.append((ast.unparse(target), container))
        if not containers:
            containers = [
                (name, v)
                for name, v in frame.f_locals.items()
                if isinstance(v, dict) and key not in v and v
            ][:3]
        if not containers:
            return {"key": self.repr(key), "container": None, "keys": [], "close": []}
        name, container = containers[0]
        keys = list(container.keys())[:MAX_ITEMS]
        texts = [k for k in keys if isinstance(k, str)]
        close = difflib.get_close_matches(key, texts, n=5, cutoff=0.4) if isinstance(key, str) else []
        return {
            "key": self.repr(key),
            "container": name,
            "keys": [self.repr(k) for k in keys],
            "close": [self.repr(k) for k in close],
        }

    def attribute_evidence(self, exc, frame, relpath, line):
        name = getattr(exc, "name", None)
        obj = getattr(exc, "obj", None)
        if name is None:
            text = str(exc)
            marker = "has no attribute '"
            if marker in text:
                name = text.split(marker, 1)[1].split("'", 1)[0]
        if name is None:
            return None
        owner = None
        if obj is None:
            stmt = self.statement(relpath, line)
            for node in ast.walk(stmt) if stmt is not None else []:
                if isinstance(node, ast.Attribute) and node.attr == name:
                    ok, value = safe_eval(node.value, frame)
                    if ok:
                        obj, owner = value, ast.unparse(node.value)
                        break
        if obj is None:
            return {"name": name, "type": None, "owner": owner, "attributes": [], "close": []}
        attrs = [a for a in dir(obj) if not a.startswith("__")][:MAX_ITEMS * 2]
        return {
            "name": name,
            "type": type(obj).__name__,
            "owner": owner,
            "attributes": attrs[:MAX_ITEMS],
            "close": difflib.get_close_matches(name, attrs, n=5, cutoff=0.4),
        }

    def handlers(self, exc, frames):
        """The except clauses of try statements around each frame's line (the exception passed through them uncaught)."""
        out = []
        for frame, relpath, line in frames:
            tree = self.tree(relpath)
            if tree is None:
                continue
            for node in ast.walk(tree):
                if not isinstance(node, ast.Try) or not node.body:
                    continue
                if not (node.body[0].lineno <= line <= (node.body[-1].end_lineno or line)):
                    continue
                for handler in node.handlers:
                    out.append(
                        {
                            "file": relpath,
                            "line": handler.lineno,
                            "function": frame.f_code.co_name,
                            "types": ast.unparse(handler.type) if handler.type is not None else "",
                        }
                    )
        return out


# Calls a debugger print may make without changing the program's state.
PURE_CALLS = set(
    "len range abs min max sum int float str bool round sorted list tuple set isinstance repr type "
    "lower upper strip startswith endswith get keys values items count index split join".split()
)
BUILTIN_NAMES = set(dir(builtins)) | {"self", "cls"}


def pure(expr):
    for node in ast.walk(expr):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr, ast.Lambda)):
            return False
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name not in PURE_CALLS:
                return False
    return True


def load(target):
    """A store target as an expression that reads it."""
    return ast.parse(ast.unparse(target), mode="eval").body


MAX_TYPES = 40
TYPED_HITS = 3


def value_types(frame):
    """The type names of a frame's locals and of its `self`'s attributes (as `self.<name>`) at the
    first hit of a line, so the candidate generator can skip edits that do not fit them (`key + 1`
    on a tuple). Reading a type runs no user code."""
    out = {}
    for name, value in list(frame.f_locals.items())[:MAX_TYPES]:
        if not name.startswith("__"):
            out[name] = type(value).__name__
    own = frame.f_locals.get("self")
    try:
        # object's own lookup: no __getattr__ / __getattribute__ of the user's class runs.
        attrs = object.__getattribute__(own, "__dict__") if own is not None else None
    except Exception:
        attrs = None
    if isinstance(attrs, dict):
        for name, value in list(attrs.items())[:MAX_TYPES]:
            if isinstance(name, str) and not name.startswith("__"):
                out["self." + name] = type(value).__name__
    return out


def read_names(stmt):
    """Names the statement reads (not called, not after a dot, not builtins), in order; for an
    assignment only those on its right, which exist before the line runs."""
    parts = [stmt.value] if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and stmt.value else [stmt]
    called = set()
    for part in parts:
        for node in ast.walk(part):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called.add(id(node.func))
    names = []
    for part in parts:
        for node in ast.walk(part):
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Load)
                and id(node) not in called
                and node.id not in BUILTIN_NAMES
                and node.id not in names
            ):
                names.append(node.id)
    return names


def enclosing_function(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or 0):
            if best is None or node.lineno > best.lineno:
                best = node
    return best


def parameters(fn):
    """Parameter names without self and cls; None with *args or **kwargs."""
    a = fn.args
    if a.vararg is not None or a.kwarg is not None:
        return None
    names = [p.arg for p in getattr(a, "posonlyargs", []) + a.args + a.kwonlyargs]
    return [n for n in names if n not in ("self", "cls")]


def text_of(exc):
    try:
        return str(exc)[: CAP * 2]
    except Exception as e:  # a broken __str__ is still something to report
        return f"<str failed: {type(e).__name__}>"


def same(a, b):
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def safe_eval(node, frame):
    """Evaluates names, attributes, constant subscripts and literals only: never a call."""
    try:
        if isinstance(node, ast.Constant):
            return True, node.value
        if isinstance(node, ast.Name):
            if node.id in frame.f_locals:
                return True, frame.f_locals[node.id]
            if node.id in frame.f_globals:
                return True, frame.f_globals[node.id]
            builtins = frame.f_builtins
            return (True, builtins[node.id]) if node.id in builtins else (False, None)
        if isinstance(node, ast.Attribute):
            ok, value = safe_eval(node.value, frame)
            if not ok:
                return False, None
            # a property would run code: only plain attributes, methods and class members
            static = inspect.getattr_static(value, node.attr, None)
            if isinstance(static, property):
                return False, None
            return True, getattr(value, node.attr)
        if isinstance(node, ast.Subscript):
            ok, value = safe_eval(node.value, frame)
            index = node.slice
            if hasattr(ast, "Index") and isinstance(index, getattr(ast, "Index")):
                index = index.value
            ok2, key = safe_eval(index, frame)
            if ok and ok2 and isinstance(value, (dict, list, tuple, str)):
                return True, value[key]
    except Exception:
        return False, None
    return False, None


def function_of(frame):
    """The function object running in a frame, when it can be found without calling anything."""
    code = frame.f_code
    candidate = frame.f_globals.get(code.co_name)
    if getattr(candidate, "__code__", None) is code:
        return candidate
    if code.co_argcount and code.co_varnames:
        first = frame.f_locals.get(code.co_varnames[0])
        owner = first if isinstance(first, type) else type(first)
        member = inspect.getattr_static(owner, code.co_name, None) if owner is not None else None
        member = getattr(member, "__func__", member)
        if getattr(member, "__code__", None) is code:
            return member
    return None


def container_sizes(frame):
    """Sizes of the list/dict/set attributes of `self` in a method frame."""
    code = frame.f_code
    if not code.co_argcount or code.co_varnames[0] != "self":
        return {}
    obj = frame.f_locals.get("self")
    attrs = getattr(obj, "__dict__", None)
    if not isinstance(attrs, dict):
        return {}
    return {f"self.{k}": len(v) for k, v in attrs.items() if isinstance(v, (list, dict, set))}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def compare(left, right, rep):
    """How two compared values differ, in the terms a repair can act on."""
    out = {"left": rep(left), "right": rep(right), "leftType": type(left).__name__, "rightType": type(right).__name__}
    rel = {}
    try:
        if number(left) and number(right):
            rel["delta"] = right - left
            if left != 0 and right != 0:
                rel["ratio"] = right / left
            rel["sign"] = left == -right and left != 0
        elif isinstance(left, datetime.datetime) and isinstance(right, datetime.datetime):
            rel["days"] = (right - left).total_seconds() / 86400
        elif isinstance(left, datetime.date) and isinstance(right, datetime.date):
            rel["days"] = (right - left).days
        elif isinstance(left, datetime.timedelta) and isinstance(right, datetime.timedelta):
            rel["days"] = (right - left).total_seconds() / 86400
        elif isinstance(left, str) and isinstance(right, str):
            rel["lengthDelta"] = len(right) - len(left)
            rel["caseOnly"] = left.lower() == right.lower()
            rel["spaceOnly"] = "".join(left.split()) == "".join(right.split())
        elif isinstance(left, dict) and isinstance(right, dict):
            rel["lengthDelta"] = len(right) - len(left)
            rel["missing"] = [rep(k) for k in right if k not in left][:10]
            rel["extra"] = [rep(k) for k in left if k not in right][:10]
            rel["changed"] = [rep(k) for k in left if k in right and not same(left[k], right[k])][:10]
        elif isinstance(left, (list, tuple, set, frozenset)) and isinstance(right, (list, tuple, set, frozenset)):
            rel["lengthDelta"] = len(right) - len(left)
            lrep = [rep(x) for x in left]
            rrep = [rep(x) for x in right]
            rest = list(lrep)
            missing = []
            for r in rrep:
                if r in rest:
                    rest.remove(r)
                else:
                    missing.append(r)
            rel["missing"] = missing[:10]
            rel["extra"] = rest[:10]
            rel["sameItems"] = not missing and not rest
            if len(left) == len(right) and all(number(a) and number(b) for a, b in zip(left, right)):
                deltas = {b - a for a, b in zip(left, right) if a != b}
                if len(deltas) == 1:
                    rel["delta"] = deltas.pop()
        elif type(left) is type(right) and hasattr(left, "__dict__"):
            a, b = vars(left), vars(right)
            rel["changed"] = [k for k in a if k in b and not same(a[k], b[k])][:10]
    except Exception:  # a value whose comparison raises still has its reprs
        pass
    out["relation"] = {k: v for k, v in rel.items() if v is not None}
    return out
