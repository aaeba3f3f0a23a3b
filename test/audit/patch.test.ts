import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelineAudit } from "../../src/audit/index.js";
import { loadConfig } from "../../src/config.js";
import { createPythonRuntime, python } from "../../src/lang/python/index.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { ScriptedModel, say } from "../doubles/scripted-model.js";
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

  it("with the llm engine, a stated call change is judged by the recorded call, not sent to the model", async () => {
    const prose = "The TENOFF branch subtracts 10 without a floor.";
    const call =
      "`discount` called with `(20.49, None)` returned `20.49` before the patch and returns `20` with it.";
    const model = new ScriptedModel([
      say(JSON.stringify({ claims: [{ text: prose, kind: "other", about: "old", test: "" }] })),
    ]);
    const audit = await pipelineAudit({ engine: "llm", model, options: { testTimeoutMs: 5_000 } })({
      sandbox,
      runtime: createPythonRuntime(sandbox),
      diff,
      explanation: `${prose}\n\n${call}`,
    });
    expect(JSON.stringify(model.requests[0]?.messages)).not.toContain("called with");
    expect(audit.claims.find((c) => c.text === call)).toMatchObject({
      verdict: "confirmed",
      evidence: expect.stringContaining(
        "recorded call `discount(20.49, None)` gave `20.49` before and `20` after",
      ),
    });
  });
});
