import { describe, expect, it } from "vitest";
import { confidenceFlags } from "../helpers/markdown.js";
import { fixLocally, scriptedEngine, pytestProjects } from "./helpers.js";

const scripted = (afters: string[]) =>
  scriptedEngine("lookup.py", LOOKUP, afters, { line: 2, function: "first_index" });

/*
 * The ranking where candidates are chosen, on a real run (local sandbox, real pytest): an
 * engine that finds a wrong but plausible patch first and the right one second gets the right
 * one proposed, with every signal clear; alone, the wrong one is proposed with its signal ⚠️.
 */
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
const TESTS = [
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
const WRONG = LOOKUP.replace("    if not items:", "    if not default:");
const RIGHT = LOOKUP.replace("    return -1\n", "    return default\n");

const projects = pytestProjects("hypofix-rank-");
const repo = () =>
  projects({
    "lookup.py": LOOKUP,
    "tests/test_lookup.py": TESTS,
  });

describe("validated candidates ranked by their signals", () => {
  it("proposes the right patch found second over the wrong one found first; its signals are clear", async () => {
    const { result, report, patch } = await fixLocally(await repo(), scripted([WRONG, RIGHT])).outcome;
    expect(result.status).toBe("fixed");
    expect(result.patches.filter((p) => p.plausible)).toHaveLength(2);
    expect(patch).toContain("+    return default");
    expect(result.patches[0]?.fromStep).toBe(1);
    expect(result.signals?.find((s) => s.id === "code-silenced")).toMatchObject({ tripped: false });
    expect(result.signals?.some((s) => s.tripped)).toBe(false);
    expect(confidenceFlags(report)["no code silenced"]?.icon).toBe("✅");
  }, 120_000);

  it("alone, the wrong patch is proposed with ⚠️ naming the fast path it switches off", async () => {
    const { result, report } = await fixLocally(await repo(), scripted([WRONG])).outcome;
    expect(result.status).toBe("fixed");
    const flag = confidenceFlags(report)["no code silenced"];
    expect(flag).toMatchObject({ icon: "⚠️", value: "1 line no longer run" });
    expect(flag?.evidence).toContain("`lookup.py::first_index` line 3");
  }, 120_000);
});
