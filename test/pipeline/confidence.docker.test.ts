import { describe, expect, it } from "vitest";
import { pipelineAudit } from "../../src/audit/index.js";
import { autoflLocalizer } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { createLogger } from "../../src/log.js";
import type { RunContext } from "../../src/pipeline/index.js";
import { ScriptedModel, say } from "../doubles/scripted-model.js";
import { confidenceFlags, markdownProblems } from "../helpers/markdown.js";
import { example, fixLocally, fixture } from "./helpers.js";

/*
 * Every confidence flag of the report, each seen ✅ and ⚠️/❌ (or ➖ when nothing was
 * measured) on real runs: the Docker sandbox, real pytest, the offline engine and the
 * offline audit, on small fixture repositories. AutoFL's model is scripted (the LLM
 * endpoint is the one part that cannot exist here); its coverage and the rest are real.
 */

const FAST = { testTimeoutMs: 5_000, callTimeoutMs: 3_000 };

function fix(dir: string, overrides: Parameters<typeof fixLocally>[2] = {}) {
  return fixLocally(dir, createOfflineEngine(), {
    backend: "docker",
    audit: pipelineAudit({ engine: "offline", options: FAST }),
    ...overrides,
  }).outcome;
}

/** AutoFL with a model whose five runs answer `first[i]` (stage 2), looking at nothing (stage 1). */
function autofl(answers: string[]): NonNullable<RunContext["localizer"]> {
  const model = new ScriptedModel(answers.flatMap((answer) => [say("I read the failure."), say(answer)]));
  return autoflLocalizer(model, createLogger("silent"), answers.length);
}

describe("confidence flags on real runs (docker)", () => {
  it("a boundary fix: reproduced, concluded, suite green, audit confirmed by a recorded call; SBFL ranked another function first", async () => {
    const { result, report } = await fix(example("bank-account"));
    const flags = confidenceFlags(report);
    expect(result.status).toBe("fixed");
    expect(flags["failure reproduced"]?.icon).toBe("✅");
    expect(flags["debugging concluded"]?.icon).toBe("✅");
    expect(flags["whole suite passes"]).toMatchObject({ icon: "✅", value: "7 passed, 0 failed" });
    // SBFL puts `Account.withdraw` (which raises) above `can_withdraw`, where the fix is.
    expect(flags["localization agrees"]).toMatchObject({ icon: "⚠️", value: "the fix is elsewhere" });
    expect(flags["audit"]?.icon).toBe("✅");
    const call = result.audit.claims.find((c) => c.text.includes("called with"));
    expect(call).toMatchObject({ verdict: "confirmed" });
    expect(call?.evidence).toContain(
      "recorded call `Account.can_withdraw(Account(balance=50, overdraft=0, owner='ada'), 50)` gave `False` before and `True` after",
    );
    expect(result.sandbox).toEqual({ backend: "docker", asked: "docker" });
    expect(report).toContain("sandbox: docker, no network, non-root");
    expect(markdownProblems(report)).toEqual([]);
  }, 300_000);

  it("a parametrized instance fixed: SBFL's top function was fixed and the audit confirms the instance's call", async () => {
    const { result, report } = await fix(fixture("fix-param"));
    const flags = confidenceFlags(report);
    expect(result.failingTests).toEqual(["tests/test_ages.py::test_is_adult[18-True]"]);
    expect(flags["localization agrees"]).toMatchObject({
      icon: "✅",
      value: "SBFL's top function was fixed",
    });
    expect(result.confidence.audit).toBe("confirmed");
    expect(result.audit.claims.find((c) => c.verdict === "confirmed")?.evidence).toContain(
      "recorded call `is_adult(18)` gave `False` before and `True` after",
    );
  }, 300_000);

  it("a pre-existing failure the job did not target: the suite flag warns and names it; AutoFL agreeing 5 of 5", async () => {
    const { result, report } = await fix(fixture("fix-preexisting"), {
      tests: ["tests/test_prices.py::test_with_tax_keeps_cents"],
      localizer: autofl(Array.from({ length: 5 }, () => "```\nwith_tax\n```")),
    });
    const flags = confidenceFlags(report);
    expect(result.status).toBe("fixed");
    expect(result.confidence.suitePasses).toBe(false);
    expect(flags["whole suite passes"]?.icon).toBe("⚠️");
    expect(flags["whole suite passes"]?.evidence).toContain(
      "failing before the patch too, not targeted: `tests/test_prices.py::test_currency_symbol`",
    );
    expect(flags["localization agrees"]).toMatchObject({ icon: "✅", value: "5 of 5 AutoFL runs" });
  }, 300_000);

  it("a fix of a function the test calls directly: audit confirmed by the test's own call; AutoFL runs disagreeing", async () => {
    const { result, report } = await fix(fixture("fix-loop"), {
      localizer: autofl([
        "```\nrunning_total\n```",
        "```\nmean\nrunning_total\n```",
        "```\nrunning_total\n```",
        "```\nmean\n```",
        "```\nrunning_total\nmean\n```",
      ]),
    });
    const flags = confidenceFlags(report);
    expect(result.status).toBe("fixed");
    expect(flags["audit"]).toMatchObject({ icon: "✅", value: "confirmed" });
    expect(result.audit.claims.find((c) => c.verdict === "confirmed")?.evidence).toContain(
      "recorded call `running_total([1, 2, 3])` gave `[2, 5]` before and `[1, 3, 6]` after",
    );
    // `running_total` is top (score 3.5 vs 1.5) and first in three of the five answers.
    expect(flags["localization agrees"]).toMatchObject({ icon: "⚠️", value: "3 of 5 AutoFL runs" });
    expect(result.confidence.localizationAgreement).toBeCloseTo(0.6);
  }, 300_000);

  it("a model that names nothing: AutoFL unavailable, SBFL only (neutral)", async () => {
    const { result, report } = await fix(fixture("fix-param"), {
      localizer: autofl(Array.from({ length: 5 }, () => "I am not sure which function is wrong.")),
    });
    expect(result.status).toBe("fixed");
    expect(confidenceFlags(report)["localization agrees"]).toMatchObject({
      icon: "➖",
      value: "AutoFL unavailable, SBFL only",
    });
  }, 300_000);

  it("no validated fix within the budget: debugging not concluded, and nothing else claimed", async () => {
    // The first edit tried on this loop bound is not the fix, so one experiment cannot find it.
    const { result, report } = await fix(fixture("fix-loop"), { repoConfig: { max_experiments: 1 } });
    const flags = confidenceFlags(report);
    expect(result.status).toBe("no-fix");
    expect(flags["failure reproduced"]?.icon).toBe("✅");
    expect(flags["debugging concluded"]).toMatchObject({
      icon: "⚠️",
      value: expect.stringMatching(/^no `<DONE>` in \d+ steps$/),
    });
    expect(flags["whole suite passes"]?.icon).toBe("➖");
    expect(flags["audit"]?.icon).toBe("➖");
    // No fix, so no claim about where the fix is.
    expect(flags["localization agrees"]).toBeUndefined();
  }, 300_000);
});

describe("reproduction and sandbox flags on a real run that cannot use docker", () => {
  it("a failure that changes between runs in the suite's order is flaky; auto's fallback to local is recorded", async () => {
    const config = loadConfig();
    const { result, report } = await fix(fixture("order-flaky"), {
      backend: "auto",
      config: { ...config, sandbox: { ...config.sandbox, image: "hypofix/no-such-image:0" } },
    });
    expect(result.status).toBe("flaky");
    expect(result.flaky).toEqual([
      { test: "tests/test_visits.py::test_later_visit_on_an_even_tick", kind: "intermittent" },
    ]);
    expect(result.reason).toContain("passed on some of its reruns");
    const flags = confidenceFlags(report);
    expect(flags["failure reproduced"]?.icon).toBe("⚠️");
    expect(flags["failure reproduced"]?.evidence).toContain(
      "`test_later_visit_on_an_even_tick` failed in the suite and passed on some reruns",
    );
    expect(result.sandbox).toMatchObject({ backend: "local", asked: "auto" });
    expect(result.sandbox?.fallback).toMatch(/image hypofix\/no-such-image:0 not found/);
    expect(report).toContain("⚠️ sandbox: local, without isolation (auto was asked for");
  }, 300_000);
});
