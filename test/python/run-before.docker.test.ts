import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import type { Runtime } from "../../src/lang/types.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";

// `before`: tests run first in the same process, unreported and unwatched (order-dependent failures).
const fixture = fileURLToPath(new URL("../fixtures/order-mutable-default", import.meta.url));
const POLLUTER = "tests/test_a_tags.py::test_first_note_gets_its_tag";
const VICTIM = "tests/test_c_notes.py::test_second_note_gets_only_its_tag";
let sandbox: Sandbox;
let runtime: Runtime;

beforeAll(async () => {
  sandbox = await createSandbox("docker", testOptions(fixture));
  runtime = createPythonRuntime(sandbox, { timeoutMs: 20_000 });
});
afterAll(async () => {
  await sandbox?.dispose();
});

describe("running a test after the tests it needs before it (docker)", () => {
  it("runs them first in one process and reports only the test asked for", async () => {
    const alone = await runtime.runTests([VICTIM]);
    expect(alone.tests.map((t) => [t.id, t.outcome])).toEqual([[VICTIM, "passed"]]);
    const after = await runtime.runTests([VICTIM], { before: [POLLUTER] });
    expect(after.tests.map((t) => [t.id, t.outcome])).toEqual([[VICTIM, "failed"]]);
    expect(after.tests[0]?.failure?.type).toBe("AssertionError");
  });

  it("a breakpoint watches only the test asked for, which sees what the earlier test left", async () => {
    const experiment = "b tags.py:5 ;; c ;; p list(tags)";
    const alone = await runtime.observe(VICTIM, experiment);
    expect(alone.observation).toBe("[]");
    const after = await runtime.observe(VICTIM, experiment, { before: [POLLUTER] });
    expect(after.observation).toBe("['urgent']");
  });

  it("an edit applies to the earlier tests too: the fix of the shared default makes the test pass", async () => {
    const fixed = await runtime.observe(
      VICTIM,
      'REPLACE(tags.py:4, "tags=[]", "tags=None") AND ADD(tags.py:5, "if tags is None: tags = []") AND RUN',
      { before: [POLLUTER] },
    );
    expect(fixed.observation).toBe("[No exception triggered]");
    // A copy at the return does not stop the earlier call's tag from staying in the default.
    const copied = await runtime.observe(
      VICTIM,
      'REPLACE(tags.py:6, "return tags", "return list(tags)") AND RUN',
      {
        before: [POLLUTER],
      },
    );
    expect(copied.observation).toContain("AssertionError");
  });

  it("coverage of the test asked for leaves out the earlier tests", async () => {
    const cov = await runtime.coverage([VICTIM], { before: [POLLUTER] });
    expect(Object.keys(cov.perTest)).toEqual([VICTIM]);
    expect(cov.outcomes).toEqual({ [VICTIM]: "failed" });
  });
});
