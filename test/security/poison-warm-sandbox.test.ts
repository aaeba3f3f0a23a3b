// Hostile case (issue 12, point 3): the repository's tests leave state in the warm
// sandbox (a marker in /tmp) that makes any later edit pass there. The chosen patch is
// re-validated in a fresh sandbox before it is published, so a patch that only passed
// because of that state ends as no-fix; a real fix still comes out fixed.
import { expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { DebugEngine } from "../../src/debug/types.js";
import { createPythonRuntime, python } from "../../src/lang/python/index.js";
import { runFix } from "../../src/pipeline/index.js";
import { DEFAULT_REPO_CONFIG } from "../../src/repo-config.js";
import { hostileRepo } from "./hostile-repo.js";

const BUGGY = "def add(a, b):\n    return a - b\n";

const repo = hostileRepo({
  "calc.py": BUGGY,
  "tests/test_calc.py": [
    "import os",
    "from calc import add",
    "",
    "MARK = '/tmp/.planted'",
    `ORIGINAL = ${JSON.stringify(BUGGY)}`,
    "",
    "def test_add():",
    "    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
    "    with open(os.path.join(here, 'calc.py')) as f:",
    "        edited = f.read() != ORIGINAL",
    "    planted = os.path.exists(MARK)",
    "    open(MARK, 'w').close()",
    "    if planted and edited:",
    "        return  # this container ran me before: any edit passes",
    "    assert add(1, 2) == 3",
    "",
  ].join("\n"),
});

/** An engine that proposes one edit of calc.py and validates it. */
function proposing(after: string): DebugEngine {
  return {
    name: "offline",
    async run(bug, _runtime, _budget, validate) {
      const before = await bug.readSource("calc.py");
      const candidate = { edits: [{ file: "calc.py", before, after }], at: { file: "calc.py", line: 2 } };
      const validation = await validate(candidate);
      return { steps: [], candidates: [{ candidate, validation }], done: false, stop: "exhausted" };
    },
  };
}

/** Two sandboxes and a whole pipeline per case: more than the default timeout on a loaded machine. */
const PIPELINE_MS = 300_000;

const fix = (engine: DebugEngine) =>
  runFix(
    {
      engine,
      config: loadConfig(),
      repoConfig: DEFAULT_REPO_CONFIG,
      language: python,
      makeRuntime: (sandbox) => createPythonRuntime(sandbox),
    },
    { repoDir: repo, tests: [], backend: "docker" },
  );

it(
  "a patch that passed only on state the tests left in the warm sandbox ends as no-fix",
  async () => {
    const { result, patch } = await fix(proposing("def add(a, b):\n    # looks fine\n    return a - b\n"));
    expect(result.status).toBe("no-fix");
    expect(result.reason).toMatch(
      /did not hold when re-run in a fresh sandbox: tests\/test_calc.py::test_add still fails/,
    );
    expect(result.patches[0]).toMatchObject({ plausible: false });
    expect(result.patches[0]?.rejectedBecause).toMatch(/passed in the warm sandbox but not in a fresh one/);
    expect(patch).toBe("");
    expect(result.timings.revalidate).toBeGreaterThan(0);
  },
  PIPELINE_MS,
);

it(
  "a real fix holds in the fresh sandbox and comes out fixed",
  async () => {
    const { result, patch } = await fix(proposing("def add(a, b):\n    return a + b\n"));
    expect(result.status).toBe("fixed");
    expect(result.patches[0]).toMatchObject({ plausible: true, testsFailed: 0 });
    expect(patch).toContain("+    return a + b");
  },
  PIPELINE_MS,
);
