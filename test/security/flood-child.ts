// Child process for flood-runner-channel.test.ts: the worker's side of a docker sandbox under
// 300 MiB floods without a newline. Prints one JSON line: what each flood got, and the peak RSS
// while they ran.
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dockerClient } from "../../src/sandbox/docker.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { Supervisor } from "../../src/sandbox/supervisor.js";
import { testOptions } from "../sandbox/limits.js";

const MIB = 1024 * 1024;
const FLOOD = 300 * MIB;
const status = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1]) *
  1024;

const repo = mkdtempSync(path.join(tmpdir(), "hypofix-repo-"));
writeFileSync(path.join(repo, "mod.py"), "x = 1\n");
const sb = await createSandbox("docker", testOptions(repo));
const container = dockerClient().getContainer((sb as unknown as { id: string }).id);
try {
  await sb.exec(["true"]);
  // Reset the peak (VmHWM) to the current RSS, so the peak below is the floods' own.
  writeFileSync("/proc/self/clear_refs", "5");
  const before = status("VmRSS");

  // 1. A command prints 300 MiB without a newline: the runner keeps the cap, the host gets that.
  const printed = await sb.exec(["sh", "-c", `head -c ${FLOOD} /dev/zero | tr '\\0' x`]);
  // 2. Test code writes 300 MiB without a newline into the runner's stdout.
  const injector = [
    "import os",
    "chunk = b'x' * (1 << 20)",
    "with open('/proc/%d/fd/1' % os.getppid(), 'wb', buffering=0) as out:",
    `    for _ in range(${FLOOD / MIB}): out.write(chunk)`,
  ].join("\n");
  const injected = await sb.exec(["python3", "-c", injector]);
  // 3. A runner gone rogue (whatever took it over) sends 300 MiB without a newline.
  const rogue = [
    "import sys",
    "sys.stdin.buffer.readline()",
    "chunk = b'x' * (1 << 20)",
    `for _ in range(${FLOOD / MIB}): sys.stdout.buffer.write(chunk)`,
  ].join("\n");
  const rogueStart = await Supervisor.start(container, ["python3", "-I", "-u", "-c", rogue]).then(
    () => "started",
    (err: Error) => err.message,
  );
  const after = await sb.exec(["echo", "still here"]);

  process.stdout.write(
    JSON.stringify({
      printed: { exitCode: printed.exitCode, length: printed.stdout.length, truncated: printed.truncated },
      injected: { exitCode: injected.exitCode, stderr: injected.stderr.slice(-300) },
      rogueStart,
      after: after.stdout,
      rssBefore: before,
      peak: status("VmHWM"),
    }) + "\n",
  );
} finally {
  await sb.dispose();
}
