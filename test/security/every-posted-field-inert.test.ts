// Hostile case (issue 23, point 3): fields of result.json reached the Markdown we post raw.
// A repository file named `requirements @octocat <details open><summary>x.txt` became the
// setup source in every report's footer: a live mention and structure-breaking HTML in every
// PR body, comment and check run, forks' too. `_www.evil.com` autolinked after escaping.
// Now every string field of a result (and of what a job adds to it) goes through
// report/inert.ts, and a property test renders reports whose every string is hostile and
// reads them with two GFM parsers (test/helpers/markdown.ts, liveMarkup).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderAudit } from "../../src/report/audit.js";
import {
  checkRunEnd,
  checkRunProgress,
  configProblemReply,
  refusalReply,
  staleHeadReply,
} from "../../src/report/check-run.js";
import { explainReply } from "../../src/report/explain.js";
import { blockedNote, closedNote } from "../../src/report/fix-notes.js";
import { renderReport, type ReportMeta } from "../../src/report/render.js";
import type { Audit, Result } from "../../src/result.js";
import { fixed } from "../github/fix-repo.js";
import { liveMarkup } from "../helpers/markdown.js";

/** Pieces an attacker puts in a test name, an output, a file name or a model answer. */
const PIECES = [
  "<details open>",
  "</details>",
  "<summary>",
  "</summary>",
  "<img src=x onerror=alert(1)>",
  "<!--",
  "-->",
  "<b>",
  "<code>",
  "</code>",
  "<https://evil.example>",
  "@octocat",
  "@org/team",
  "#123",
  "acme/calc#7",
  "GH-9",
  "_GH-9",
  "www.evil.com",
  "_www.evil.com",
  "a_www.evil.com",
  "https://evil.example/x",
  "HTTP://EVIL.EXAMPLE",
  "mailto:eve@evil.example",
  "eve@evil.example",
  "xmpp:eve@evil.example",
  "[x](https://evil.example)",
  "![i](https://evil.example/i.png)",
  "[x]: https://evil.example",
  "`",
  "``",
  "```",
  "~~~",
  "|",
  "\\",
  "*",
  "_",
  "~",
  "<",
  ">",
  "&",
  "&lt;",
  "&#60;",
  "# ",
  "> ",
  "- ",
  "1. ",
  "\n",
  "\n\n",
  "    ",
  "\u202e",
  "\u0000",
  "requirements @octocat <details open><summary>x.txt",
];

/** A hostile string: pieces above and random text, in any order. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: "binary", maxLength: 4 }),
    ),
    {
      maxLength: 8,
    },
  )
  .map((parts) => parts.join(""));
const hostiles = fc.array(hostile, { maxLength: 3 });
const count = fc.nat({ max: 50 });
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Drops keys whose value is undefined (optional fields, with exactOptionalPropertyTypes). */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const step = fc
  .record({
    hypothesis: hostile,
    prediction: hostile,
    experiment: hostile,
    observation: hostile,
    conclusion: fc.constantFrom("supported", "rejected", "undecided" as const),
    done: fc.boolean(),
    role: opt(fc.constantFrom("probe", "test" as const)),
    decisive: opt(fc.boolean()),
  })
  .map(defined);

const audit: fc.Arbitrary<Audit> = fc.record({
  claims: fc.array(
    fc
      .record({
        text: hostile,
        evidence: hostile,
        verdict: fc.constantFrom("confirmed", "contradicted", "unverified" as const),
        revised: opt(hostile),
      })
      .map(defined),
    { maxLength: 3 },
  ),
  behaviourChanges: fc.array(
    fc
      .record({
        kind: fc.constantFrom("test", "call" as const),
        subject: hostile,
        before: hostile,
        after: hostile,
        function: opt(hostile),
        test: opt(hostile),
      })
      .map(defined),
    { maxLength: 3 },
  ),
  unverified: hostiles,
  notes: hostiles,
});

const result: fc.Arbitrary<Result> = fc
  .record({
    status: fc.constantFrom("fixed", "no-fix", "not-reproduced", "flaky", "error" as const),
    reason: hostile,
    failingTests: fc.array(hostile, { minLength: 1, maxLength: 3 }),
    localization: fc.array(
      fc
        .record({
          rank: fc.integer({ min: 1, max: 9 }),
          file: hostile,
          function: hostile,
          line: opt(fc.integer({ min: 1, max: 999 })),
          score: fc.double({ noNaN: true }),
          reason: hostile,
        })
        .map(defined),
      { maxLength: 3 },
    ),
    steps: fc.array(step, { maxLength: 4 }),
    patches: fc.array(
      fc
        .record({
          diff: hostile,
          plausible: fc.boolean(),
          testsRun: count,
          testsFailed: count,
          fromStep: opt(fc.nat({ max: 3 })),
          brokenTests: hostiles,
          rejectedBecause: opt(hostile),
        })
        .map(defined),
      { maxLength: 3 },
    ),
    confidence: fc.record({
      done: fc.boolean(),
      reproduced: fc.boolean(),
      suitePasses: fc.boolean(),
      localizationAgreement: fc.double({ min: 0, max: 1, noNaN: true }),
      audit: fc.constantFrom("confirmed", "contradicted", "not-run" as const),
    }),
    audit,
    timings: fc.constant({}),
    usage: fc.record({ llmCalls: count, promptTokens: count, completionTokens: count }),
    engine: fc.constantFrom("offline", "llm" as const),
    flaky: opt(
      fc.array(
        fc
          .record({
            test: hostile,
            kind: fc.constantFrom("intermittent", "order-dependent" as const),
            precededBy: opt(hostile),
          })
          .map(defined),
        { maxLength: 2 },
      ),
    ),
    sandbox: opt(
      fc
        .record({
          backend: fc.constantFrom("docker", "local" as const),
          asked: fc.constantFrom("docker", "local", "auto" as const),
          fallback: opt(hostile),
        })
        .map(defined),
    ),
    environment: opt(
      fc
        .record({
          image: hostile,
          language: opt(hostile),
          version: opt(hostile),
          runtime: opt(hostile),
          python: opt(hostile),
          cached: fc.boolean(),
          setup: hostiles,
          setupSource: opt(hostile),
          pytestSetAside: hostiles,
          optionsSetAside: opt(hostiles),
          testRunner: opt(hostile),
          workingDirectory: opt(hostile),
        })
        .map(defined),
    ),
  })
  .map(defined);

const meta: fc.Arbitrary<ReportMeta> = fc
  .record({
    headSha: opt(hostile),
    ci: opt(fc.record({ workflow: opt(hostile), job: opt(hostile) }).map(defined)),
    reproduction: fc.record({ failedRuns: count, totalRuns: count }),
    suiteBefore: opt(fc.record({ passed: count, failed: count })),
    suiteAfter: opt(fc.record({ passed: count, failed: count })),
    otherFailures: opt(hostiles),
    maxSteps: count,
    experiments: count,
    durationMs: fc.nat({ max: 10_000_000 }),
    fixedAt: opt(
      fc
        .record({ file: hostile, line: fc.integer({ min: 1, max: 999 }), function: opt(hostile) })
        .map(defined),
    ),
    localizationRuns: opt(fc.record({ agreeing: count, total: count })),
    localizerUnavailable: opt(hostile),
    notes: opt(hostiles),
  })
  .map(defined);

/** The mention a reply makes on purpose: the login that asked, when it is a GitHub login. */
const asked = (login: string) =>
  /^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$/.test(login) ? [`@${login}`] : [];

/** Enough runs to meet every piece in every field (HYPOFIX_PROPERTY_RUNS for a longer search); a failure prints its smallest case. */
const RUNS = { numRuns: Number(process.env.HYPOFIX_PROPERTY_RUNS ?? 250) };

describe("every field we post is inert, whatever it holds", () => {
  it("the PR body (also the comment and the check run's report)", () => {
    fc.assert(
      fc.property(result, meta, (r, m) => {
        expect(liveMarkup(renderReport(r, m))).toEqual([]);
      }),
      RUNS,
    );
  });

  it("the /explain reply (the audit) to whoever asked", () => {
    fc.assert(
      fc.property(audit, hostile, (a, login) => {
        const reply = explainReply(renderAudit(a), login);
        // A real login is mentioned on purpose (it asked); nothing else is live.
        expect(liveMarkup(reply, { mentions: asked(login) })).toEqual([]);
      }),
      RUNS,
    );
  });

  it("the check run's text and the short replies", () => {
    const link = "https://github.example/octo/calc/pull/12";
    fc.assert(
      fc.property(
        fc.array(fc.record({ phase: hostile, line: hostile }), { maxLength: 4 }),
        hostile,
        hostile,
        (notes, reason, other) => {
          expect(liveMarkup(checkRunProgress(notes).summary)).toEqual([]);
          const end = checkRunEnd("t", reason, notes, {
            report: renderAudit({ claims: [], behaviourChanges: [], unverified: [other], notes: [] }),
          });
          expect(liveMarkup(end.summary)).toEqual([]);
          const linked = checkRunEnd("t", reason, notes, { link: { label: "#12", url: link } });
          expect(liveMarkup(linked.summary, { mentions: ["#12"], links: [link] })).toEqual([]);
          expect(liveMarkup(configProblemReply(other))).toEqual([]);
          expect(liveMarkup(closedNote(other, "a".repeat(40)))).toEqual([]);
          expect(liveMarkup(blockedNote(other, ""))).toEqual([]);
        },
      ),
      RUNS,
    );
  });

  it("a refusal names only a real login", () => {
    fc.assert(
      fc.property(hostile, (login) => {
        expect(liveMarkup(refusalReply(login), { mentions: asked(login) })).toEqual([]);
        expect(liveMarkup(staleHeadReply(login, "fix", "b".repeat(40)), { mentions: asked(login) })).toEqual(
          [],
        );
      }),
      RUNS,
    );
  });

  it("the cases found on main stay inert: the footer's file name, `_www.`, `\\|` in a cell's code, an empty code span", () => {
    const base = fixed("").result;
    const m: ReportMeta = {
      reproduction: { failedRuns: 3, totalRuns: 3 },
      maxSteps: 5,
      experiments: 0,
      durationMs: 1,
    };
    const file = "requirements @octocat <details open><summary>x.txt";
    const environment = {
      image: "i",
      python: "3.12",
      cached: false,
      setup: ["pip install -r x"],
      setupSource: file,
      pytestSetAside: [],
    };
    expect(liveMarkup(renderReport({ ...base, environment }, m))).toEqual([]);
    expect(liveMarkup(renderReport({ ...base, reason: "see _www.evil.com and www" }, m))).toEqual([]);
    const change = { kind: "test" as const, subject: "t", before: "\\|<details open>", after: "" };
    expect(
      liveMarkup(renderAudit({ claims: [], behaviourChanges: [change], unverified: [], notes: [] })),
    ).toEqual([]);
    const step = {
      hypothesis: "h",
      prediction: "p",
      experiment: "",
      observation: "`",
      conclusion: "supported" as const,
      done: true,
    };
    expect(liveMarkup(renderReport({ ...base, steps: [step] }, m))).toEqual([]);
  });

  it("the check can fail: the footer's file name and an autolink after `_` as main left them", () => {
    const file = "requirements @octocat <details open><summary>x.txt";
    expect(liveMarkup(`setup (${file})`)).not.toEqual([]);
    expect(liveMarkup("\\_www.evil.com")).toEqual(
      expect.arrayContaining([
        expect.stringContaining("marked: link"),
        expect.stringContaining('micromark: "<a'),
      ]),
    );
  });
});
