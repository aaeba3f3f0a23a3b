import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/compose.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { DEFAULT_REPO_CONFIG } from "../../src/repo-config.js";
import { LocalSandbox } from "../../src/sandbox/local.js";
import { writeTree } from "../helpers/tree.js";
import { testOptions } from "../sandbox/limits.js";

/**
 * HYPOFIX_SANDBOX_TIMEOUT_MS is how long a test run of a fix may take: the suite run, its
 * reruns and the coverage run, not only validation. Real pytest in the local sandbox.
 */
describe("a fix run's test runs and HYPOFIX_SANDBOX_TIMEOUT_MS", () => {
  let repo: string;
  beforeAll(async () => {
    repo = await writeTree("hypofix-run-timeout-", {
      "test_slow.py": "import time\n\n\ndef test_slow():\n    time.sleep(4)\n",
    });
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  const suiteRun = async (timeoutMs: string) => {
    const config = loadConfig({ ...process.env, HYPOFIX_SANDBOX_TIMEOUT_MS: timeoutMs });
    const run = await createRunContext({
      repoDir: repo,
      engine: "offline",
      config,
      repoConfig: DEFAULT_REPO_CONFIG,
      log: createLogger("silent"),
    });
    const sandbox = await LocalSandbox.create(testOptions(repo));
    try {
      return await run.makeRuntime(sandbox, {}).runTests();
    } finally {
      await sandbox.dispose();
    }
  };

  it("cuts a test that runs past the limit", async () => {
    const run = await suiteRun("1500");
    expect(run.tests.find((t) => t.id === "test_slow.py::test_slow")?.outcome).not.toBe("passed");
  }, 60_000);

  it("lets the same test finish under a longer limit", async () => {
    const run = await suiteRun("20000");
    expect(run.tests.find((t) => t.id === "test_slow.py::test_slow")?.outcome).toBe("passed");
  }, 60_000);
});
