import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));
const repo = mkdtempSync(path.join(tmpdir(), "hypofix-repo-"));
writeFileSync(path.join(repo, "hello.py"), "print('hello from the repo')\n");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hypofix(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr });
    });
  });
}

describe("hypofix sandbox", () => {
  it("runs a command in a locked-down docker sandbox and exits with its code", async () => {
    const script =
      "id -u; ls /sys/class/net; grep CapEff /proc/self/status; python3 hello.py; echo oops >&2; exit 5";
    const run = await hypofix(["sandbox", repo, "--sandbox", "docker", "--", "sh", "-c", script]);
    expect(run.code).toBe(5);
    const [uid, ...rest] = run.stdout.trim().split("\n");
    expect(Number(uid)).toBeGreaterThan(0);
    expect(rest).toEqual(["lo", "CapEff:\t0000000000000000", "hello from the repo"]);
    expect(run.stderr).toBe("oops\n");
  });

  it("reports a timeout with exit code 124", async () => {
    const run = await hypofix([
      "sandbox",
      repo,
      "--sandbox",
      "local",
      "--timeout",
      "300",
      "--",
      "sleep",
      "30",
    ]);
    expect(run.code).toBe(124);
    expect(run.stderr).toBe("hypofix: command timed out after 300 ms and was killed\n");
  });

  it("reports a command killed by a signal with exit code 137", async () => {
    const run = await hypofix(["sandbox", repo, "--sandbox", "local", "--", "sh", "-c", "kill -9 $$"]);
    expect(run.code).toBe(137);
    expect(run.stderr).toBe("hypofix: command was killed (memory limit or a signal)\n");
  });

  it("rejects a missing repository directory with exit 2 and one line", async () => {
    const run = await hypofix(["sandbox", path.join(repo, "missing"), "--", "true"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("repository directory not found");
  });

  it("without an engine: docker fails in one line, auto warns and runs locally", async () => {
    const noEngine = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };
    const docker = await hypofix(["sandbox", repo, "--sandbox", "docker", "--", "true"], noEngine);
    expect(docker.code).toBe(2);
    expect(docker.stderr).toMatch(/^hypofix: Docker engine not reachable — .*--sandbox local\n$/);

    const auto = await hypofix(["sandbox", repo, "--", "sh", "-c", "cat hello.py"], noEngine);
    expect(auto.code).toBe(0);
    expect(auto.stdout).toBe("print('hello from the repo')\n");
    expect(auto.stderr).toMatch(
      /^hypofix: warning: Docker engine not reachable; running in the local sandbox/,
    );
  });
});
