import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type Docker from "dockerode";
import { resultSchema, type Result } from "../../src/result.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { LABEL_OWNER_PID } from "../../src/sandbox/reaper.js";
import { LABEL_ENV } from "../../src/sandbox/environment.js";

export { buildWheel } from "../../bench/lib/wheel.js";

const BIN = fileURLToPath(new URL("../../bin/hypofix.js", import.meta.url));
const PYTHON = process.env.HYPOFIX_PYTHON ?? "/usr/bin/python3";

/** A scratch copy of test/fixtures/<name>. */
export async function copyFixture(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `hypofix-${name}-`));
  await cp(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), dir, { recursive: true });
  return dir;
}

export interface CliRun {
  code: number;
  result: Result;
  stderr: string;
  /** docker inspect of the containers the run created, taken while they ran. */
  seen: { build: Docker.ContainerInspectInfo[]; test: Docker.ContainerInspectInfo[] };
}

/**
 * `hypofix fix <dir> --sandbox docker --json` as a user runs it, watching the
 * containers it starts (labelled with its pid) and inspecting each while it runs.
 */
export async function hypofixFix(repoDir: string, env: Record<string, string> = {}): Promise<CliRun> {
  const out = await mkdtemp(path.join(tmpdir(), "hypofix-out-"));
  const child = spawn("node", [BIN, "fix", repoDir, "--sandbox", "docker", "--out", out, "--json"], {
    env: { ...process.env, HYPOFIX_PYTHON: PYTHON, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  const seen = {
    build: new Map<string, Docker.ContainerInspectInfo>(),
    test: new Map<string, Docker.ContainerInspectInfo>(),
  };
  const docker = dockerClient();
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    const containers = await docker
      .listContainers({ filters: { label: [`${LABEL_OWNER_PID}=${child.pid}`] } })
      .catch(() => []);
    for (const c of containers) {
      const kind =
        c.Labels[LABEL_ENV] === "1" && c.Names.some((n) => n.startsWith("/hypofix-env-")) ? "build" : "test";
      if (seen[kind].has(c.Id)) continue;
      const info = await docker
        .getContainer(c.Id)
        .inspect()
        .catch(() => undefined);
      if (info) seen[kind].set(c.Id, info);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const code = await exited;
  const result = resultSchema.parse(JSON.parse(await readFile(path.join(out, "result.json"), "utf8")));
  return { code, result, stderr, seen: { build: [...seen.build.values()], test: [...seen.test.values()] } };
}

/** Removes the environment images a test built. */
export async function removeImages(tags: (string | undefined)[]): Promise<void> {
  const docker = dockerClient();
  for (const tag of new Set(tags)) {
    if (tag?.startsWith("hypofix/env:"))
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
  }
}
