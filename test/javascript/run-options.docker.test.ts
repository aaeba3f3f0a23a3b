import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { NO_EXCEPTION } from "../../src/lang/experiment.js";
import { javascript } from "../../src/lang/javascript/language.js";
import type { Runtime } from "../../src/lang/types.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { inspectImage } from "../../src/sandbox/images.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { removeImages } from "../environment/helpers.js";
import { startSetupMirror, type SetupMirror } from "../helpers/npm-mirror.js";
import { buildNodeFixture, NODE_IMAGE } from "./node-sandbox.js";

// RunOptions on real runners in the docker sandbox: `before` (the tests an order-dependent
// failure needs, run first in the same run and not reported) and `testTimeoutMs` (each test's
// limit, as the runner's own timeout: a test that hangs fails as a timeout and the run goes on).
vi.setConfig({ testTimeout: 300_000, hookTimeout: 600_000 });
const config = loadConfig();
const docker = dockerClient();
let mirror: SetupMirror;
let image: string;
let repo: string;

beforeAll(async () => {
  const base = await inspectImage(docker, NODE_IMAGE);
  if (!base) throw new Error(`${NODE_IMAGE} not found: bash scripts/provision.sh builds it`);
  mirror = await startSetupMirror({ docker });
  const built = await buildNodeFixture("js-order", base, mirror);
  repo = built.repo;
  image = built.env.image;
});
afterAll(async () => {
  await mirror?.close();
  await removeImages([image]);
});

async function withRuntime<T>(project: string, use: (runtime: Runtime) => Promise<T>): Promise<T> {
  const sandbox = await createSandbox("docker", {
    repoDir: repo,
    image,
    limits: config.sandbox.limits,
    support: javascript.sandbox,
  });
  try {
    return await use(javascript.createRuntime(sandbox, { workingDirectory: project, timeoutMs: 60_000 }));
  } finally {
    await sandbox.dispose();
  }
}

describe.each([
  { project: "jest", ext: "js", polluter: "test/plans.test.js::plans", hang: "test/hang.test.js" },
  { project: "mocha", ext: "js", polluter: "test/a-signup.test.js::signup", hang: "hang/hang.test.js" },
  { project: "vitest", ext: "ts", polluter: "test/plans.test.ts::plans", hang: "test/hang.test.ts" },
  { project: "node-test", ext: "ts", polluter: "test/plans.test.ts::plans", hang: "test/hang.test.ts" },
])("$project", ({ project, ext, polluter, hang }) => {
  const victimFile = project === "mocha" ? "test/b-plans.test.js" : `test/plans.test.${ext}`;
  const victim = `${project}/${victimFile}::plans > offers two plans from the cheapest`;
  const first = `${project}/${polluter} > offers the free plan first`;
  const unrelated = `${project}/${polluter} > names a plan`;
  const hung = `${project}/${hang}::replies > waits for a reply that never comes`;
  const next = `${project}/${hang}::replies > answers at once`;

  it("runs the tests of `before` first, reports only those asked for, and cuts a hanging test at its limit", async () => {
    await withRuntime(project, async (runtime) => {
      const alone = await runtime.runTests([victim]);
      expect(alone.tests.map((t) => [t.id, t.outcome])).toEqual([[victim, "passed"]]);
      // An unrelated test first changes nothing; the one that takes a plan leaves the list shorter.
      const after = async (before: string[]) =>
        (await runtime.runTests([victim], { before })).tests.map((t) => [t.id, t.outcome]);
      expect(await after([unrelated])).toEqual([[victim, "passed"]]);
      expect(await after([first, unrelated])).toEqual([[victim, "failed"]]);

      // An edit applies to the earlier tests too: `slice` copies, and the test passes after them.
      const source = `${project}/src/plans.${ext}`;
      const line = ext === "ts" ? 7 : 5;
      const fixed = await runtime.observe(victim, `REPLACE(${source}:${line}, "splice", "slice") AND RUN`, {
        before: [first],
      });
      expect(fixed.observation).toBe(NO_EXCEPTION);
      const unfixed = await runtime.observe(victim, `REPLACE(${source}:${line}, "count", "count") AND RUN`, {
        before: [first],
      });
      expect(unfixed.observation).not.toBe(NO_EXCEPTION);

      const limited = await runtime.runTests([hung, next], { testTimeoutMs: 1_000, timeoutMs: 5_000 });
      if (project === "node-test") {
        // node:test's --test-timeout would limit each file as a whole, not each test: the per-test
        // limit is not passed, and the run's own limit (with its grace) stops the hang.
        expect(limited.timedOut).toBe(true);
        expect(limited.tests.map((t) => t.id)).toEqual([]);
        expect(limited.errors.join("\n")).toMatch(/killed at its timeout/);
        return;
      }
      expect(limited.timedOut).toBe(false);
      expect(limited.tests.map((t) => [t.id, t.outcome]).sort()).toEqual(
        [
          [hung, "failed"],
          [next, "passed"],
        ].sort(),
      );
      expect(limited.tests.find((t) => t.id === hung)?.failure).toMatchObject({
        type: "TestTimeout",
        message: expect.stringMatching(/time|Timeout/),
      });
    });
  });
});
