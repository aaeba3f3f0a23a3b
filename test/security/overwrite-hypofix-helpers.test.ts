// Hostile case (issue 12, point 3): /hypofix was writable by the tests' uid, so test code
// could rewrite the helper that runs pytest and reports its results (hypofix_runtime.py)
// and every later run in the container would report what the test wanted.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPythonRuntime, PYTHON_HELPERS_DIR } from "../../src/lang/python/index.js";
import { HELPER_FILE } from "../../src/lang/python/protocol.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { ATTEMPT, hostileRepo } from "./hostile-repo.js";

const TEST_ID = "tests/test_calc.py::test_add";

/** Every way test code might change the helpers; writes what each attempt got to /tmp. */
const TAMPER = String.raw`
import errno, json, os, shutil, sys
helpers = sys.argv[1]
target = os.path.join(helpers, "${HELPER_FILE}")
FAKE = "print('\\n@@HYPOFIX-RESULT@@\\n' + '{}')\n"

${ATTEMPT}

def overwrite():
    with open(target, "w") as f:
        f.write(FAKE)

def replace():
    os.unlink(target)
    overwrite()

def rename():
    os.rename(target, target + ".old")

def chmod():
    os.chmod(target, 0o777)

def add():
    with open(os.path.join(helpers, "sitecustomize.py"), "w") as f:
        f.write("import os\n")

def chmod_dir():
    os.chmod(helpers, 0o777)

results = {name: attempt(fn) for name, fn in
           [("overwrite", overwrite), ("replace", replace), ("rename", rename),
            ("chmod", chmod), ("add", add), ("chmod_dir", chmod_dir)]}
with open("/tmp/tamper.json", "w") as f:
    json.dump(results, f)
`;

const repo = hostileRepo({
  "tamper.py": TAMPER,
  "tests/test_calc.py": [
    "import os, subprocess, sys",
    "from calc import add",
    "",
    "def test_add():",
    "    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
    "    helpers = os.path.dirname(sys.modules['__main__'].__file__)",
    "    subprocess.run([sys.executable, os.path.join(here, 'tamper.py'), helpers])",
    "    assert add(1, 2) == 3",
    "",
  ].join("\n"),
});
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const helperSource = readFileSync(path.join(PYTHON_HELPERS_DIR, HELPER_FILE), "utf8");

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", testOptions(repo));
});
afterAll(() => sb?.dispose());

it("test code cannot change the helpers, and the next run reports the truth", async () => {
  const runtime = createPythonRuntime(sb);
  const first = await runtime.runTests([TEST_ID]);
  expect(first.tests.map((t) => t.outcome)).toEqual(["failed"]);
  const tampered = JSON.parse(await sb.readFile("/tmp/tamper.json")) as Record<string, string>;
  expect(Object.keys(tampered)).toHaveLength(6);
  for (const [how, outcome] of Object.entries(tampered))
    expect([how, outcome]).toEqual([how, expect.stringMatching(/^(EACCES|EPERM)$/)]);

  expect(sha(await sb.readFile(`${sb.helpersDir}/${HELPER_FILE}`))).toBe(sha(helperSource));
  const again = await runtime.runTests([TEST_ID]);
  expect(again.tests.map((t) => t.outcome)).toEqual(["failed"]);
});

it("the sandbox's own work stays writable: the repository copy and /tmp", async () => {
  const res = await sb.exec(["sh", "-c", "echo x > /work/new.txt && echo y > /tmp/new.txt && echo ok"]);
  expect(res).toMatchObject({ exitCode: 0, stdout: "ok\n" });
});
