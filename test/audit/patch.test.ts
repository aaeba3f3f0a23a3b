import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelineAudit } from "../../src/audit/index.js";
import { loadConfig } from "../../src/config.js";
import { createPythonRuntime, python } from "../../src/lang/python/index.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { buildFixtureRepo } from "./fixture-repo.js";

// The pipeline's path: a patch as a unified diff, in a sandbox the pipeline made (real Docker), with the
// debugging log's conclusion as the explanation.
const repo = buildFixtureRepo("audit-shop");
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.dir, encoding: "utf8" });
const diff = git("diff", "base", "silent");
const config = loadConfig({});
let sandbox: Sandbox;

beforeAll(async () => {
  git("checkout", "-q", "silent");
  // The pipeline may hand over its sandbox with the validated patch still applied.
  sandbox = await createSandbox("docker", {
    repoDir: repo.dir,
    image: config.sandbox.image,
    limits: config.sandbox.limits,
    support: python.sandbox,
  });
});
afterAll(async () => {
  await sandbox?.dispose();
  repo.cleanup();
});

describe("pipelineAudit", () => {
  it("audits a diff against the hypothesis's claims, from a tree left at the patched side", async () => {
    const audit = await pipelineAudit({ engine: "offline", options: { testTimeoutMs: 5_000 } })({
      sandbox,
      runtime: createPythonRuntime(sandbox),
      diff,
      explanation:
        "The TENOFF branch subtracts 10 without a floor. Fixes tests/test_pricing.py::test_tenoff_small_total.",
    });
    expect(audit.claims.map((c) => [c.text, c.verdict])).toEqual([
      ["The TENOFF branch subtracts 10 without a floor.", "unverified"],
      ["Fixes tests/test_pricing.py::test_tenoff_small_total.", "confirmed"],
    ]);
    expect(audit.behaviourChanges).toContainEqual(
      expect.objectContaining({
        kind: "call",
        subject: "discount(20.49, None)",
        before: "20.49",
        after: "20",
      }),
    );
    // The audit leaves the tree at the base side.
    expect(await sandbox.readFile("shop/pricing.py")).toContain("        return total - 10\n");
  });
});
