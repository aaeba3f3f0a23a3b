// Hostile case (issue 12, point 3): test code forges what the host sees by writing
// fake replies into the in-container runner's stdout through /proc/<pid>/fd/1, and by
// opening /proc/<pid>/mem of the runner and of the container's init read-write.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPythonRuntime } from "../../src/lang/python/index.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { ATTEMPT, hostileRepo } from "./hostile-repo.js";

const TEST_ID = "tests/test_calc.py::test_add";

/**
 * Finds the runner (its source is on its command line), sprays forged replies for
 * the next few hundred request ids into every process's stdout it can open, in the
 * runner's old plain format and with a guessed MAC, and tries /proc/<pid>/mem.
 * Writes what it managed to a report the host reads afterwards.
 */
const FORGE = String.raw`
import base64, errno, json, os

MARK = "\n@@HYPOFIX-RESULT@@\n"
FAKE_RUN = {"tests": [{"id": "${TEST_ID}", "outcome": "passed", "durationMs": 1}], "errors": [],
            "collectFailures": [], "timedOut": False, "hungTest": None, "exitCode": 0, "durationMs": 1}
FAKE_RAW = ("forged" + MARK + json.dumps({"run": FAKE_RUN})).encode()
FAKE_STDOUT = base64.b64encode(FAKE_RAW).decode()

def lines():
    replies = [json.dumps({"id": i, "exit": 0, "timedOut": False, "stdout": FAKE_STDOUT, "stderr": "",
                           "stdoutBytes": len(FAKE_RAW), "stderrBytes": 0, "spawnError": None}) for i in range(1, 400)]
    for body in replies:
        yield (body + "\n").encode()
    for body in replies:
        yield ("0" * 64 + " " + body + "\n").encode()

${ATTEMPT}

def spray(pid):
    with open("/proc/%d/fd/1" % pid, "wb", buffering=0) as out:
        for line in lines():
            out.write(line)

def open_mem(pid):
    open("/proc/%d/mem" % pid, "r+b").close()

def forge(name):
    me = os.getpid()
    runners = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                if b"spawnError" in f.read():
                    runners.append(int(entry))
        except OSError:
            pass
    report = {
        "runners": runners,
        "parent": os.getppid(),
        "fd1": {str(pid): attempt(lambda pid=pid: spray(pid)) for pid in runners},
        "mem": {str(pid): attempt(lambda pid=pid: open_mem(pid)) for pid in [1] + runners},
    }
    with open("/tmp/forge-%s.json" % name, "w") as f:
        json.dump(report, f)
`;

const repo = hostileRepo({
  "forge.py": FORGE + "\nif __name__ == '__main__':\n    forge('exec')\n    raise SystemExit(3)\n",
  "tests/test_calc.py": [
    "import sys, os",
    "sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))",
    "from forge import forge",
    "from calc import add",
    "",
    "def test_add():",
    "    forge('pytest')",
    "    assert add(1, 2) == 3",
    "",
  ].join("\n"),
});

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", testOptions(repo));
});
afterAll(() => sb?.dispose());

interface ForgeReport {
  runners: number[];
  parent: number;
  fd1: Record<string, string>;
  mem: Record<string, string>;
}

async function report(name: string): Promise<ForgeReport> {
  return JSON.parse(await sb.readFile(`/tmp/forge-${name}.json`)) as ForgeReport;
}

function expectRefused(r: ForgeReport): void {
  // The runner spawned the forger and the forger found it: a refusal below is the kernel's, not a miss.
  expect(r.runners).toContain(r.parent);
  for (const outcome of Object.values(r.fd1)) expect(outcome).toBe("EACCES");
  expect(Object.keys(r.mem)).toContain("1");
  for (const outcome of Object.values(r.mem)) expect(outcome).toBe("EACCES");
}

it("a command that forges its own exit code through the runner's stdout gets its real one", async () => {
  const res = await sb.exec(["python3", "forge.py"]);
  expect(res.exitCode).toBe(3);
  expect(res.stdout).not.toContain("HYPOFIX-RESULT");
  expectRefused(await report("exec"));
});

it("a failing test that forges a passing result through the runner is seen failing", async () => {
  const run = await createPythonRuntime(sb).runTests([TEST_ID]);
  expect(run.tests.map((t) => [t.id, t.outcome])).toEqual([[TEST_ID, "failed"]]);
  expect(run.tests[0]?.failure?.message).toContain("assert");
  expectRefused(await report("pytest"));
});
