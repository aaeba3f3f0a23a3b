import { describe, expect, it } from "vitest";
import { pipelineAudit } from "../../src/audit/index.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { confidenceFlags } from "../helpers/markdown.js";
import { fixLocally, fixture, watched, type Seen } from "./helpers.js";

/*
 * Order-dependent failures on real runs: the Docker sandbox, real pytest, the offline engine.
 * A failure that repeats after the tests before it is a bug to repair, reproduced with those
 * tests in every later run; one that changes between identical runs stays flaky.
 */

const FAST = { testTimeoutMs: 5_000, callTimeoutMs: 3_000 };
const POLLUTER = "tests/test_a_tags.py::test_first_note_gets_its_tag";
const VICTIM = "tests/test_c_notes.py::test_second_note_gets_only_its_tag";

function fix(dir: string, seen: Seen[] = []) {
  return fixLocally(dir, createOfflineEngine(), {
    backend: "docker",
    audit: pipelineAudit({ engine: "offline", options: FAST }),
    makeRuntime: watched(seen),
  }).outcome;
}

describe("order-dependent failures (docker)", () => {
  it("a mutable default leaking between tests: reproduced after the one test it needs, and repaired", async () => {
    const seen: Seen[] = [];
    const { result, report, patch } = await fix(fixture("order-mutable-default"), seen);
    expect(result.status).toBe("fixed");
    expect(result.failingTests).toEqual([VICTIM]);
    // Seven tests ran before it; delta debugging kept the one that leaves its tag behind.
    expect(result.orderDependent).toEqual([{ test: VICTIM, precededBy: [POLLUTER] }]);
    expect(result.flaky).toBeUndefined();
    expect(patch).toContain("+def tagged(tag, tags=None):");
    expect(patch).toContain("+    if tags is None:");
    expect(result.confidence).toMatchObject({ reproduced: true, done: true, suitePasses: true });
    const flags = confidenceFlags(report);
    expect(flags["failure reproduced"]?.icon).toBe("✅");
    expect(flags["failure reproduced"]?.evidence).toContain(
      "`test_second_note_gets_only_its_tag` passes alone and failed on every rerun after `test_first_note_gets_its_tag`",
    );
    // Every experiment and evidence run on the failing test ran the polluter first.
    const onVictim = seen.filter(
      (s) => ["observe", "trace", "evidence"].includes(s.call) && s.tests?.includes(VICTIM),
    );
    expect(onVictim.length).toBeGreaterThan(0);
    for (const s of onVictim) expect(s.before).toEqual([POLLUTER]);
    // Validation also ran it alone (it passed alone before, so it must with the patch): twice, warm and fresh.
    const alone = seen.filter((s) => s.call === "runTests" && s.before?.length === 0);
    expect(alone.map((s) => s.tests)).toEqual([[VICTIM], [VICTIM]]);
  }, 300_000);

  it("a patch that passes only after the polluter is refused: the test must still pass alone", async () => {
    // count() returning len - 1 passes after the test that registers one item, and fails alone.
    const { result } = await fix(fixture("order-dependent"));
    expect(result.orderDependent).toEqual([
      {
        test: "tests/test_registry.py::test_count_starts_empty",
        precededBy: ["tests/test_registry.py::test_register_returns_the_new_size"],
      },
    ]);
    expect(result.status).toBe("no-fix");
    const overfit = result.patches.find((p) => p.diff.includes("return len(_items) - 1"));
    expect(overfit).toMatchObject({ plausible: false });
    expect(overfit?.rejectedBecause).toBe(
      "tests/test_registry.py::test_count_starts_empty passed alone before and fails alone with the patch",
    );
  }, 300_000);

  it("a failure that shows after another test only on some runs in that order stays flaky", async () => {
    const { result, report } = await fix(fixture("order-flaky"));
    expect(result.status).toBe("flaky");
    expect(result.flaky).toEqual([
      { test: "tests/test_visits.py::test_later_visit_on_an_even_tick", kind: "intermittent" },
    ]);
    expect(result.orderDependent).toBeUndefined();
    expect(result.steps).toEqual([]);
    expect(report).toContain("is flaky: not fixed");
  }, 300_000);
});
