"""Hypofix's Python instruments, run inside the sandbox from the repository root.

Usage: python3 hypofix_runtime.py < request.json (stdin: a source file can exceed one argv string). The request's "mode" picks the
instrument (run, coverage, debug, edit, trace, functions, evidence). pytest runs in-process
with a small plugin, so results are structured (JUnit XML for outcomes, live
exception objects for frames) rather than scraped from terminal text. The result
is printed as JSON after RESULT_MARK on stdout.
"""

import ast
import contextlib
import hashlib
import inspect
import io
import json
import os
import sys
import tempfile
import time
import traceback
import xml.etree.ElementTree as ET

from pluggy import HookimplMarker

import hypofix_evidence
import hypofix_pytest_options
import hypofix_repo
from hypofix_compat import Alarm, read_source
from hypofix_repo import (
    COLLECTED_TEST_FILES,
    HELPERS,
    executable_lines,
    find_function,
    function_header,
    functions_in,
    is_repo_file,
    is_test_file,
    python_files,
    rel,
    resolve_file,
)
from hypofix_tracers import BlockTracer, Probe, TraceWindow

hookimpl = HookimplMarker("pytest")

RESULT_MARK = "\n@@HYPOFIX-RESULT@@\n"
REPR_CAP = 1000
TEXT_CAP = 4000
# characters of one value in a failed assert's message: values up to this size are kept whole
VALUE_CAP = 2400


class TestTimeout(Exception):
    """Raised in the running test at the deadline: it fails where it hung, and the session stops after it."""

    __test__ = False


class Deadline(KeyboardInterrupt):
    """Raised when a test swallowed TestTimeout: pytest still stops in order and writes its JUnit XML."""


class CappedText(io.StringIO):
    """pytest's terminal output: kept only to find its ERROR lines, so a flood is cut."""

    def write(self, s):
        if self.tell() < 200_000:
            super().write(s)
        return len(s)


def cap(text, limit):
    return text if len(text) <= limit else text[:limit] + "..."


def safe_repr(value, limit=REPR_CAP):
    try:
        return cap(repr(value), limit)
    except Exception as e:  # a broken __repr__ is still something to report
        return f"<repr failed: {type(e).__name__}: {e}>"


def describe_exception(exc):
    """Type name and message; pytest's CollectError is unwrapped to the SyntaxError/ImportError it wraps."""
    while type(exc).__name__ == "CollectError" and exc.__cause__ is not None:
        exc = exc.__cause__
    if isinstance(exc, SyntaxError) and exc.filename:
        message = f"{exc.msg} ({rel(exc.filename)}, line {exc.lineno})"
    else:
        message = str(exc).replace(hypofix_repo.ROOT + os.sep, "")
    return exc, type(exc).__name__, cap(message, TEXT_CAP)


def frames_of(exc):
    frames = []
    for fs in traceback.extract_tb(exc.__traceback__):
        frames.append(
            {
                "file": rel(fs.filename),
                "line": fs.lineno or 0,
                "function": fs.name,
                "code": (fs.line or "").strip(),
                "repo": is_repo_file(fs.filename),
            }
        )
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        frames.append(
            {
                "file": rel(exc.filename),
                "line": exc.lineno,
                "function": "<module>",
                "code": (exc.text or "").strip(),
                "repo": is_repo_file(exc.filename),
            }
        )
    return frames


MAX_CAUSES = 5


def causes_of(exc):
    """The exceptions `exc` was raised from or while handling (`raise ... from e`, else the
    implicit `__context__`, even when `from None` hides it from the traceback), nearest first:
    localization looks where the failure started, not only where it surfaced."""
    causes = []
    seen = {id(exc)}
    current = exc
    while len(causes) < MAX_CAUSES:
        cause = current.__cause__ or current.__context__
        if cause is None or id(cause) in seen:
            break
        seen.add(id(cause))
        causes.append(
            {
                "type": type(cause).__name__,
                "message": cap(str(cause).replace(hypofix_repo.ROOT + os.sep, ""), TEXT_CAP),
                "frames": frames_of(cause),
                "explicit": current.__cause__ is not None,
            }
        )
        current = cause
    return causes


def failure_of(excinfo_value):
    exc, type_name, message = describe_exception(excinfo_value)
    return {"type": type_name, "message": message, "frames": frames_of(exc), "causes": causes_of(exc)}


def mangle(nodeid):
    """pytest's junitxml naming of a node id, to map XML test cases back to node ids."""
    names = nodeid.split("::")
    names[0] = names[0].replace("/", ".")
    if names[0].endswith(".py"):
        names[0] = names[0][:-3]
    names = [n for n in names if n != "()"]
    return ".".join(names[:-1]), names[-1]


class Recorder:
    """pytest plugin: node ids in order, the live exception of each failure, collection errors."""

    def __init__(self):
        self.nodeids = []
        self.failures = {}
        self.collect_errors = []
        self.collect_failures = []
        self.current = None
        self.session = None
        self.test_files = set()

    def pytest_sessionstart(self, session):
        self.session = session

    def pytest_collection_finish(self, session):
        import pytest

        # Test functions and unittest methods only: a doctest item lives in a source module.
        for item in session.items:
            if isinstance(item, pytest.Function):
                relpath = rel(str(getattr(item, "path", None) or item.fspath))
                self.test_files.add(relpath)
                COLLECTED_TEST_FILES.add(relpath)

    def pytest_runtest_logstart(self, nodeid, location):
        self.current = nodeid
        self.nodeids.append(nodeid)

    def pytest_runtest_logfinish(self, nodeid, location):
        self.current = None

    def pytest_exception_interact(self, node, call, report):
        import pytest

        if isinstance(node, pytest.Item):
            self.failures.setdefault(node.nodeid, failure_of(call.excinfo.value))
        else:
            failure = failure_of(call.excinfo.value)
            self.collect_failures.append({"nodeid": node.nodeid, **failure})
            self.collect_errors.append(
                f"{node.nodeid or '.'}: {failure['type']}: {failure['message']}"
            )


# After a test hung in a run: each later test's limit, in multiples of the slowest finished test, and its floor.
AFTER_HANG_TIMES = 5
AFTER_HANG_MIN_S = 5.0


class TestLimit:
    """pytest plugin: each test of a run of several gets at most half the run's time. A test that
    hangs then fails with TestTimeout and the tests after it still run, instead of one hung test
    using up the run (and every later run of the suite). A lone test gets the whole run. A
    request's `testTimeout` (the job's limit scaled from the measured tests) is each test's limit
    instead, within the run's. Without one, a hang is waited for in full once: after a test hung,
    each later test gets at most AFTER_HANG_TIMES the slowest test that finished (AFTER_HANG_MIN_S at
    least), so a suite of tests that loop forever does not spend the run on them one by one."""

    def __init__(self, alarm, state, timeout, started, test_timeout=None):
        self.alarm = alarm
        self.state = state
        self.timeout = timeout
        self.session_end = started + timeout
        self.test_timeout = test_timeout
        self.per_test = timeout if test_timeout is None else min(timeout, test_timeout)
        self.started_test = None
        self.slowest = 0.0

    def pytest_collection_finish(self, session):
        if len(session.items) > 1 and self.test_timeout is None:
            self.per_test = self.timeout / 2

    def pytest_runtest_logstart(self, nodeid, location):
        if self.state["timed_out"]:
            return
        now = time.monotonic()
        remaining = self.session_end - now
        per_test = self.per_test
        if self.state["hangs"] > 0 and self.test_timeout is None:
            per_test = min(per_test, max(AFTER_HANG_MIN_S, AFTER_HANG_TIMES * self.slowest))
        self.started_test = (now, self.state["hangs"])
        self.state["test_limit"] = per_test if per_test < remaining else None
        self.alarm.set(min(per_test, remaining))

    def pytest_runtest_logfinish(self, nodeid, location):
        if self.state["timed_out"]:
            return
        if self.started_test is not None and self.started_test[1] == self.state["hangs"]:
            self.slowest = max(self.slowest, time.monotonic() - self.started_test[0])
        self.state["test_limit"] = None
        self.alarm.set(self.session_end - time.monotonic())


def keep_whole_values():
    """At the verbosity the runs use (-vv), pytest shows a failed assert's values whole, however
    large; without it, it cuts them at 240 characters or less (`[4, 9, 9, '*', '+', 10, ...]`), a
    structure cut in the middle. Values are kept whole up to VALUE_CAP characters."""
    try:
        from _pytest import _io
        from _pytest.assertion import rewrite, util
    except ImportError:
        return
    original = getattr(rewrite, "_get_maxsize_for_saferepr", None)
    if original is not None and not getattr(original, "hypofix", False):

        def maxsize(config):
            size = original(config)
            return VALUE_CAP if size is None else max(size, VALUE_CAP)

        maxsize.hypofix = True
        rewrite._get_maxsize_for_saferepr = maxsize
    if hasattr(util, "saferepr_unlimited"):
        saferepr = _io.saferepr.saferepr

        def bounded(obj, use_ascii=False):
            return saferepr(obj, maxsize=VALUE_CAP, use_ascii=use_ascii)

        util.saferepr_unlimited = bounded


def run_pytest(ids, timeout, plugins, test_timeout=None):
    """Runs pytest in-process; returns the run as a dict (tests, errors, timedOut, durationMs)."""
    import pytest

    recorder = Recorder()
    # test_limit: the running test's own limit when it ends before the run's (see TestLimit)
    # hangs: tests stopped at their own limit so far
    state = {"timed_out": False, "test_limit": None, "hangs": 0}

    def on_alarm(signum, frame):
        if state["timed_out"]:
            raise Deadline()
        limit = state["test_limit"]
        if limit is not None:
            # A test that swallows TestTimeout and runs on meets the run's deadline 1 s later.
            state["test_limit"] = None
            state["hangs"] += 1
            alarm.set(1.0)
            raise TestTimeout(f"the test did not finish within {limit:g}s and was stopped")
        state["timed_out"] = True
        if recorder.session is not None:
            recorder.session.shouldstop = "timeout"
        alarm.set(1.0)
        raise TestTimeout(f"the test did not finish within {timeout:g}s and was stopped")

    junit = os.path.join(tempfile.mkdtemp(prefix="hypofix-"), "junit.xml")
    args = [
        "-p",
        "no:cacheprovider",
        # -vv for whole values in assertion messages (keep_whole_values); only ERROR lines of the terminal are read
        "-vv",
        "--tb=short",
        "--show-capture=no",
        "-rN",
        "--continue-on-collection-errors",
        # even with `-s` in the repository's addopts: test output must never reach our stdout
        "--capture=fd",
        "--junitxml",
        junit,
        "-o",
        "junit_family=xunit2",
    ] + list(ids)
    out = CappedText()
    started = time.monotonic()
    alarm = Alarm(on_alarm)
    alarm.set(max(timeout, 0.1))
    limits = TestLimit(alarm, state, max(timeout, 0.1), started, test_timeout)
    del hypofix_pytest_options.SET_ASIDE[:]
    keep_whole_values()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            exit_code = pytest.main(args, plugins=[recorder, limits, hypofix_pytest_options] + plugins)
    except (Deadline, TestTimeout):
        exit_code = 2
    finally:
        alarm.close()
    duration = (time.monotonic() - started) * 1000
    tests = parse_junit(junit, recorder)
    errors = list(recorder.collect_errors)
    terminal = out.getvalue().splitlines()
    for i, line in enumerate(terminal):
        if line.startswith("ERROR: ") or line.startswith("INTERNALERROR>"):
            detail = terminal[i + 1] if i + 1 < len(terminal) and terminal[i + 1].startswith("(") else ""
            errors.append(cap((line + " " + detail).strip().replace(hypofix_repo.ROOT + os.sep, ""), TEXT_CAP))
    if state["timed_out"]:
        where = f" while running {recorder.current}" if recorder.current else ""
        errors.append(f"Timed out after {timeout:g}s{where}; the run was stopped there.")
    return {
        "tests": tests,
        "errors": errors,
        "collectFailures": recorder.collect_failures,
        "timedOut": state["timed_out"],
        "hungTest": recorder.current if state["timed_out"] else None,
        "exitCode": exit_code,
        "durationMs": duration,
        "setAside": list(dict.fromkeys(hypofix_pytest_options.SET_ASIDE)),
        "testFiles": sorted(recorder.test_files),
    }


def run_request(req, ids, plugins):
    """Runs `ids` as the request asks: after the tests of `before` (the tests an order-dependent
    failure needs to run first, in order; their results are dropped), each test at most
    `testTimeout` seconds when given."""
    before = [b for b in req.get("before") or [] if b not in ids]
    run = run_pytest(before + list(ids), req["timeout"], plugins, req.get("testTimeout"))
    if before:
        skip = set(before)
        run["tests"] = [t for t in run["tests"] if t["id"] not in skip]
    return run


def parse_junit(path, recorder):
    if not os.path.exists(path):
        return []
    by_name = {mangle(n): n for n in recorder.nodeids}
    tests = []
    seen = set()
    for case in ET.parse(path).getroot().iter("testcase"):
        key = (case.get("classname", ""), case.get("name", ""))
        nodeid = by_name.get(key)
        if nodeid is None:
            continue  # a collection error: reported in errors with its exception
        outcome = "passed"
        detail = None
        for tag, name in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
            node = case.find(tag)
            if node is not None:
                outcome, detail = name, node
                break
        result = {"id": nodeid, "outcome": outcome, "durationMs": float(case.get("time", "0")) * 1000}
        if outcome in ("failed", "error"):
            failure = dict(recorder.failures.get(nodeid) or {"type": "Error", "message": "", "frames": []})
            if not failure["message"] and detail is not None:
                failure["message"] = cap(detail.get("message", ""), TEXT_CAP)
            failure["text"] = cap((detail.text or "") if detail is not None else "", TEXT_CAP)
            result["failure"] = failure
        if nodeid in seen:
            # a teardown error after a call: keep the first record, worst outcome
            prev = next(t for t in tests if t["id"] == nodeid)
            if prev["outcome"] == "passed":
                prev.update(result)
            continue
        seen.add(nodeid)
        tests.append(result)
    return tests


# ---- coverage ---------------------------------------------------------------


class CoveragePyContexts:
    """coverage.py with one dynamic context per test (switch_context at each test's start)."""

    def __init__(self):
        import coverage

        self.cov = coverage.Coverage(
            data_file=None, config_file=False, source=[hypofix_repo.ROOT], omit=[HELPERS + "/*"]
        )
        self.cov._warn_no_data = False

    def start(self):
        self.cov.start()

    def stop(self):
        self.cov.stop()

    def pytest_runtest_logstart(self, nodeid, location):
        self.cov.switch_context(nodeid)

    def pytest_runtest_logfinish(self, nodeid, location):
        self.cov.switch_context("")

    def per_test(self):
        data = self.cov.get_data()
        result = {}
        for path in data.measured_files():
            relpath = rel(path)
            if not is_repo_file(path) or is_test_file(relpath):
                continue
            for line, contexts in data.contexts_by_lineno(path).items():
                for ctx in contexts:
                    if ctx:
                        result.setdefault(ctx, {}).setdefault(relpath, set()).add(line)
        return result


class SettraceCollector:
    """A sys.settrace line collector that traces only repository source frames."""

    def __init__(self):
        self.current = None
        self.data = {}
        self.kinds = {}
        # lines that collecting a node (a test module's import: parametrize arguments, module-level
        # objects) ran in source functions; they count for every test under that node
        self.collected = {}
        self.collecting = False

    def _local(self, lines):
        def tracer(frame, event, arg):
            if event == "line":
                lines.add(frame.f_lineno)
            return tracer

        return tracer

    def _global(self, frame, event, arg):
        if self.current is None:
            return None
        filename = frame.f_code.co_filename
        relpath = self.kinds.get(filename)
        if relpath is None:
            relpath = rel(filename) if is_repo_file(filename) and not is_test_file(rel(filename)) else ""
            self.kinds[filename] = relpath
        if not relpath:
            return None
        # while collecting, only functions: a source module's own import runs for whichever test
        # module imports it first, which says nothing about that module's tests
        if self.collecting and not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
            return None
        # the call event sits on the `def` line, which ran at import: only line events count, as for coverage.py
        return self._local(self.current.setdefault(relpath, set()))

    def start(self):
        import threading

        threading.settrace(self._global)
        sys.settrace(self._global)

    def stop(self):
        import threading

        sys.settrace(None)
        threading.settrace(None)

    def pytest_runtest_logstart(self, nodeid, location):
        self.current = self.data.setdefault(nodeid, {})
        # A TestTimeout that lands inside the tracer turns tracing off (CPython drops a trace
        # function that raises): the tests after a hung one are traced again.
        sys.settrace(self._global)

    def pytest_runtest_logfinish(self, nodeid, location):
        self.current = None

    @hookimpl(hookwrapper=True)
    def pytest_make_collect_report(self, collector):
        if not collector.nodeid:
            yield
            return
        saved = (self.current, self.collecting)
        self.current = self.collected.setdefault(collector.nodeid, {})
        self.collecting = True
        try:
            yield
        finally:
            self.current, self.collecting = saved

    def per_test(self):
        out = {}
        for nodeid, files in self.data.items():
            merged = {f: set(lines) for f, lines in files.items()}
            for node, node_files in self.collected.items():
                if nodeid.startswith(node + "::"):
                    for f, lines in node_files.items():
                        merged.setdefault(f, set()).update(lines)
            # a test module is known as one only once pytest collected tests from it: files traced
            # while it was being collected are judged again here
            out[nodeid] = {f: lines for f, lines in merged.items() if not is_test_file(f)}
        return out


def mode_coverage(req):
    collector = CoveragePyContexts() if req.get("method") == "coverage" else SettraceCollector()
    collector.start()
    try:
        run = run_request(req, req.get("ids", []), [collector])
    finally:
        collector.stop()
    before = set(req.get("before") or []) - set(req.get("ids", []))
    per_test = {
        test: {f: sorted(lines) for f, lines in files.items()}
        for test, files in collector.per_test().items()
        if test not in before
    }
    files = sorted({f for files in per_test.values() for f in files})
    functions = [fn for f in files for fn in functions_in(f)]
    return {"run": run, "perTest": per_test, "functions": functions}


# ---- static functions ---------------------------------------------------------


def mode_functions(req):
    include_tests = bool(req.get("includeTests"))
    return {"functions": [fn for f in python_files(include_tests) for fn in functions_in(f)]}


# ---- debugger -----------------------------------------------------------------


def mode_debug(req):
    relpath, problem = resolve_file(req["file"])
    if problem:
        return {"problem": problem}
    line = req["line"]
    try:
        lines = executable_lines(relpath)
    except SyntaxError:
        lines = None  # the run reports the syntax error
    if lines is not None and line not in lines:
        count = len(read_source(os.path.join(hypofix_repo.ROOT, relpath)).splitlines())
        nearest = sorted(sorted(lines, key=lambda x: (abs(x - line), x))[:5])
        where = "beyond the end of" if line > count else "not an executable statement in"
        return {
            "problem": f"Line {line} is {where} {relpath} ({count} lines), so no breakpoint can be set there. "
            f"Nearest executable lines: {', '.join(map(str, nearest))}."
        }
    line, funcname = function_header(relpath, line)
    try:
        probe = Probe(
            os.path.join(hypofix_repo.ROOT, relpath), line, req["exprs"], req.get("limit", 100), funcname, safe_repr
        )
    except SyntaxError as e:
        return {"problem": f"SyntaxError: {e.msg} in expression {e.text!r}"}
    run = run_request(req, [req["test"]], [TraceWindow(probe, req.get("before") or ())])
    sys.settrace(None)
    return {
        "file": relpath,
        "run": run,
        "hits": probe.hits,
        "frames": probe.frames,
        "total": probe.total,
        "reached": sorted(probe.reached),
    }


# ---- edit and run ---------------------------------------------------------------


def mode_edit(req):
    relpath, problem = resolve_file(req["file"])
    if problem:
        return {"problem": problem}
    path = os.path.join(hypofix_repo.ROOT, relpath)
    st = os.stat(path)
    with open(path, "rb") as fh:
        original = fh.read()
    if req.get("originalSha256") not in (None, hashlib.sha256(original).hexdigest()):
        return {"stale": True}  # the caller's copy of the file is out of date: it reads it again
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(req["content"])
        # a different mtime (and size check) so a cached .pyc of the original is never taken for the edit
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
        run = run_request(req, [req["test"]], [])
    finally:
        with open(path, "wb") as fh:
            fh.write(original)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return {"file": relpath, "run": run}


# ---- LDB block trace -------------------------------------------------------------


def mode_trace(req):
    relpath, problem = resolve_file(req["file"])
    if problem:
        return {"problem": problem}
    path = os.path.join(hypofix_repo.ROOT, relpath)
    source = read_source(path)
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return {"problem": f"SyntaxError: {e.msg} ({relpath}, line {e.lineno})"}
    node = find_function(tree, req["qualname"])
    if node is None:
        names = [f["qualname"] for f in functions_in(relpath)]
        return {
            "problem": f"No function {req['qualname']} in {relpath}. Functions there: {', '.join(names) or 'none'}."
        }
    tracer = BlockTracer(path, req["qualname"], node, source.splitlines(), safe_repr, cap)
    run = run_request(req, [req["test"]], [TraceWindow(tracer, req.get("before") or ())])
    sys.settrace(None)
    return {"file": relpath, "run": run, "total": tracer.total, "blocks": tracer.head + tracer.tail}


# ---- evidence ---------------------------------------------------------------------


def mode_evidence(req):
    collector = hypofix_evidence.Collector(
        hypofix_repo.ROOT, is_repo_file, is_test_file, rel, safe_repr, req.get("lines", [])
    )
    run = run_request(req, [req["test"]], [collector, TraceWindow(collector, req.get("before") or ())])
    sys.settrace(None)
    return {"run": run, "evidence": collector.result()}


def mode_run(req):
    return {"run": run_request(req, req.get("ids", []), [])}


MODES = {
    "run": mode_run,
    "coverage": mode_coverage,
    "debug": mode_debug,
    "edit": mode_edit,
    "trace": mode_trace,
    "functions": mode_functions,
    "evidence": mode_evidence,
}


def main():
    req = json.loads(sys.stdin.read())
    hypofix_repo.ROOT = os.path.abspath(req.get("root") or os.getcwd())
    # Like `python -m pytest`: the working directory is importable; our own folder is not.
    sys.path[0] = os.getcwd()
    # Never write bytecode: a .pyc of an edited file could outlive the edit. (A
    # pycache_prefix would also avoid reading stale ones, but recompiles the
    # standard library and pytest on every run: twice the cost.)
    sys.dont_write_bytecode = True
    result = MODES[req["mode"]](req)
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
