import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { auditPatch } from "../../src/audit/index.js";
import { beyondFailingTests, codeSilenced } from "../../src/audit/signals/index.js";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { localTree } from "../helpers/tree.js";

/*
 * The execution signals on small programs of their own (local sandbox, real pytest): a right
 * fix leaves each clear, a wrong but plausible one (every visible test passes) trips it.
 */
const made: { repo: string; sandbox: Sandbox }[] = [];
afterAll(async () => {
  for (const m of made) {
    await m.sandbox.dispose();
    await rm(m.repo, { recursive: true, force: true });
  }
});

async function program(files: Record<string, string>) {
  const tree = await localTree("hypofix-signals-", {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    ...files,
  });
  made.push(tree);
  return { ...tree, runtime: createPythonRuntime(tree.sandbox, { timeoutMs: 60_000 }) };
}

/** The suite's coverage with `after` in place of `file`, the tree restored. */
async function coverageWith(p: Awaited<ReturnType<typeof program>>, file: string, after: string) {
  const before = await p.sandbox.readFile(file);
  await p.sandbox.writeFile(file, after);
  try {
    return await p.runtime.coverage();
  } finally {
    await p.sandbox.writeFile(file, before);
  }
}

// A fast path for an empty list, and a bug: a miss returns -1 instead of `default`.
const LOOKUP = [
  "def first_index(items, target, default=-1):",
  "    if not items:",
  "        return default",
  "    for i, x in enumerate(items):",
  "        if x == target:",
  "            return i",
  "    return -1",
  "",
].join("\n");
const LOOKUP_TESTS = [
  "from lookup import first_index",
  "",
  "def test_empty_gives_default():",
  "    assert first_index([], 3) == -1",
  "",
  "def test_found():",
  "    assert first_index([4, 5, 6], 5) == 1",
  "",
  "def test_miss_gives_default():",
  "    assert first_index([1, 2], 9, default=None) is None",
  "",
].join("\n");
const FAILING = ["tests/test_lookup.py::test_miss_gives_default"];

describe("code silenced (coverage of the passing tests before and with the patch)", () => {
  it("stays clear for the right fix and names the fast path a swapped condition switches off", async () => {
    const p = await program({ "lookup.py": LOOKUP, "tests/test_lookup.py": LOOKUP_TESTS });
    const before = await p.runtime.coverage();
    expect(before.outcomes[FAILING[0]!]).toBe("failed");
    const right = LOOKUP.replace("    return -1\n", "    return default\n");
    // Plausible and wrong: `not default` is true for None only, so the empty-list fast path never runs again.
    const wrong = LOOKUP.replace("    if not items:", "    if not default:");
    const rightAfter = await coverageWith(p, "lookup.py", right);
    const wrongAfter = await coverageWith(p, "lookup.py", wrong);
    // Both are plausible: every test passes with each.
    expect(Object.values(rightAfter.outcomes).every((o) => o === "passed")).toBe(true);
    expect(Object.values(wrongAfter.outcomes).every((o) => o === "passed")).toBe(true);
    const change = (after: string) => [{ path: "lookup.py", before: LOOKUP, after }];
    const clear = codeSilenced({ before, after: rightAfter, failingTests: FAILING, changes: change(right) });
    expect(clear).toMatchObject({ measured: true, tripped: false, value: "none" });
    const tripped = codeSilenced({
      before,
      after: wrongAfter,
      failingTests: FAILING,
      changes: change(wrong),
    });
    expect(tripped).toMatchObject({ measured: true, tripped: true, value: "1 line no longer run" });
    expect(tripped.evidence).toContain("`lookup.py::first_index` line 3");
  }, 120_000);
});

// A leap-year rule missing its 400 clause; one passing test calls it on 1900 without checking the value.
const LEAP = "def is_leap(year):\n    return year % 4 == 0 and year % 100 != 0\n";
const LEAP_TESTS = [
  "from calendar_rules import is_leap",
  "",
  "def test_common_leap_year():",
  "    assert is_leap(2024)",
  "",
  "def test_common_year():",
  "    assert not is_leap(2023)",
  "",
  "def test_gives_a_bool():",
  "    assert isinstance(is_leap(1900), bool)",
  "",
  "def test_millennium():",
  "    assert is_leap(2000)",
  "",
].join("\n");

describe("behaviour beyond the failing tests (recorded calls replayed before and with the patch)", () => {
  const failing = ["tests/test_leap.py::test_millennium"];
  const signalFor = async (after: string) => {
    const p = await program({ "calendar_rules.py": LEAP, "tests/test_leap.py": LEAP_TESTS });
    const { audit } = await auditPatch({
      sandbox: p.sandbox,
      runtime: p.runtime,
      patch: [{ path: "calendar_rules.py", before: LEAP, after }],
      claims: [],
      engine: "offline",
      options: { testTimeoutMs: 20_000 },
    });
    expect(audit.behaviourChanges).toContainEqual(
      expect.objectContaining({ kind: "test", subject: failing[0], after: "passed" }),
    );
    return beyondFailingTests({
      changes: audit.behaviourChanges,
      failingTests: failing,
      callsRecorded: (audit.recordedCalls ?? 0) > 0,
    });
  };

  it("stays clear when only the failing test's call changes", async () => {
    const right = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n";
    expect(await signalFor(right)).toMatchObject({ measured: true, tripped: false, value: "none" });
  }, 120_000);

  it("names a call on another input whose result the patch changes, with the values", async () => {
    // Plausible and wrong: every visible test passes, and 1900 becomes a leap year.
    const wrong = "def is_leap(year):\n    return year % 4 == 0\n";
    const signal = await signalFor(wrong);
    expect(signal).toMatchObject({ measured: true, tripped: true, value: "1 call changed on other inputs" });
    expect(signal.evidence).toContain("`is_leap(1900)` gave `False` before and `True` with the patch");
    expect(signal.evidence).toContain("tests/test_leap.py::test_gives_a_bool");
  }, 120_000);
});
