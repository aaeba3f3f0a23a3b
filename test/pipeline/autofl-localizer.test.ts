import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { autoflLocalizer } from "../../src/compose.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { say, ScriptedModel } from "../doubles/scripted-model.js";
import { fixLocally, fixture } from "./helpers.js";

describe("runFix with AutoFL as the localizer (real pipeline, real pytest, scripted model)", () => {
  it("ranks what the runs named, reports their agreement, and still fixes the bug", async () => {
    // Two AutoFL runs: each explores (stage 1) and then names the faulty function (stage 2).
    const model = new ScriptedModel([
      say("running_total starts its loop at index 1, so the first value is skipped."),
      say("```\nstats.running_total\n```"),
      say("The totals miss the first element."),
      say("`running_total`"),
    ]);
    const { outcome } = fixLocally(fixture("fix-loop"), createOfflineEngine(), {
      localizer: autoflLocalizer(model, pino({ level: "silent" }), 2),
    });
    const { result, report } = await outcome;
    expect(model.remaining).toBe(0);
    expect(result.localization[0]).toMatchObject({ file: "stats.py", function: "running_total", rank: 1 });
    expect(result.confidence.localizationAgreement).toBe(1);
    expect(report).toContain("2 of 2 runs");
    expect(result.status).toBe("fixed");
  });

  it("keeps SBFL's ranking when the model fails, and the fix goes on", async () => {
    const model = new ScriptedModel([new Error("endpoint down"), new Error("endpoint down")]);
    const { outcome } = fixLocally(fixture("fix-loop"), createOfflineEngine(), {
      localizer: autoflLocalizer(model, pino({ level: "silent" }), 2),
    });
    const { result } = await outcome;
    expect(result.localization[0]?.function).toBe("running_total");
    expect(result.status).toBe("fixed");
  });
});
