"""Records calls to chosen functions while a test suite runs, and replays them.

Record (as a pytest plugin):
    HYPOFIX_RECORD_CONFIG=<config.json> python -m pytest -p record_calls ...
  config: {"root": abs repo dir, "targets": [{"file": rel path, "qualname": "A.f"}],
           "out": abs path of the JSONL written, "maxCalls": per target, "maxArgBytes": int,
           "testTimeout": seconds one test may run before it is failed as hung,
           "priorityTests": node ids whose calls may take maxCalls more per target}
  The same JSONL carries each test's outcome, so one run gives both the suite's
  results and the calls (a hung test is failed at its timeout and the run goes on).
  Each captured call's arguments are pickled at entry (before the function can
  mutate them); arguments that cannot be pickled (generators, sockets, open
  files, lambdas) or are over the size cap are written as "uncapturable" lines.

Replay (a separate process, cwd = the repository):
    python record_calls.py replay <records.jsonl> <out.jsonl> [per-call timeout s]
  Imports each recorded function fresh and calls it with the unpickled
  arguments; writes one JSON line per call (index, outcome, value or exception,
  arguments after the call, stdout), flushed as it goes so a killed run keeps
  what it did.
"""

import base64
import contextlib
import hashlib
import importlib
import inspect
import io
import json
import os
import pickle
import re
import sys
import threading

import pytest

from hypofix_compat import Alarm, qualname_of

# The repository's pytest options, minus those that break recording (xdist, coverage, timeouts).
pytest_plugins = ["hypofix_pytest_options"]

REPR_CAP = 2000
STDOUT_CAP = 2000
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_GENERATOR_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def describe(value, depth=0):
    """A stable, capped text for a value: repr, or the attributes of an object
    whose repr is the default one (which only shows an address)."""
    try:
        if type(value).__repr__ is object.__repr__ and hasattr(value, "__dict__") and depth < 3:
            attrs = ", ".join(f"{k}={describe(v, depth + 1)}" for k, v in sorted(vars(value).items()))
            text = f"{type(value).__qualname__}({attrs})"
        else:
            text = repr(value)
    except Exception as exc:  # a broken __repr__ is the value's problem, not ours
        text = f"<unrepresentable {type(value).__name__}: {exc}>"
    text = _ADDRESS.sub(" at 0x…", text)
    return text if len(text) <= REPR_CAP else text[:REPR_CAP] + "…"


def plain_qualname(qualname):
    return qualname.replace("<locals>.", "")


def call_text(qualname, args, kwargs):
    parts = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
    text = f"{qualname}({', '.join(parts)})"
    return text if len(text) <= REPR_CAP else text[:REPR_CAP] + "…"


def frame_arguments(frame):
    code = frame.f_code
    local = frame.f_locals
    names = code.co_varnames
    npos = code.co_argcount
    nkw = code.co_kwonlyargcount
    args = [local[n] for n in names[:npos] if n in local]
    kwargs = {n: local[n] for n in names[npos : npos + nkw] if n in local}
    index = npos + nkw
    if code.co_flags & inspect.CO_VARARGS:
        args.extend(local.get(names[index], ()))
        index += 1
    if code.co_flags & inspect.CO_VARKEYWORDS:
        kwargs.update(local.get(names[index], {}))
    return args, kwargs


class Recorder:
    def __init__(self, config):
        self.root = os.path.realpath(config["root"])
        self.targets = {(t["file"], t["qualname"]) for t in config["targets"]}
        self.max_calls = int(config.get("maxCalls", 25))
        self.max_bytes = int(config.get("maxArgBytes", 65536))
        self.out = open(config["out"], "w", encoding="utf-8")
        self.lock = threading.Lock()
        self.codes = {}
        self.seen = {}
        self.digests = set()
        self.reached = {}
        self.test = "<collection>"
        self.test_timeout = float(config.get("testTimeout", 0))
        # The failing tests' own calls are what a claim about the fix names: never crowded out by the cap.
        self.priority = set(config.get("priorityTests", ()))

    def write(self, record):
        with self.lock:
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()

    def target_of(self, code):
        key = self.codes.get(code, False)
        if key is False:
            key = None
            path = os.path.realpath(code.co_filename)
            if path.startswith(self.root + os.sep):
                rel = os.path.relpath(path, self.root).replace(os.sep, "/")
                name = plain_qualname(qualname_of(code))
                if (rel, name) in self.targets:
                    key = f"{rel}::{name}"
            self.codes[code] = key
        return key

    def trace(self, frame, event, _arg):
        if event != "call":
            return None
        key = self.target_of(frame.f_code)
        if key is None:
            return None
        self.reached[key] = self.reached.get(key, 0) + 1
        return self.capture(frame, key)

    def capture(self, frame, key):
        code = frame.f_code
        qualname = qualname_of(code)
        base = {
            "target": key,
            "module": frame.f_globals.get("__name__", ""),
            "qualname": qualname,
            "test": self.test,
        }
        try:
            args, kwargs = frame_arguments(frame)
        except Exception as exc:
            self.write({**base, "kind": "uncapturable", "call": qualname, "reason": f"arguments unreadable: {exc}"})
            return None
        call = call_text(plain_qualname(qualname), args, kwargs)
        if code.co_flags & _GENERATOR_FLAGS:
            if self.reached[key] == 1:
                self.write({**base, "kind": "uncapturable", "call": call, "reason": "generator or coroutine function: calls are not replayed"})
            return None
        limit = self.max_calls * (2 if self.test in self.priority else 1)
        if self.seen.get(key, 0) >= limit:
            return None
        try:
            data = pickle.dumps((args, kwargs), protocol=4)
        except Exception as exc:
            self.write({**base, "kind": "uncapturable", "call": call, "reason": f"{type(exc).__name__}: {exc}"})
            return None
        if len(data) > self.max_bytes:
            self.write({**base, "kind": "uncapturable", "call": call, "reason": f"arguments pickle to {len(data)} bytes, over the {self.max_bytes}-byte cap"})
            return None
        digest = hashlib.sha1(key.encode() + data).hexdigest()
        if digest in self.digests:
            return None
        self.digests.add(digest)
        self.seen[key] = self.seen.get(key, 0) + 1
        record = {**base, "kind": "call", "call": call, "args": base64.b64encode(data).decode("ascii")}
        state = {"exception": None}
        frame.f_trace_lines = False

        def local(frame, event, arg):
            if event == "exception":
                state["exception"] = arg
            elif event == "return":
                record["recorded"] = returned(frame, arg, state["exception"])
                self.write(record)
            return local

        return local

    def close(self):
        self.write({"kind": "reached", "reached": self.reached})
        self.out.close()


def returned(frame, value, exception):
    """Tells a normal return from an exception leaving the frame (both report
    `return`; only the latter stops on an instruction that is not RETURN_VALUE)."""
    code = frame.f_code.co_code
    lasti = frame.f_lasti
    normal = 0 <= lasti < len(code) and code[lasti] in _RETURNS
    if normal or exception is None:
        return {"kind": "return", "value": describe(value)}
    exc_type, exc_value = exception[0], exception[1]
    return {"kind": "raise", "type": exc_type.__name__, "message": describe_message(exc_value)}


def describe_message(exc):
    text = _ADDRESS.sub(" at 0x…", str(exc))
    return text if len(text) <= REPR_CAP else text[:REPR_CAP] + "…"


# RETURN_CONST (3.12+) returns a constant without loading it first.
_RETURNS = {op for name, op in __import__("dis").opmap.items() if name in ("RETURN_VALUE", "RETURN_CONST")}
_recorder = None


def pytest_configure(config):
    global _recorder
    path = os.environ.get("HYPOFIX_RECORD_CONFIG")
    if not path or _recorder is not None:
        return
    with open(path, encoding="utf-8") as f:
        _recorder = Recorder(json.load(f))
    sys.settrace(_recorder.trace)
    threading.settrace(_recorder.trace)


def pytest_collection_finish(session):
    if _recorder is not None:
        _recorder.write({"kind": "env", "sysPath": list(sys.path)})


def pytest_runtest_logstart(nodeid, location):
    if _recorder is not None:
        _recorder.test = nodeid
        _recorder.write({"kind": "start", "id": nodeid})
        # A timeout raised inside the tracer turns tracing off: the next test is recorded again.
        sys.settrace(_recorder.trace)


class TestTimeout(BaseException):
    """Raised in a test that runs past its timeout (BaseException: the test cannot catch it by accident)."""


def _on_test_alarm(_signum, _frame):
    raise TestTimeout(f"test timed out after {_recorder.test_timeout:g}s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    timeout = _recorder.test_timeout if _recorder is not None else 0
    alarm = None
    if timeout > 0 and threading.current_thread() is threading.main_thread():
        alarm = Alarm(_on_test_alarm)
        alarm.set(timeout)
    try:
        yield
    finally:
        if alarm is not None:
            alarm.close()


def pytest_runtest_logreport(report):
    if _recorder is None:
        return
    if report.when == "call" or (report.when != "call" and not report.passed):
        outcome = report.outcome if report.when == "call" else ("skipped" if report.skipped else "error")
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else (str(report.longrepr) if report.longrepr else "")
        if "TestTimeout" in message:
            outcome = "timeout"
        _recorder.write({"kind": "test", "id": report.nodeid, "outcome": outcome, "message": message[:REPR_CAP]})


def pytest_collectreport(report):
    if _recorder is not None and report.failed:
        _recorder.write({"kind": "collect-error", "id": report.nodeid, "message": str(report.longrepr)[:REPR_CAP]})


def pytest_unconfigure(config):
    global _recorder
    if _recorder is not None:
        sys.settrace(None)
        threading.settrace(None)
        _recorder.close()
        _recorder = None


class _CallTimeout(BaseException):
    pass


def _on_alarm(_signum, _frame):
    raise _CallTimeout()


_call_alarm = None


def resolve(module_name, qualname):
    if "<locals>" in qualname:
        raise LookupError(f"{plain_qualname(qualname)} is a nested function: it cannot be called on its own")
    target = importlib.import_module(module_name)
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        owner = target
        target = inspect.getattr_static(owner, part) if inspect.isclass(owner) else getattr(owner, part)
        if isinstance(target, (staticmethod, classmethod)):
            target = target.__func__
        elif isinstance(target, property):
            target = target.fget
    return inspect.unwrap(target) if callable(target) else target


def replay_one(record, timeout):
    try:
        fn = resolve(record["module"], record["qualname"])
    except BaseException as exc:
        return {"kind": "unresolved", "type": type(exc).__name__, "message": describe_message(exc)}
    try:
        args, kwargs = pickle.loads(base64.b64decode(record["args"]))
    except BaseException as exc:
        return {"kind": "unresolved", "type": type(exc).__name__, "message": f"arguments do not unpickle: {describe_message(exc)}"}
    out = io.StringIO()
    _call_alarm.set(timeout)
    try:
        with contextlib.redirect_stdout(out):
            value = fn(*args, **kwargs)
        result = {"kind": "return", "value": describe(value)}
    except _CallTimeout:
        result = {"kind": "timeout", "message": f"no result within {timeout:g}s"}
    except BaseException as exc:  # SystemExit and friends are the function's behaviour too
        result = {"kind": "raise", "type": type(exc).__name__, "message": describe_message(exc)}
    finally:
        _call_alarm.cancel()
    result["argsAfter"] = call_text(plain_qualname(record["qualname"]), args, kwargs)
    printed = out.getvalue()
    if printed:
        result["stdout"] = printed[:STDOUT_CAP]
    return result


def replay(records_path, out_path, timeout):
    records = []
    sys_path = []
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            record = json.loads(line)
            if record["kind"] == "env":
                sys_path = record["sysPath"]
            elif record["kind"] == "call" and "args" in record:
                records.append(record)
    for entry in reversed(sys_path):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    sys.path.insert(0, os.getcwd())
    global _call_alarm
    _call_alarm = Alarm(_on_alarm)
    with open(out_path, "w", encoding="utf-8") as out:
        for index, record in enumerate(records):
            result = replay_one(record, timeout)
            out.write(json.dumps({"index": index, "target": record["target"], **result}) + "\n")
            out.flush()


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "replay":
        replay(sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 5.0)
    else:
        sys.stderr.write("usage: record_calls.py replay <records.jsonl> <out.jsonl> [timeout-seconds]\n")
        sys.exit(2)
