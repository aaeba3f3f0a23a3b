import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createOfflineEngine } from "../../src/debug/offline/index.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { startSetupMirror, type SetupMirror } from "../helpers/npm-mirror.js";
import { fixLocally, fixture } from "../pipeline/helpers.js";

/*
 * Order-dependent and flaky JavaScript failures on real runs: the Docker sandbox, the project's
 * environment built from its lockfile (every package from the test's npm mirror), real Mocha, the
 * offline engine. A failure that repeats after the tests before it is a bug to repair, reproduced
 * with those tests in every later run; one that changes between identical runs stays flaky.
 */

const POLLUTER = "test/a-signup.test.js::signup > offers the free plan first";
const VICTIM = "test/b-plans.test.js::plans > offers two plans from the cheapest";
let mirror: SetupMirror;

beforeAll(async () => {
  mirror = await startSetupMirror();
}, 120_000);
afterAll(async () => {
  await mirror?.close();
});

function fix(name: string) {
  const config = loadConfig();
  config.environment.egress = { ...config.environment.egress, allow: [], mirrors: [mirror.egress] };
  return fixLocally(fixture(name), createOfflineEngine(), {
    backend: "docker",
    config,
    language: javascript,
    makeRuntime: (sandbox, where) => javascript.createRuntime(sandbox, where),
  }).outcome;
}

describe("order-dependent JavaScript failures (docker)", () => {
  it("a module's shared list emptied by another file's test: reproduced after the one test it needs, and repaired", async () => {
    const { result, patch } = await fix("js-order-mocha");
    expect(result.failingTests).toEqual([VICTIM]);
    // Two tests ran before it; the search kept the one that takes a plan from the shared list.
    expect(result.orderDependent).toEqual([{ test: VICTIM, precededBy: [POLLUTER] }]);
    expect(result.flaky).toBeUndefined();
    expect(result.status).toBe("fixed");
    expect(patch).toContain("+  return PLANS.slice(0, count);");
    expect(result.confidence).toMatchObject({ reproduced: true, suitePasses: true });
  }, 600_000);

  it("a failure that shows after another test only on some runs in that order stays flaky", async () => {
    const { result, report } = await fix("js-order-flaky");
    expect(result.status).toBe("flaky");
    expect(result.flaky).toEqual([
      { test: "test/visits.test.js::visits > counts a later visit on an even tick", kind: "intermittent" },
    ]);
    expect(result.orderDependent).toBeUndefined();
    expect(result.steps).toEqual([]);
    expect(report).toContain("is flaky: not fixed");
  }, 600_000);
});
