import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerClient, runExec } from "../../src/sandbox/docker.js";
import { createSandbox, type Sandbox, TRUNCATION_MARK } from "../../src/sandbox/index.js";
import { ignoredHelper } from "../../src/sandbox/helpers.js";
import { testOptions } from "./limits.js";
import { python, pythonOf } from "../../src/lang/python/index.js";

const PIDS = 64;
// Small enough that the memory test's hog is stopped quickly.
const MEMORY_MB = 256;
const repo = mkdtempSync(path.join(tmpdir(), "hypofix-repo-"));
writeFileSync(path.join(repo, "mod.py"), "def f():\n    return 1\n");

/** Lists the command lines of every process in the container. */
const PROCESSES = 'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done';

// One warm container for the whole file, as a job uses it.
let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", testOptions(repo, { pids: PIDS, memoryMb: MEMORY_MB }));
});
afterAll(() => sb?.dispose());

/**
 * The pid-limit tests get a container each: killed children stay zombies until
 * the container's init reaps them, and a test after them must not meet a full
 * pid table.
 */
async function inOwnSandbox(work: (own: Sandbox) => Promise<void>): Promise<void> {
  const own = await createSandbox("docker", testOptions(repo, { pids: PIDS, memoryMb: MEMORY_MB }));
  try {
    await work(own);
  } finally {
    await own.dispose();
  }
}

describe("docker sandbox", () => {
  it("runs as non-root with no network and no capabilities", async () => {
    const res = await sb.exec(["sh", "-c", "id -u; ls /sys/class/net; grep CapEff /proc/self/status"]);
    expect(res.exitCode).toBe(0);
    const [uid, ...rest] = res.stdout.trim().split("\n");
    expect(Number(uid)).toBeGreaterThan(0);
    expect(rest).toEqual(["lo", "CapEff:\t0000000000000000"]);
  });

  it("has the repository copy in the workdir and the helper files in helpersDir", async () => {
    expect(sb.workdir).toBe("/work");
    expect(await sb.readFile("mod.py")).toBe("def f():\n    return 1\n");
    const helpers = readdirSync(python.sandbox.helpers.dir).filter(
      (f) => !ignoredHelper(f, python.sandbox.helpers),
    );
    const listed = await sb.exec(["ls", "-A", sb.helpersDir]);
    expect(listed.stdout.split("\n").filter(Boolean).sort()).toEqual(helpers.sort());
    expect(path.posix.relative(sb.workdir, sb.helpersDir).startsWith("..")).toBe(true);
  });

  it("runs the python it reports", async () => {
    const res = await sb.exec([pythonOf(sb), "-c", "import pytest, coverage; print(6 * 7)"]);
    expect(res).toMatchObject({ exitCode: 0, stdout: "42\n", timedOut: false });
  });

  it("passes cwd, env and stdin, and reports a non-zero exit", async () => {
    await sb.writeFile("sub/dir/x.txt", "x");
    const res = await sb.exec(["sh", "-c", 'pwd; echo "$GREETING"; cat; exit 3'], {
      cwd: "sub/dir",
      env: { GREETING: "hej" },
      stdin: "from stdin",
    });
    expect(res).toMatchObject({ exitCode: 3, stdout: "/work/sub/dir\nhej\nfrom stdin", timedOut: false });
    const missing = await sb.exec(["hypofix-no-such-program"]);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain("hypofix-no-such-program");
  });

  it("kills a command and its children at the timeout", async () => {
    const res = await sb.exec(["sh", "-c", "sleep 600 & sleep 600; echo never"], { timeoutMs: 1000 });
    expect(res).toMatchObject({ timedOut: true, exitCode: null, stdout: "" });
    expect(res.durationMs).toBeGreaterThanOrEqual(1000);
    expect(res.durationMs).toBeLessThan(8000);
    const ps = await sb.exec(["sh", "-c", PROCESSES]);
    expect(ps.stdout).not.toContain("sleep 600");
  });

  it("ends processes that escaped into their own session once the command is done", async () => {
    const res = await sb.exec(["sh", "-c", "setsid sleep 601 >/dev/null 2>&1 & sleep 1; echo started"]);
    expect(res).toMatchObject({ exitCode: 0, stdout: "started\n" });
    const ps = await sb.exec(["sh", "-c", PROCESSES]);
    expect(ps.stdout).not.toContain("sleep 601");
  });

  it("stops a fork loop at the pid limit, and stays usable", () =>
    inOwnSandbox(async (sb) => {
      const script = [
        "import os, signal, time",
        "kids = []",
        "try:",
        "    while True:",
        "        pid = os.fork()",
        "        if pid == 0:",
        "            time.sleep(600)",
        "            os._exit(0)",
        "        kids.append(pid)",
        "except OSError as e:",
        "    print('stopped', len(kids), e.errno)",
        "for pid in kids:",
        "    os.kill(pid, signal.SIGKILL)",
      ].join("\n");
      const res = await sb.exec(["python3", "-c", script], { timeoutMs: 20_000 });
      expect(res.timedOut).toBe(false);
      const match = /^stopped (\d+) 11$/.exec(res.stdout.trim()); // 11 = EAGAIN
      expect(match, res.stdout + res.stderr).not.toBeNull();
      expect(Number(match?.[1])).toBeLessThan(PIDS);
      expect((await sb.exec(["true"])).exitCode).toBe(0);
    }));

  it("hits the pid limit with a real fork bomb, kills it at the timeout, and stays usable", () =>
    inOwnSandbox(async (sb) => {
      // The parent only sleeps, so it needs no fork while the bomb exhausts the pids.
      const bomb =
        "import subprocess, time; subprocess.Popen(['sh', '-c', 'b() { b | b & }; b']); time.sleep(600)";
      const res = await sb.exec(["python3", "-c", bomb], { timeoutMs: 3000 });
      expect(res).toMatchObject({ timedOut: true, exitCode: null });
      expect(res.stderr).toContain("Cannot fork");
      expect(res.durationMs).toBeLessThan(15_000);
      const ps = await sb.exec(["sh", "-c", PROCESSES]);
      expect(ps.exitCode).toBe(0);
      expect(ps.stdout.split("\n").filter((l) => l.startsWith("sh -c b()"))).toEqual([]);
    }));

  it("runs commands concurrently", async () => {
    const started = performance.now();
    const runs = await Promise.all([1, 2, 3].map((i) => sb.exec(["sh", "-c", `sleep 2; echo ${i}`])));
    expect(runs.map((r) => r.stdout)).toEqual(["1\n", "2\n", "3\n"]);
    // One after another would take at least 6 s.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("kills a command past the memory limit, and stays usable", async () => {
    const res = await sb.exec(["python3", "-c", "b = b'x' * (1024**3); print('allocated')"]);
    expect(res).toMatchObject({ exitCode: null, timedOut: false, stdout: "" });
    expect((await sb.exec(["echo", "alive"])).stdout).toBe("alive\n");
  });

  it("cuts a 10 MB print at the output cap and keeps draining", async () => {
    const cap = 1024 * 1024;
    const res = await sb.exec(
      ["python3", "-c", "import sys; sys.stdout.write('x' * 10_000_000); sys.stderr.write('done')"],
      { maxOutputBytes: cap },
    );
    expect(res).toMatchObject({ exitCode: 0, truncated: true, timedOut: false, stderr: "done" });
    expect(res.stdout).toBe("x".repeat(cap) + TRUNCATION_MARK);
  });

  it("cannot write outside the work dir", async () => {
    for (const target of ["/usr/evil", "/evil", "/etc/passwd"]) {
      const res = await sb.exec(["sh", "-c", `echo x >> ${target}`]);
      expect(res.exitCode, target).not.toBe(0);
      expect(res.stderr).toMatch(/Read-only file system|Permission denied/);
    }
    expect((await sb.exec(["sh", "-c", "echo x > /work/ok && echo y > /tmp/ok"])).exitCode).toBe(0);
  });

  it("reads and writes files, and restores a snapshot exactly", async () => {
    await sb.writeFile("notes/a.txt", "ünïcode\n");
    expect(await sb.readFile("notes/a.txt")).toBe("ünïcode\n");
    await expect(sb.readFile("missing.txt")).rejects.toThrow(/missing\.txt/);

    const before = await sb.exec(["sh", "-c", "find . | sort; cat mod.py"]);
    const snap = await sb.snapshot();
    await sb.writeFile("mod.py", "broken(");
    await sb.writeFile("new/file.py", "x = 1\n");
    await sb.exec(["rm", "notes/a.txt"]);
    await sb.restore(snap);
    const after = await sb.exec(["sh", "-c", "find . | sort; cat mod.py"]);
    expect(after.stdout).toBe(before.stdout);
    await expect(sb.restore("s999")).rejects.toThrow(/unknown snapshot/);
  });

  it("survives a command that kills every process it can, runner included", async () => {
    const res = await sb.exec(["sh", "-c", "kill -9 -1"]);
    expect(res.exitCode).toBeNull();
    expect(res.timedOut).toBe(false);
    expect((await sb.exec(["echo", "still here"])).stdout).toBe("still here\n");
  });

  it("applies timeout and output cap on the one-exec-per-command path too", async () => {
    const container = dockerClient().getContainer((sb as unknown as { id: string }).id);
    const base = { workingDir: "/work", timeoutMs: 1000, maxOutputBytes: 100 };
    const slow = await runExec(container, { ...base, argv: ["sh", "-c", "sleep 600 & sleep 600"] });
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
    expect(slow.durationMs).toBeLessThan(8000);
    const loud = await runExec(container, {
      ...base,
      timeoutMs: 30_000,
      argv: ["head", "-c", "5000000", "/dev/zero"],
    });
    expect(loud).toMatchObject({ exitCode: 0, truncated: true, timedOut: false });
    expect(loud.stdout).toBe("\0".repeat(100) + TRUNCATION_MARK);
  });

  it("is gone after dispose, and dispose can be called twice", async () => {
    const own = await createSandbox("docker", testOptions(repo));
    const id = (own as unknown as { id: string }).id;
    await own.dispose();
    await own.dispose();
    await expect(own.exec(["true"])).rejects.toThrow("sandbox already disposed");
    await expect(dockerClient().getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("docker sandbox network", () => {
  it("has only loopback, and refuses a setup command (setup runs in an environment build)", async () => {
    expect((await sb.exec(["ls", "/sys/class/net"])).stdout).toBe("lo\n");
    await expect(
      createSandbox("docker", { ...testOptions(repo), setupCommand: ["pip", "install", "-e", "."] }),
    ).rejects.toThrow("a docker sandbox takes no setup command");
  });
});

describe("createSandbox errors", () => {
  it("names a missing image and how to build it", async () => {
    const options = { ...testOptions(repo), image: "hypofix/no-such-image:0" };
    await expect(createSandbox("docker", options)).rejects.toMatchObject({
      name: "UserError",
      message: "sandbox image hypofix/no-such-image:0 not found",
      hint: expect.stringContaining("bash docker/build-sandbox-image-offline.sh"),
    });
  });

  it("rejects a repository directory that does not exist", async () => {
    await expect(createSandbox("docker", testOptions(path.join(repo, "nope")))).rejects.toMatchObject({
      name: "UserError",
    });
  });
});
