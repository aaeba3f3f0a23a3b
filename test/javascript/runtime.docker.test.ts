import { readFile } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { NO_EXCEPTION } from "../../src/lang/experiment.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { keyContent, NODE_SETUP_ENV } from "../../src/lang/javascript/setup.js";
import type { Runtime } from "../../src/lang/types.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { prepareEnvironment } from "../../src/sandbox/environment.js";
import { inspectImage } from "../../src/sandbox/images.js";
import { createSandbox } from "../../src/sandbox/index.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { copyFixture, removeImages } from "../environment/helpers.js";
import { startSetupMirror, type SetupMirror } from "../helpers/npm-mirror.js";

// The JavaScript runtime against real Node and real runners in the docker sandbox: Jest,
// Vitest, Mocha and node:test (the last two of them on TypeScript), installed once from the
// test's npm mirror by the language's own detected setup, each project a working directory.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 600_000 });
const config = loadConfig();
const docker = dockerClient();
const NODE_IMAGE = `${process.env.HYPOFIX_NODE_IMAGE ?? "hypofix/sandbox-node:1"}-node20`;
let mirror: SetupMirror;
let image: string;
let repo: string;

beforeAll(async () => {
  const base = await inspectImage(docker, NODE_IMAGE);
  if (!base) throw new Error(`${NODE_IMAGE} not found: bash scripts/provision.sh builds it`);
  repo = await copyFixture("js-runtime");
  mirror = await startSetupMirror({ lockfiles: [path.join(repo, "package-lock.json")], docker });
  const files = new Map<string, string>();
  for (const file of ["package.json", "package-lock.json"])
    files.set(file, await readFile(path.join(repo, file), "utf8"));
  const plan = javascript.environment.detectSetup(files)!;
  const env = await prepareEnvironment({
    base,
    repoDir: repo,
    workingDirectory: "",
    setup: plan.commands,
    dependencyFiles: [...files].map(([p, content]) => ({ path: p, content: keyContent(p, content) })),
    scope: `test-js-runtime-${process.pid}-${Date.now()}`,
    allowNetwork: true,
    limits: config.sandbox.limits,
    setupTimeoutMs: 480_000,
    setupEnv: { ...NODE_SETUP_ENV, ...mirror.setupEnv },
    egress: { ...config.environment.egress, allow: [], mirrors: [mirror.egress] },
    cacheBytes: 1024 ** 4,
  });
  image = env.image;
});
afterAll(async () => {
  await mirror?.close();
  await removeImages([image]);
});

/** The test runs the runtime logged: how many runner starts a step took. */
const runs: string[] = [];
const log = pino({ level: "debug" }, { write: (line: string) => void runs.push(line) });
const runnerStarts = () => runs.filter((line) => line.includes('"msg":"js test run"')).length;

async function withRuntime<T>(
  project: string,
  use: (runtime: Runtime, sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const sandbox = await createSandbox("docker", {
    repoDir: repo,
    image,
    limits: config.sandbox.limits,
    support: javascript.sandbox,
  });
  try {
    return await use(javascript.createRuntime(sandbox, { workingDirectory: project, log }), sandbox);
  } finally {
    await sandbox.dispose();
  }
}

const FAILING = "test/invoice.test.%s::volume discount > gives 10% from ten items on";
const PASSING = "test/invoice.test.%s::line amount > prices a line";

// Jest and Mocha cut every test's coverage out of one run; the others run each test alone.
describe.each([
  { project: "jest", ext: "js", bugLine: 4, amountLine: 9, coverageRuns: 1 },
  { project: "mocha", ext: "js", bugLine: 4, amountLine: 9, coverageRuns: 1 },
  { project: "vitest", ext: "ts", bugLine: 8, amountLine: 13, coverageRuns: 3 },
  { project: "node-test", ext: "ts", bugLine: 8, amountLine: 13, coverageRuns: 3 },
])("$project", ({ project, ext, bugLine, amountLine, coverageRuns }) => {
  const failing = `${project}/${FAILING.replace("%s", ext)}`;
  const passing = `${project}/${PASSING.replace("%s", ext)}`;
  const source = `${project}/src/invoice.${ext}`;

  it("runs the suite and one test by id, reads failures and coverage, and edits and runs on a scratch copy", async () => {
    await withRuntime(project, async (runtime, sandbox) => {
      const suite = await runtime.runTests();
      expect(suite.errors).toEqual([]);
      expect(suite.tests.map((t) => [t.id, t.outcome]).sort()).toEqual(
        [
          [failing, "failed"],
          [passing, "passed"],
          [`${project}/test/invoice.test.${ext}::volume discount > gives nothing below ten items`, "passed"],
        ].sort(),
      );
      const failure = suite.tests.find((t) => t.id === failing)!.failure!;
      expect(failure.frames.some((f) => f.file === `${project}/test/invoice.test.${ext}`)).toBe(true);
      expect(`${failure.type}: ${failure.message} ${failure.text}`).toMatch(/0\.1/);

      const one = await runtime.runTests([failing]);
      expect(one.tests.map((t) => [t.id, t.outcome])).toEqual([[failing, "failed"]]);
      const missing = await runtime.runTests([`${project}/test/invoice.test.${ext}::no such test`]);
      expect(missing.tests).toEqual([]);
      expect(missing.errors.join("\n")).toMatch(/was not found/);

      // Per-test lines of the source a person reads (TypeScript's, through the source maps).
      const before = runnerStarts();
      const coverage = await runtime.coverage([failing, passing]);
      expect(runnerStarts() - before).toBe(coverageRuns);
      expect(coverage.outcomes).toEqual({ [failing]: "failed", [passing]: "passed" });
      expect(coverage.perTest[failing]?.[source]).toContain(bugLine);
      expect(coverage.perTest[failing]?.[source]).not.toContain(amountLine);
      expect(coverage.perTest[passing]?.[source]).toEqual(expect.arrayContaining([bugLine, amountLine]));
      expect(coverage.functions.map((f) => f.qualname).sort()).toEqual(["lineAmount", "volumeDiscount"]);

      const evidence = await runtime.evidence(failing);
      // Vitest prints the received zero as `+0` (Object.is equality tells +0 from -0).
      expect(evidence?.comparison).toMatchObject({ left: expect.stringMatching(/^\+?0$/), right: "0.1" });

      const original = await sandbox.readFile(source);
      const fixed = await runtime.observe(failing, `REPLACE(${source}:${bugLine}, ">", ">=") AND RUN`);
      expect(fixed).toMatchObject({ kind: "edit", observation: NO_EXCEPTION });
      const still = await runtime.observe(failing, `REPLACE(${source}:${bugLine}, "0.1", "0.2") AND RUN`);
      expect(still.kind).toBe("edit");
      expect(still.observation).not.toBe(NO_EXCEPTION);
      expect(await sandbox.readFile(source)).toBe(original);

      const probe = await runtime.observe(failing, `b ${source}:${bugLine} ;; c ;; p quantity`);
      // The runtime's debugger joins the runner's own command for the one test (observe.ts).
      expect(probe.kind).toBe("debugger");
      // One hit: the value alone (`10`); several: "At each loop execution ...".
      expect(probe.observation).toMatch(/^(?:-?\d|At each)/);
      expect(probe.observation).not.toMatch(/not available|never reached|did not load/);
    });
  });
});
