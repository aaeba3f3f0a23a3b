// Hostile case (issue 12, point 3): HOME is /tmp, which the tests own. A .pth file planted
// in the user site-packages runs inside every Python that starts with the site module, the
// in-container runner included once a command kills it and the host starts a new one; code
// in the runner holds its key and speaks for the host. The runner starts with `python -I`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { hostileRepo } from "./hostile-repo.js";

const PLANT = [
  "import os, site",
  "d = site.getusersitepackages()",
  "os.makedirs(d, exist_ok=True)",
  "with open(os.path.join(d, 'zz_planted.pth'), 'w') as f:",
  "    f.write(\"import os; open('/tmp/ran-in-%d' % os.getpid(), 'w').close()\\n\")",
].join("\n");

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", testOptions(hostileRepo({ "plant.py": PLANT })));
});
afterAll(() => sb?.dispose());

const ranIn = async () =>
  (await sb.exec(["sh", "-c", "ls /tmp | grep '^ran-in-' || true"])).stdout.split("\n").filter(Boolean);

it("a planted .pth runs in the tests' own Python, never in a restarted runner", async () => {
  expect((await sb.exec(["python3", "plant.py"])).exitCode).toBe(0);
  // The other side: the plant works on an ordinary Python in the container.
  expect((await sb.exec(["python3", "-c", "pass"])).exitCode).toBe(0);
  const planted = await ranIn();
  expect(planted).toHaveLength(1);

  // Kill everything, runner included; the next command starts a new runner.
  await sb.exec(["sh", "-c", "kill -9 -1"]);
  expect((await sb.exec(["echo", "restarted"])).stdout).toBe("restarted\n");
  const runner = (await sb.exec(["sh", "-c", "echo $PPID"])).stdout.trim();
  expect(await ranIn()).toEqual(planted);
  expect(planted).not.toContain(`ran-in-${runner}`);
});
