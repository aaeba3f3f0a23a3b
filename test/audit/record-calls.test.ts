import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The call recorder/replayer helper against real pytest on the host's python (HYPOFIX_PYTHON).
const PYTHON = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";
const HELPERS = fileURLToPath(new URL("../../src/lang/python/helpers/", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "hypofix-record-"));

const MODULE = `
def mutate(xs):
    xs.append(1)
    return len(xs)

def takes(obj):
    return 1

def boom(x):
    raise ValueError(f"bad {x}")

def big(data):
    return len(data)

class K:
    @classmethod
    def make(cls, v):
        return v * 2

    @staticmethod
    def twice(v):
        return v * 2

def outer():
    def inner(v):
        return v + 1
    return inner(1)

def gen(n):
    yield from range(n)
`;
const TESTS = `
import socket
import pytest
from m import K, big, boom, gen, mutate, outer, takes

def test_all():
    assert mutate([0]) == 2
    with socket.socket() as s:
        takes(s)
    with open(__file__) as f:
        takes(f)
    with pytest.raises(ValueError):
        boom(3)
    assert big("x" * 5000) == 5000
    assert K.make(2) == 4 and K.twice(3) == 6
    assert outer() == 2
    assert list(gen(2)) == [0, 1]
`;
const TARGETS = ["mutate", "takes", "boom", "big", "K.make", "K.twice", "outer.inner", "gen"];

type Line = Record<string, unknown>;
const jsonl = (file: string): Line[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
let records: Line[];
let replayed: Line[];

beforeAll(() => {
  mkdirSync(path.join(dir, "tests"));
  writeFileSync(path.join(dir, "m.py"), MODULE);
  writeFileSync(path.join(dir, "tests", "test_m.py"), TESTS);
  const config = {
    root: dir,
    targets: TARGETS.map((qualname) => ({ file: "m.py", qualname })),
    out: path.join(dir, "calls.jsonl"),
    maxArgBytes: 1000,
  };
  writeFileSync(path.join(dir, "config.json"), JSON.stringify(config));
  const env = {
    ...process.env,
    PYTHONPATH: HELPERS,
    PYTHONDONTWRITEBYTECODE: "1",
    HYPOFIX_RECORD_CONFIG: path.join(dir, "config.json"),
  };
  execFileSync(PYTHON, ["-m", "pytest", "-q", "-p", "record_calls", "-p", "no:cacheprovider"], {
    cwd: dir,
    env,
  });
  records = jsonl(config.out);
  execFileSync(PYTHON, [path.join(HELPERS, "record_calls.py"), "replay", config.out, "replay.jsonl", "2"], {
    cwd: dir,
    env,
  });
  replayed = jsonl(path.join(dir, "replay.jsonl"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const byCall = (call: string) => records.find((r) => r.call === call);
const replayOf = (call: string) => {
  const index = records.filter((r) => r.kind === "call").findIndex((r) => r.call === call);
  return replayed.find((r) => r.index === index);
};

describe("record_calls.py", () => {
  it("records each test's outcome and the calls with their results, arguments captured before the call", () => {
    expect(records).toContainEqual(
      expect.objectContaining({ kind: "test", id: "tests/test_m.py::test_all", outcome: "passed" }),
    );
    expect(byCall("mutate([0])")).toMatchObject({ kind: "call", recorded: { kind: "return", value: "2" } });
    expect(byCall("boom(3)")).toMatchObject({
      recorded: { kind: "raise", type: "ValueError", message: "bad 3" },
    });
  });

  it("reports arguments it cannot capture instead of failing: sockets, open files, oversized, generators", () => {
    const reasons = records
      .filter((r) => r.kind === "uncapturable")
      .map((r) => `${String(r.target)}: ${String(r.reason)}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^m.py::takes: TypeError: cannot pickle 'socket' object/),
        expect.stringMatching(/^m.py::takes: TypeError: cannot pickle '_io.TextIOWrapper' object/),
        expect.stringMatching(/^m.py::big: arguments pickle to \d+ bytes, over the 1000-byte cap/),
        "m.py::gen: generator or coroutine function: calls are not replayed",
      ]),
    );
  });

  it("replays calls in a fresh process: same results, in-place mutation visible, methods resolved, nested functions named", () => {
    expect(replayOf("mutate([0])")).toMatchObject({
      kind: "return",
      value: "2",
      argsAfter: "mutate([0, 1])",
    });
    expect(replayOf("boom(3)")).toMatchObject({ kind: "raise", type: "ValueError", message: "bad 3" });
    expect(replayOf("K.make(<class 'm.K'>, 2)")).toMatchObject({ kind: "return", value: "4" });
    expect(replayOf("K.twice(3)")).toMatchObject({ kind: "return", value: "6" });
    expect(replayOf("outer.inner(1)")).toMatchObject({ kind: "unresolved", type: "LookupError" });
  });
});

describe("record_calls.py's cap on calls per function", () => {
  const capDir = mkdtempSync(path.join(tmpdir(), "hypofix-record-cap-"));
  afterAll(() => rmSync(capDir, { recursive: true, force: true }));

  /** The calls recorded with one call per function allowed, `priority` tests exempt up to one more. */
  function recordedWith(priority: string[]): string[] {
    mkdirSync(path.join(capDir, "tests"), { recursive: true });
    writeFileSync(path.join(capDir, "inc.py"), "def inc(v):\n    return v + 1\n");
    writeFileSync(
      path.join(capDir, "tests", "test_inc.py"),
      "from inc import inc\n\ndef test_a():\n    assert inc(1) + inc(2) == 5\n\ndef test_b():\n    assert inc(3) == 4\n",
    );
    const config = {
      root: capDir,
      targets: [{ file: "inc.py", qualname: "inc" }],
      out: path.join(capDir, "calls.jsonl"),
      maxCalls: 1,
      priorityTests: priority,
    };
    writeFileSync(path.join(capDir, "config.json"), JSON.stringify(config));
    execFileSync(PYTHON, ["-m", "pytest", "-q", "-p", "record_calls", "-p", "no:cacheprovider"], {
      cwd: capDir,
      env: {
        ...process.env,
        PYTHONPATH: HELPERS,
        PYTHONDONTWRITEBYTECODE: "1",
        HYPOFIX_RECORD_CONFIG: path.join(capDir, "config.json"),
      },
    });
    return jsonl(config.out)
      .filter((r) => r.kind === "call")
      .map((r) => `${String(r.test)} ${String(r.call)}`);
  }

  it("stops at the cap, so a later test's calls are lost", () => {
    expect(recordedWith([])).toEqual(["tests/test_inc.py::test_a inc(1)"]);
  });

  it("records a priority test's calls past it (the failing test's own call, which a claim names)", () => {
    expect(recordedWith(["tests/test_inc.py::test_b"])).toEqual([
      "tests/test_inc.py::test_a inc(1)",
      "tests/test_inc.py::test_b inc(3)",
    ]);
  });
});
