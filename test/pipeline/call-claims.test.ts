import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pipelineAudit } from "../../src/audit/index.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { confidenceFlags } from "../helpers/markdown.js";
import { fixLocally, fixture, scriptedEngine } from "./helpers.js";

/*
 * Call claims for direct calls, on real runs (local sandbox, real pytest, the offline audit):
 * the explanation states the changed function's result on the failing test's own call before
 * and with the patch, and the audit confirms it, or contradicts a claimed result the patched
 * code does not give; a change no return value shows states none, and the audit stays ⚠️.
 */
const FAST = { testTimeoutMs: 5_000, callTimeoutMs: 3_000 };
const audit = pipelineAudit({ engine: "offline", options: FAST });

const GRADES = readFileSync(`${fixture("fix-grade")}/grades.py`, "utf8");

describe("call claims for the failing test's own calls", () => {
  it("a one-token fix of a function a parametrized test calls directly: the stated call is confirmed (✅)", async () => {
    const { result, report } = await fixLocally(fixture("fix-grade"), createOfflineEngine(), { audit })
      .outcome;
    expect(result.status).toBe("fixed");
    const stated = result.audit.claims.find((c) => c.text.includes("called with"));
    expect(stated?.text).toBe(
      "`letter` called with `(90)` returned `'B'` before the patch and returns `'A'` with it (in `tests/test_grades.py::test_letter[90-A]`).",
    );
    expect(stated).toMatchObject({ verdict: "confirmed" });
    expect(stated?.evidence).toContain("recorded call `letter(90)` gave `'B'` before and `'A'` after");
    expect(confidenceFlags(report)["audit"]).toMatchObject({ icon: "✅", value: "confirmed" });
  }, 180_000);

  it("a patch claimed to return what it does not: the claim is contradicted (❌), with what the patch returns", async () => {
    const wrong = GRADES.replace("if score > 90:", "if score >= 90 or score < 0:");
    const claim =
      "Makes the boundary inclusive. `letter` called with `(90)` returned `'B'` before the patch and returns `'A+'` with it.";
    const { result, report } = await fixLocally(
      fixture("fix-grade"),
      scriptedEngine("grades.py", GRADES, [{ after: wrong, claim }], { line: 5, function: "letter" }),
      { audit },
    ).outcome;
    expect(result.status).toBe("fixed");
    const claimed = result.audit.claims.find((c) => c.text.includes("`'A+'`"));
    expect(claimed).toMatchObject({ verdict: "contradicted" });
    expect(claimed?.evidence).toContain("recorded call `letter(90)` gave `'B'` before and `'A'` after");
    const flag = confidenceFlags(report)["audit"];
    expect(flag).toMatchObject({ icon: "❌", value: "contradicted" });
    expect(report).toContain("returns `'A+'` with it");
  }, 180_000);

  it("a fix that changes an argument in place and returns nothing: no call is stated, and the audit is ⚠️ unverified", async () => {
    const { result, report } = await fixLocally(fixture("fix-inplace"), createOfflineEngine(), { audit })
      .outcome;
    expect(result.status).toBe("fixed");
    expect(result.patches[0]?.diff).toContain("range(0, len(values))");
    expect(result.audit.claims.some((c) => c.text.includes("called with"))).toBe(false);
    expect(result.audit.recordedCalls).toBeGreaterThan(0);
    expect(confidenceFlags(report)["audit"]).toMatchObject({ icon: "⚠️", value: "unverified" });
  }, 180_000);
});
