import { describe, expect, it } from "vitest";
import { markdownProblems } from "../helpers/markdown.js";
import { renderReport, type ReportMeta } from "../../src/report/render.js";
import { resultSchema, type Result } from "../../src/result.js";

const META: ReportMeta = {
  reproduction: { failedRuns: 0, totalRuns: 0 },
  maxSteps: 3,
  experiments: 0,
  durationMs: 1_000,
};

const result = (environment?: Result["environment"]): Result =>
  resultSchema.parse({
    status: "error",
    reason: "the setup failed",
    failingTests: [],
    localization: [],
    steps: [],
    patches: [],
    confidence: {
      done: false,
      reproduced: false,
      suitePasses: false,
      localizationAgreement: 0,
      audit: "not-run",
    },
    audit: { claims: [], behaviourChanges: [], notes: [] },
    timings: {},
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0 },
    engine: "offline",
    ...(environment ? { environment } : {}),
  });

const footerLine = (md: string) => md.split("\n").find((line) => line.startsWith("Environment "));

describe("the report footer's environment line", () => {
  it("names a built environment, its Python, setup and the pytest options set aside", () => {
    const md = renderReport(
      result({
        image: "hypofix/env:0123",
        python: "3.13",
        cached: false,
        setup: ["pip install -r requirements.txt"],
        setupSource: "detected: requirements.txt",
        pytestSetAside: ["--cov=pkg", "-n auto"],
        workingDirectory: "services/api",
      }),
      META,
    );
    expect(footerLine(md)).toBe(
      "Environment `hypofix/env:0123`: Python 3.13 · built for this job · setup `pip install -r requirements.txt` (detected: requirements.txt) · from `services/api` · pytest options set aside: `--cov=pkg`, `-n auto`.",
    );
    expect(markdownProblems(md)).toEqual([]);
  });

  it("says a cached environment was reused, and when a setup was not run", () => {
    const cached = renderReport(
      result({
        image: "hypofix/env:0123",
        python: "3.11",
        cached: true,
        setup: ["pip install -e ."],
        pytestSetAside: [],
      }),
      META,
    );
    expect(footerLine(cached)).toBe(
      "Environment `hypofix/env:0123`: Python 3.11 · cached, no build · setup `pip install -e .`.",
    );
    const skipped = renderReport(
      result({
        image: "hypofix/sandbox-python:2",
        python: "3.11",
        cached: false,
        setup: [],
        setupSource:
          "detected: requirements.txt; setup not run: it never runs with network for a fork's head",
        pytestSetAside: [],
      }),
      META,
    );
    expect(footerLine(skipped)).toBe(
      "Environment `hypofix/sandbox-python:2`: Python 3.11 · base image · no setup (detected: requirements.txt; setup not run: it never runs with network for a fork's head).",
    );
  });

  it("has no line when the run recorded no environment", () => {
    expect(footerLine(renderReport(result(), META))).toBeUndefined();
  });
});
