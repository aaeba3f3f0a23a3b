import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { Candidate, DebugEngine } from "../../src/debug/types.js";
import { confidenceFlags } from "../helpers/markdown.js";
import { writeTree } from "../helpers/tree.js";
import { fixLocally } from "./helpers.js";

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

/** An engine that proposes the given files as candidates, in order, each from a step of its own. */
function scripted(afters: string[]): DebugEngine {
  return {
    name: "offline",
    async run(_bug, _runtime, _budget, validate) {
      const candidates = [];
      const steps = afters.map((_, i) => ({
        hypothesis: `Candidate ${i + 1}.`,
        prediction: "The failing test passes.",
        experiment: `edit ${i + 1}`,
        observation: "[No exception triggered]",
        conclusion: "supported" as const,
        done: true,
        note: "",
        kind: "edit" as const,
        durationMs: 0,
      }));
      for (const [i, after] of afters.entries()) {
        const candidate: Candidate = {
          edits: [{ file: "lookup.py", before: LOOKUP, after }],
          fromStep: i,
          at: { file: "lookup.py", line: 2, function: "first_index" },
        };
        candidates.push({ candidate, validation: await validate(candidate) });
      }
      return { steps, candidates, done: true, stop: "done" };
    },
  };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function repo(): Promise<string> {
  const dir = await writeTree("hypofix-rank-", {
    "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    "lookup.py": LOOKUP,
    "tests/test_lookup.py": TESTS,
  });
  dirs.push(dir);
  return dir;
}

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
