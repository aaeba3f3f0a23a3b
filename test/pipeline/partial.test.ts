import { describe, expect, it } from "vitest";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { resultSchema } from "../../src/result.js";
import { confidenceFlags, markdownProblems } from "../helpers/markdown.js";
import { fixLocally, fixture } from "./helpers.js";

/*
 * `fix-preexisting` has a rounding bug a patch fixes and a test broken in the test file itself,
 * which no patch may touch. Without `--test` both failing tests are targeted and the patch fixes
 * one: `partial`, never `fixed`. Naming the fixable test targets it alone: `fixed`.
 */
const CENTS = "tests/test_prices.py::test_with_tax_keeps_cents";
const SYMBOL = "tests/test_prices.py::test_currency_symbol";

describe("a patch that fixes some of the failing tests (local sandbox, real pytest)", () => {
  it("ends partial: what it fixes and what still fails, a title that says so, the patch shown but not proposed", async () => {
    const { result, report, patch } = await fixLocally(fixture("fix-preexisting"), createOfflineEngine())
      .outcome;
    expect(resultSchema.parse(result)).toEqual(result);
    expect(result.status).toBe("partial");
    expect(result.failingTests).toEqual([CENTS, SYMBOL]);
    expect(result.partialFix).toEqual({ fixes: [CENTS], stillFailing: [SYMBOL] });
    expect(result.reason).toContain("a patch fixes 1 of 2 failing tests");
    expect(result.reason).toContain(`${SYMBOL} still fails`);
    expect(result.confidence.suitePasses).toBe(false);
    expect(patch).toContain("+++ b/prices.py");
    expect(report.split("\n")[0]).toBe("### A patch to `with_tax` fixes 1 of 2 failing tests: not a fix");
    expect(report).toContain("it is shown, not proposed as a fix");
    expect(confidenceFlags(report)["whole suite passes"]?.icon).toBe("⚠️");
    expect(markdownProblems(report)).toEqual([]);
  });

  it("ends fixed when every targeted failing test passes", async () => {
    const { result, report } = await fixLocally(fixture("fix-preexisting"), createOfflineEngine(), {
      tests: [CENTS],
    }).outcome;
    expect(result.status).toBe("fixed");
    expect(result.failingTests).toEqual([CENTS]);
    expect(result.partialFix).toBeUndefined();
    expect(report.split("\n")[0]).toMatch(/^### Fix `with_tax` so `test_with_tax_keeps_cents` passes$/);
  });
});
