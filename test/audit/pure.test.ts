import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { changedFunctions, changesFromDiff } from "../../src/audit/changes.js";
import { exampleCheck, exampleTest, moduleNames, parseClaims } from "../../src/audit/claims.js";
import { statedClaims } from "../../src/audit/stated-claims.js";
import { renderAudit } from "../../src/report/audit.js";
import type { CallDiff, DifferentialReport } from "../../src/audit/types.js";
import { auditVerdict } from "../../src/result.js";
import { behaviourChanges, judgeClaim, revise, unverifiedFunctions } from "../../src/audit/verdicts.js";
import { judgeByTest, parseClaimsReply } from "../../src/audit/llm.js";
import type { FunctionInfo } from "../../src/lang/types.js";
import { pythonFiles } from "../../src/lang/python/index.js";

const BASE = ["def f(x):", "    return x", "", "def g(y):", "    return y", ""].join("\n");
const HEAD = [
  "def f(x):",
  "    return x + 1",
  "",
  "def g(y):",
  "    return y",
  "",
  "def h():",
  "    pass",
  "",
].join("\n");
const fns = (...specs: [string, number, number][]): FunctionInfo[] =>
  specs.map(([qualname, startLine, endLine]) => ({ file: "m.py", qualname, startLine, endLine }));

describe("changes", () => {
  it("reads whole-file changes from a unified diff and maps hunks to functions", async () => {
    const diff = createTwoFilesPatch("a/m.py", "b/m.py", BASE, HEAD);
    const changes = await changesFromDiff(diff, async (p) => (p === "m.py" ? BASE : null));
    expect(changes).toEqual([{ path: "m.py", before: BASE, after: HEAD }]);
    const changed = changedFunctions(
      changes,
      fns(["f", 1, 2], ["g", 4, 5]),
      fns(["f", 1, 2], ["g", 4, 5], ["h", 7, 8]),
      pythonFiles,
    );
    expect(changed).toEqual([
      { file: "m.py", qualname: "f", inBase: true, inHead: true },
      { file: "m.py", qualname: "h", inBase: false, inHead: true },
    ]);
  });

  it("undoes the diff when the tree is already at its head side", async () => {
    const diff = createTwoFilesPatch("a/m.py", "b/m.py", BASE, HEAD);
    expect(await changesFromDiff(diff, async () => HEAD)).toEqual([
      { path: "m.py", before: BASE, after: HEAD },
    ]);
  });

  it("refuses a patch that does not apply", async () => {
    const diff = createTwoFilesPatch("a/m.py", "b/m.py", BASE, HEAD);
    await expect(changesFromDiff(diff, async () => "something else\n")).rejects.toThrow(
      /does not apply to m.py/,
    );
  });
});

describe("claims", () => {
  it("splits bullets and sentences, dropping code blocks and trailers", () => {
    const text =
      "Fix the bug\n\n- Fixes test_a. No other behaviour changes.\n```\ncode()\n```\nSigned-off-by: X <x@y>\n";
    expect(statedClaims(text)).toEqual(["Fix the bug", "Fixes test_a.", "No other behaviour changes."]);
  });

  it("classifies fix, preservation and unmapped claims, naming tests and functions", () => {
    const changed = [{ file: "shop/pricing.py", qualname: "discount", inBase: true, inHead: true }];
    const claims = parseClaims(
      "Fixes test_small: discount no longer goes negative.\nNo other behaviour changes.\nDoes not change `discount`.\nIt is faster.",
      ["tests/test_p.py::test_small"],
      changed,
    );
    expect(claims.map((c) => [c.kind, c.tests, c.functions, c.others])).toEqual([
      ["fix", ["tests/test_p.py::test_small"], ["shop/pricing.py::discount"], false],
      ["preserve", [], [], true],
      ["preserve", [], ["shop/pricing.py::discount"], false],
      ["other", [], [], false],
    ]);
  });
});

describe("examples in claims", () => {
  it("turns a concrete example into a check, and leaves prose alone", () => {
    expect(exampleCheck("Now `median([1, 2]) == 1.5`.")).toBe("    assert median([1, 2]) == 1.5");
    expect(exampleCheck("`discount(5, 'TENOFF')` now returns `0`.")).toBe(
      "    assert discount(5, 'TENOFF') == 0",
    );
    expect(exampleCheck("`parse('x')` raises `ValueError`.")).toBe(
      "    with pytest.raises(ValueError):\n        parse('x')",
    );
    expect(exampleCheck("The `discount` function returns `0` for small totals.")).toBeUndefined();
    expect(exampleCheck("Fixes the bug.")).toBeUndefined();
  });

  it("imports the changed modules into the example's test", () => {
    const modules = moduleNames(["shop/pricing.py", "shop/__init__.py", "README.md"]);
    expect(modules).toEqual(["shop.pricing", "shop"]);
    expect(exampleTest("    assert f(1) == 2", modules)).toContain(
      "from shop.pricing import *  # noqa: F401,F403\nfrom shop import *",
    );
  });
});

const call = (over: Partial<CallDiff>): CallDiff => ({
  target: "m.py::f",
  call: "f(1)",
  test: "t.py::test_other",
  before: { kind: "return", value: "1" },
  after: { kind: "return", value: "1" },
  changed: false,
  contextDependent: false,
  ...over,
});

const report = (over: Partial<DifferentialReport> = {}): DifferentialReport => ({
  changedFunctions: [
    { file: "m.py", qualname: "f", inBase: true, inHead: true },
    { file: "m.py", qualname: "g", inBase: true, inHead: true },
  ],
  tests: [
    {
      id: "t.py::test_fix",
      before: "failed",
      after: "passed",
      beforeMessage: "AssertionError: assert 1 == 2",
    },
    { id: "t.py::test_other", before: "passed", after: "passed" },
  ],
  calls: [
    call({ test: "t.py::test_fix", after: { kind: "return", value: "2" }, changed: true }),
    call({
      call: "f(5)",
      before: { kind: "return", value: "5" },
      after: { kind: "raise", type: "ValueError", message: "no" },
      changed: true,
    }),
  ],
  uncapturable: [],
  testsReaching: { "m.py::f": ["t.py::test_fix", "t.py::test_other"] },
  notes: [],
  ran: true,
  timings: {},
  ...over,
});

describe("verdicts", () => {
  const claim = (text: string, tests: string[] = []) =>
    parseClaims(text, tests, report().changedFunctions)[0]!;

  it("confirms a fix the tests show and contradicts 'no other change' with the call's before/after", () => {
    const fix = judgeClaim(claim("Fixes test_fix.", ["t.py::test_fix"]), report());
    expect(fix.verdict).toBe("confirmed");
    expect(fix.evidence).toContain("failed: AssertionError: assert 1 == 2");
    const other = judgeClaim(claim("No other behaviour changes."), report());
    expect(other.verdict).toBe("contradicted");
    expect(other.evidence).toContain("`f(5)` gave `5` before and `raises ValueError: no` after");
    expect(other.evidence).not.toContain("f(1)");
    expect(revise(other).revised).toMatch(/^Not as claimed/);
  });

  it("contradicts a claimed fix whose test still fails", () => {
    const r = report({
      tests: [{ id: "t.py::test_fix", before: "failed", after: "failed", afterMessage: "assert 0 == 2" }],
    });
    const v = judgeClaim(claim("Fixes test_fix.", ["t.py::test_fix"]), r);
    expect(v).toMatchObject({ verdict: "contradicted" });
    expect(v.evidence).toContain("is failed: assert 0 == 2 after");
  });

  it("confirms a refactor when every recorded call agrees, and flags unreached functions", () => {
    const r = report({
      tests: [{ id: "t.py::test_other", before: "passed", after: "passed" }],
      calls: [call({})],
    });
    expect(judgeClaim(claim("Pure refactor."), r).verdict).toBe("confirmed");
    expect(unverifiedFunctions(r)).toEqual(["m.py::g"]);
  });

  it("does not count a call whose base replay differs from the recording (it depends on outside state)", () => {
    const r = report({
      tests: [{ id: "t.py::test_other", before: "passed", after: "passed" }],
      calls: [
        call({
          recorded: { kind: "return", value: "7" },
          after: { kind: "return", value: "2" },
          changed: true,
          contextDependent: true,
        }),
      ],
    });
    expect(behaviourChanges(r)).toEqual([]);
    expect(judgeClaim(claim("Pure refactor."), r)).toMatchObject({
      verdict: "unverified",
      evidence: "no recorded call to the changed functions could serve as evidence; 1 test keeps its outcome",
    });
  });

  it("leaves everything unverified when nothing ran", () => {
    const v = judgeClaim(claim("Fixes test_fix."), report({ ran: false }));
    expect(v.verdict).toBe("unverified");
    expect(auditVerdict({ claims: [v] })).toBe("not-run");
  });
});

describe("renderAudit", () => {
  it("shows verdicts, revisions and before/after values, escaping table pipes", () => {
    const r = report();
    const claims = [revise(judgeClaim(parseClaims("No other behaviour changes.", [], [])[0]!, r))];
    const md = renderAudit({
      claims,
      behaviourChanges: behaviourChanges(r),
      unverified: unverifiedFunctions(r),
      notes: ["a | b"],
    });
    expect(md).toContain("❌ execution contradicts at least one claim");
    expect(md).toContain("| call | `f(5)` (in `t.py::test_other`) | `5` | `raises ValueError: no` |");
    expect(md).toContain("**Unverified:** no test reaches `m.py::g`");
    expect(md).toContain("- a \\| b");
    expect(md).toContain("Revised explanation");
  });
});

describe("judgeByTest: claims about the old code are checked on the base, about the new on the patch", () => {
  const report = (before: "passed" | "failed", after: "passed" | "failed"): DifferentialReport => ({
    changedFunctions: [],
    tests: [{ id: "t/test_claim_1.py::test_c", before, after, beforeMessage: "assert 1 == 2" }],
    calls: [],
    uncapturable: [],
    testsReaching: {},
    notes: [],
    ran: true,
    timings: {},
  });
  const claim = (about: "old" | "new") => ({
    text: "can_withdraw refused the whole balance",
    kind: "behaviour" as const,
    about,
    testPath: "t/test_claim_1.py",
  });

  it("confirms an old-code claim whose test passes on the base, whatever the patch does", () => {
    expect(judgeByTest(claim("old"), report("passed", "failed")).verdict).toBe("confirmed");
    expect(judgeByTest(claim("old"), report("failed", "passed"))).toMatchObject({
      verdict: "contradicted",
      evidence: expect.stringContaining("about the code before the change"),
    });
  });

  it("judges the same test as a new-code claim on the patch", () => {
    expect(judgeByTest(claim("new"), report("passed", "failed")).verdict).toBe("contradicted");
    expect(judgeByTest(claim("new"), report("failed", "passed")).verdict).toBe("confirmed");
  });
});

describe("parseClaimsReply", () => {
  it("reads a fenced JSON reply and defaults what the model left out", () => {
    const reply = parseClaimsReply('Here:\n```json\n{"claims": [{"text": "Fixes x", "kind": "odd"}]}\n```');
    expect(reply.claims).toEqual([{ text: "Fixes x", kind: "other", about: "new", test: "" }]);
  });

  it("refuses a reply without the JSON object", () => {
    expect(() => parseClaimsReply("I think the patch is fine.")).toThrow(/no JSON object/);
    expect(() => parseClaimsReply('{"claims": [{"kind": "fix"}]}')).toThrow();
  });
});
