import { describe, expect, it } from "vitest";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { confidenceFlags } from "../helpers/markdown.js";
import { fixLocally, fixture, scriptedEngine, pytestProjects } from "./helpers.js";

/*
 * The decisive observation on real runs (local sandbox, real pytest, the evidence helper):
 * what the fixed line computes in the failing test and in its passing instances, before and
 * with the patch. A right fix changes it in the failing instance only; a wrong one that swaps a
 * fast path off for every input changes it for the passing instances too, trips the signal, and loses the ranking to the right one.
 */
const LOOKUP = [
  "def first_index(items, target, default=-1):",
  "    short = len(items) < 4",
  "    if short:",
  "        found = [i for i, x in enumerate(items) if x == target]",
  "        return found[0] if found else -1",
  "    for i, x in enumerate(items):",
  "        if x == target:",
  "            return i",
  "    return default",
  "",
].join("\n");
const TESTS = [
  "import pytest",
  "from lookup import first_index",
  "",
  "@pytest.mark.parametrize('items,target,default,expected', [",
  "    ([1, 2], 2, 7, 1),",
  "    ([1, 2], 9, -1, -1),",
  "    ([1, 2], 9, 7, 7),",
  "    ([1, 2, 3, 4, 5], 5, 7, 4),",
  "])",
  "def test_first_index(items, target, default, expected):",
  "    assert first_index(items, target, default) == expected",
  "",
].join("\n");
// Wrong: the fast path for short lists is switched off for every input (its bound made unreachable).
const WRONG = LOOKUP.replace("    short = len(items) < 4", "    short = len(items) < 0");
const RIGHT = LOOKUP.replace("found[0] if found else -1", "found[0] if found else default");
const scripted = (afters: string[]) =>
  scriptedEngine("lookup.py", LOOKUP, afters, { line: 2, function: "first_index" });

const projects = pytestProjects("hypofix-decisive-");
const repo = () =>
  projects({
    "lookup.py": LOOKUP,
    "tests/test_lookup.py": TESTS,
  });
const FLAG = "the fixed line decides the failing test";

describe("the decisive observation at the fixed line", () => {
  it("a right one-token fix of a condition: the failing instance's value changes, the passing ones' do not (✅)", async () => {
    const { result, report } = await fixLocally(fixture("fix-grade"), createOfflineEngine()).outcome;
    expect(result.status).toBe("fixed");
    expect(result.signals?.find((s) => s.id === "decisive-observation")).toMatchObject({
      measured: true,
      tripped: false,
      value: "changes at the fixed line",
    });
    const flag = confidenceFlags(report)[FLAG];
    expect(flag?.icon).toBe("✅");
    expect(flag?.evidence).toContain("`grades.py:5` computes `True` where it computed `False`");
  }, 180_000);

  it("a wrong fix that switches the fast path off for every input: the passing instances' value changes too (⚠️, named)", async () => {
    const { result, report } = await fixLocally(await repo(), scripted([WRONG])).outcome;
    expect(result.status).toBe("fixed");
    const flag = confidenceFlags(report)[FLAG];
    expect(flag?.icon).toBe("⚠️");
    expect(flag?.evidence).toContain(
      "in `tests/test_lookup.py::test_first_index[items0-2-7-1]`, which passed before, `lookup.py:2` computes `False` (`len(items) < 0`) where it computed `True`",
    );
  }, 180_000);

  it("ranked: the right fix found second is proposed over the wrong one found first", async () => {
    const { result, patch } = await fixLocally(await repo(), scripted([WRONG, RIGHT])).outcome;
    expect(result.status).toBe("fixed");
    expect(patch).toContain("else default");
    expect(result.signals?.find((s) => s.id === "decisive-observation")?.tripped).toBe(false);
  }, 180_000);
});
