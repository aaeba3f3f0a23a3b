import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../../src/compose.js";
import { explainChange, type ExplainOptions } from "../../src/audit/explain.js";
import type { AuditOutcome } from "../../src/audit/index.js";
import { loadConfig } from "../../src/config.js";
import { auditSchema } from "../../src/result.js";
import { buildFixtureRepo } from "./fixture-repo.js";

// Integration: the real Docker sandbox (image hypofix/sandbox-python:2), real pytest, a git repository built from
// test/fixtures/audit-shop (base + one branch per change; each branch's commit message is the explanation).
const repo = buildFixtureRepo("audit-shop");
const config = loadConfig({});
const FAST = { testTimeoutMs: 5_000, callTimeoutMs: 3_000 };
const audits = new Map<string, Promise<AuditOutcome>>();

function audit(head: string, extra: Partial<ExplainOptions> = {}): Promise<AuditOutcome> {
  const key = head + (extra.engine ?? "");
  if (!audits.has(key)) {
    const options: ExplainOptions = {
      base: "base",
      head,
      engine: "offline",
      workspace: (dir) => openWorkspace({ repoDir: dir, backend: "docker", config }),
      differential: FAST,
    };
    audits.set(key, explainChange(repo.dir, { ...options, ...extra }));
  }
  return audits.get(key)!;
}

afterAll(() => repo.cleanup());

describe("hypofix explain on fixture changes (docker)", () => {
  it("reports a silent behaviour change of a fix with its before/after values", async () => {
    const { audit: a, verdict, markdown } = await audit("silent");
    expect(auditSchema.parse(a)).toEqual(a);
    expect(a.behaviourChanges).toContainEqual({
      kind: "call",
      subject: "discount(20.49, None)",
      before: "20.49",
      after: "20",
      function: "shop/pricing.py::discount",
      test: "tests/test_pricing.py::test_checkout_without_code_is_positive",
    });
    const byText = Object.fromEntries(a.claims.map((c) => [c.text, c]));
    expect(byText["No other behaviour changes."]?.verdict).toBe("contradicted");
    expect(byText["No other behaviour changes."]?.evidence).toContain(
      "`discount(20.49, None)` gave `20.49` before and `20` after",
    );
    expect(
      byText["Fixes test_tenoff_small_total: a TENOFF discount on a total under 10 now gives 0."]?.verdict,
    ).toBe("confirmed");
    expect(verdict).toBe("contradicted");
    expect(markdown).toContain(
      "| call | `discount(20.49, None)` (in `tests/test_pricing.py::test_checkout_without_code_is_positive`) | `20.49` | `20` |",
    );
    expect(markdown).toContain("Not as claimed (“No other behaviour changes.”)");
  });

  it("reports a pure refactor as behaviour-preserving on every recorded call, and names the calls it could not capture", async () => {
    const { audit: a, verdict, evidence } = await audit("refactor");
    expect(evidence.calls.length).toBeGreaterThanOrEqual(3);
    expect(evidence.calls.filter((c) => c.changed)).toEqual([]);
    expect(a.behaviourChanges).toEqual([]);
    expect(a.claims.map((c) => c.verdict)).toEqual(["confirmed", "confirmed", "confirmed"]);
    // The example the message gives is run on both sides.
    expect(a.claims[2]?.evidence).toContain(
      "`test_claimed_example` passes after the change; and before it too",
    );
    expect(verdict).toBe("confirmed");
    expect(a.notes.join("\n")).toMatch(
      /shop\/pricing\.py::total: TypeError: cannot pickle 'generator' object — not replayed/,
    );
  });

  it("contradicts a description that claims a fix the tests do not show", async () => {
    const { audit: a, verdict } = await audit("false-claim");
    const claim = a.claims.find((c) => c.text.startsWith("Fixes test_tenoff_small_total"));
    expect(claim?.verdict).toBe("contradicted");
    expect(claim?.evidence).toContain("is failed: AssertionError: assert -5 == 0 after");
    const example = a.claims.find((c) => c.text === "`discount(5, 'TENOFF')` now returns `0`.");
    expect(example?.verdict).toBe("contradicted");
    expect(example?.evidence).toContain("fails after the change (failed: AssertionError: assert -5 == 0)");
    expect(verdict).toBe("contradicted");
  });

  it("says plainly when the change touches no Python file", async () => {
    const { audit: a, verdict } = await audit("docs-only");
    expect(a.notes).toEqual(["The change touches no Python file (README.md): there is nothing to execute."]);
    expect(a.claims.every((c) => c.verdict === "unverified")).toBe(true);
    expect(verdict).toBe("not-run");
  });

  it("says plainly when the change does not import, and what that does to the calls", async () => {
    const { audit: a } = await audit("syntax-error");
    expect(a.notes.join("\n")).toContain(
      "With the change, tests/test_pricing.py does not import: SyntaxError",
    );
    expect(a.behaviourChanges).toContainEqual(
      expect.objectContaining({
        subject: "parse_price(' $12.50 ')",
        before: "12.5",
        after: expect.stringMatching(/^cannot be called \(SyntaxError/),
      }),
    );
    expect(a.claims.find((c) => c.text === "Does not change parse_price.")?.verdict).toBe("contradicted");
  });

  it("fails a hanging test at its limit and reports the hanging call instead of waiting", async () => {
    const { audit: a } = await audit("hang");
    expect(a.notes.join("\n")).toContain(
      "On head, tests/test_pricing.py::test_parse_price hung and failed at the 5s per-test limit.",
    );
    expect(a.behaviourChanges).toContainEqual(
      expect.objectContaining({
        kind: "call",
        subject: "parse_price(' $12.50 ')",
        before: "12.5",
        after: "no result within 3s",
      }),
    );
  });
});

describe("hypofix explain command", () => {
  const bin = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));
  const hypofix = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, "explain", repo.dir, ...args], (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
      });
    });

  it("prints the audit as JSON and exits 0", async () => {
    const run = await hypofix(["--base", "base", "--head", "docs-only", "--sandbox", "docker", "--json"]);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { verdict: string; audit: unknown };
    expect(printed.verdict).toBe("not-run");
    expect(auditSchema.parse(printed.audit).notes[0]).toMatch(/touches no Python file/);
  });

  it("rejects an unknown ref with one line and exit 2", async () => {
    const run = await hypofix(["--base", "no-such-ref", "--sandbox", "local"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `hypofix: no-such-ref is not a commit in ${repo.dir} — pass a branch, tag or sha of that repository\n`,
    );
  });
});
