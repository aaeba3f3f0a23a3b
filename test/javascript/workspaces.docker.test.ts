import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { environmentPhase } from "../../src/pipeline/environment.js";
import { DEFAULT_REPO_CONFIG } from "../../src/repo-config.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { copyFixture, removeImages } from "../environment/helpers.js";
import { startSetupMirror, type SetupMirror } from "../helpers/npm-mirror.js";

// A workspace's package as the `working_directory` against the real engine, egress proxy and npm:
// the setup runs at the workspace root (its lockfile, every package from the test's mirror), and
// the runner detected and run in the package's folder reports ids from the repository root.
const config = loadConfig();
let mirror: SetupMirror;
let repo: string;
const built: string[] = [];

beforeAll(async () => {
  mirror = await startSetupMirror();
  config.environment.egress = { ...config.environment.egress, allow: [], mirrors: [mirror.egress] };
  repo = await copyFixture("js-workspaces");
}, 120_000);
afterAll(async () => {
  await mirror?.close();
  await removeImages(built);
});

describe("npm workspaces with working_directory (docker)", () => {
  it("installs from the workspace root and runs the package's tests from its folder", async () => {
    const outcome = await environmentPhase({
      repoDir: repo,
      backend: "docker",
      config,
      repoConfig: { ...DEFAULT_REPO_CONFIG, working_directory: "packages/billing" },
      language: javascript,
      scope: `js-workspaces-${process.pid}-${Date.now()}`,
      allowSetupNetwork: true,
    });
    if ("error" in outcome) throw new Error(outcome.error);
    built.push(outcome.image);
    expect(outcome.record.setup[0]).toMatch(/^npm ci/);
    expect(outcome.record.setupSource).toMatch(/package-lock\.json.*\(in the repository root\)/);
    expect(outcome.record.workingDirectory).toBe("packages/billing");

    const sandbox = await createSandbox("docker", {
      repoDir: repo,
      image: outcome.image,
      limits: config.sandbox.limits,
      support: javascript.sandbox,
    });
    try {
      const runtime = javascript.createRuntime(sandbox, { workingDirectory: "packages/billing" });
      const run = await runtime.runTests();
      expect(run.errors).toEqual([]);
      expect(run.tests.map((t) => [t.id, t.outcome]).sort()).toEqual([
        ["packages/billing/test/tax.test.js::tax > adds nothing at a zero rate", "passed"],
        ["packages/billing/test/tax.test.js::tax > rounds half a cent up", "failed"],
      ]);
      const failure = run.tests.find((t) => t.outcome === "failed")!.failure!;
      expect(failure.frames.map((f) => f.file)).toContain("packages/billing/test/tax.test.js");
      const fixed = await runtime.observe(
        "packages/billing/test/tax.test.js::tax > rounds half a cent up",
        'REPLACE(packages/billing/lib/tax.js:5, "Math.floor", "Math.round") AND RUN',
      );
      expect(fixed.observation).toBe("[No exception triggered]");
    } finally {
      await sandbox.dispose();
    }
  }, 600_000);
});
