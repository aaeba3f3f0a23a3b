"""What watches one test for the runtime's debug and trace modes: pytest plugins and trace functions.

Used by hypofix_runtime.py: TraceWindow runs a tracer only around the test itself; Probe is the
debugger experiment's breakpoint (bdb); BlockTracer is the LDB block trace of one function. The
runtime passes in how values are shown (safe_repr, cap), as to hypofix_evidence's Collector.
"""

import ast
import bdb
import inspect
import sys

from pluggy import HookimplMarker

from hypofix_compat import qualname_of

hookimpl = HookimplMarker("pytest")


class TraceWindow:
    """pytest plugin: a tracer runs only around the test's setup, call and teardown, not pytest's own
    bookkeeping, nor around the tests of `skip` (those an order-dependent test needs run before it)."""

    def __init__(self, tracer, skip=()):
        self.tracer = tracer
        self.skip = set(skip)

    def _around(self, item):
        if item.nodeid in self.skip:
            yield
            return
        self.tracer.start()
        try:
            yield
        finally:
            sys.settrace(None)

    @hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._around(item)

    @hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._around(item)

    @hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        yield from self._around(item)


# ---- debugger -----------------------------------------------------------------


class Probe(bdb.Bdb):
    """Stops only at the breakpoint, evaluates the expressions, continues; records lines reached in the file."""

    def __init__(self, path, line, exprs, limit, funcname, safe_repr):
        super().__init__()
        self.safe_repr = safe_repr
        self.target = self.canonic(path)
        self.exprs = [(e, compile(e, "<expression>", "eval")) for e in exprs]
        self.limit = limit
        self.hits = []
        # the code object each hit stopped in: a lambda or comprehension on the line runs in a frame of its own
        self.frames = []
        self.total = 0
        self.reached = set()
        # on a `def` line, bdb's function breakpoint stops at the first line of each call
        self.set_break(self.target, line, funcname=funcname)

    def dispatch_line(self, frame):
        if self.canonic(frame.f_code.co_filename) == self.target:
            self.reached.add(frame.f_lineno)
        return super().dispatch_line(frame)

    def user_line(self, frame):
        self.total += 1
        if len(self.hits) >= self.limit:
            return
        values = []
        for _, code in self.exprs:
            try:
                values.append({"value": self.safe_repr(eval(code, frame.f_globals, frame.f_locals))})
            except Exception as e:  # the model's expression failing is an observation
                values.append({"error": f"{type(e).__name__}: {e}"})
        self.hits.append(values)
        self.frames.append(frame.f_code.co_name)

    def start(self):
        self.reset()
        # a stop frame that never matches with stoplineno -1: no stepping, breakpoints only
        self._set_stopinfo(sys._getframe(), None, -1)
        sys.settrace(self.trace_dispatch)


# ---- LDB block trace -------------------------------------------------------------


def block_leaders(tree):
    """Lines that start a basic block (branch targets, loop heads) and lines that end one (branches)."""
    leaders, enders = set(), set()
    compound = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)
    jumps = (ast.Return, ast.Break, ast.Continue, ast.Raise)
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for i, stmt in enumerate(body):
                if not isinstance(stmt, ast.AST) or not hasattr(stmt, "lineno"):
                    continue
                if i == 0 and node is not tree:
                    leaders.add(stmt.lineno)
                if isinstance(stmt, compound + jumps):
                    enders.add(stmt.lineno)
                    if i + 1 < len(body):
                        leaders.add(body[i + 1].lineno)
                if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                    leaders.add(stmt.lineno)
    return leaders, enders


class BlockTracer:
    """Records the test's path through one function as basic blocks with variable values at entry and exit."""

    KEEP = 5

    def __init__(self, path, qualname, fn_node, source_lines, safe_repr, cap):
        self.safe_repr = safe_repr
        self.cap = cap
        self.path = path
        self.qualname = qualname
        # a decorated function's code starts at its first decorator
        self.first = min([fn_node.lineno] + [d.lineno for d in fn_node.decorator_list])
        self.last = fn_node.end_lineno
        self.leaders, self.enders = block_leaders(fn_node)
        self.source = source_lines
        self.head = []
        self.tail = []
        self.total = 0
        self.open = {}
        self.index = 0

    def snapshot(self, frame):
        return {
            k: self.safe_repr(v, 100)
            for k, v in frame.f_locals.items()
            if not (k.startswith("__") and k.endswith("__")) and not inspect.ismodule(v)
        }

    def _close(self, frame, after):
        block = self.open.pop(id(frame), None)
        if block is None or not block["lines"]:
            return
        self.total += 1
        lines = block.pop("lines")
        block.update(
            {
                "index": self.total,
                "startLine": min(lines),
                "endLine": max(lines),
                "after": after,
                "code": "\n".join(self.source[n - 1].rstrip() for n in sorted(set(lines)) if n <= len(self.source)),
            }
        )
        if len(self.head) < self.KEEP:
            self.head.append(block)
        else:
            self.tail.append(block)
            if len(self.tail) > self.KEEP:
                self.tail.pop(0)

    def _local(self, frame, event, arg):
        key = id(frame)
        if event == "line":
            line = frame.f_lineno
            block = self.open.get(key)
            if block and block["lines"]:
                prev = block["lines"][-1]
                if line in self.leaders or prev in self.enders or line <= prev:
                    state = self.snapshot(frame)
                    self._close(frame, state)
                    block = None
                    self.open[key] = {"before": state, "lines": []}
            if key not in self.open:
                self.open[key] = {"before": self.snapshot(frame), "lines": []}
            self.open[key]["lines"].append(line)
        elif event == "exception":
            block = self.open.get(key)
            if block is not None:
                block.setdefault("raised", f"{arg[0].__name__}: {self.cap(str(arg[1]), 200)}")
        elif event == "return":
            state = self.snapshot(frame)
            block = self.open.get(key)
            if block is not None and "raised" in block:
                state["__exception__"] = block.pop("raised")
            else:
                state["__return__"] = self.safe_repr(arg, 100)
            self._close(frame, state)
        return self._local

    def _global(self, frame, event, arg):
        code = frame.f_code
        if code.co_filename != self.path or not (self.first <= code.co_firstlineno <= self.last):
            return None
        if qualname_of(code).replace(".<locals>", "") != self.qualname:
            return None
        self.open[id(frame)] = {"before": self.snapshot(frame), "lines": []}
        return self._local

    def start(self):
        sys.settrace(self._global)
