"""What the helpers need that differs across Python 3.9-3.13, and the deadline timer.

- code_lines: a code object's line numbers (co_lines is 3.10+; dis.findlinestarts before).
- qualname_of: a code object's qualified name (co_qualname is 3.11+; from the source's AST before).
- Alarm: calls a handler in the main thread after a delay without SIGALRM, which tests
  (signal.alarm) and pytest-timeout own: a timer thread sends a real-time signal to the
  main thread, so a test blocked in sleep() or a lock is woken like an alarm would.
- read_source: a source file's text as Python itself decodes it.
"""

import ast
import dis
import signal
import threading
import tokenize


def read_source(path):
    """A Python file's text as the interpreter reads it: a UTF-8 byte order mark is dropped and a
    coding declaration (PEP 263, `# -*- coding: latin-1 -*-`) is honoured, so such a file parses
    here as it imports. For reading only: edits go through the host as UTF-8 text."""
    with tokenize.open(path) as fh:
        return fh.read()


def code_lines(code):
    """Line numbers the code object has instructions for."""
    if hasattr(code, "co_lines"):
        return {line for _, _, line in code.co_lines() if line}
    return {line for _, line in dis.findlinestarts(code) if line}


_QUALNAMES = {}


def _static_qualnames(filename):
    """{(first line, name): qualname} for the functions and classes of a source file, as CPython names them."""
    found = _QUALNAMES.get(filename)
    if found is not None:
        return found
    found = {}
    try:
        tree = ast.parse(read_source(filename))
    except (OSError, SyntaxError, ValueError):
        _QUALNAMES[filename] = found
        return found

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualname = prefix + child.name
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                found[(first, child.name)] = qualname
                inner = ".<locals>." if not isinstance(child, ast.ClassDef) else "."
                visit(child, qualname + inner)
            else:
                visit(child, prefix)

    visit(tree, "")
    _QUALNAMES[filename] = found
    return found


def qualname_of(code):
    """`Class.method`, `outer.<locals>.inner`: co_qualname where it exists, else looked up in the source."""
    qualname = getattr(code, "co_qualname", None)
    if qualname is not None:
        return qualname
    return _static_qualnames(code.co_filename).get((code.co_firstlineno, code.co_name), code.co_name)


# A real-time signal nobody else uses; SIGUSR2 where the platform has none.
ALARM_SIGNAL = signal.SIGRTMAX - 1 if hasattr(signal, "SIGRTMAX") else signal.SIGUSR2


class Alarm:
    """One pending call of `handler(signum, frame)` in the main thread; set() re-arms, cancel() disarms."""

    def __init__(self, handler):
        self.handler = handler
        self.armed = 0
        self.generations = 0
        self.timer = None
        self.main = threading.main_thread().ident
        self.previous = signal.signal(ALARM_SIGNAL, self._on_signal)

    def _on_signal(self, signum, frame):
        if self.armed:
            self.armed = 0
            self.handler(signum, frame)

    def _fire(self, generation):
        if self.armed == generation:
            signal.pthread_kill(self.main, ALARM_SIGNAL)

    def set(self, seconds):
        self.cancel()
        self.generations += 1
        self.armed = generation = self.generations
        self.timer = threading.Timer(max(seconds, 0.001), self._fire, (generation,))
        self.timer.daemon = True
        self.timer.start()

    def cancel(self):
        self.armed = 0
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def close(self):
        self.cancel()
        signal.signal(ALARM_SIGNAL, self.previous)
