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

type Kind = "build" | "egress" | "test";

export interface CliRun {
  code: number;
  result: Result;
  stderr: string;
  /**
   * docker inspect of the containers the run created, taken while they ran (build: the setup's
   * container; egress: its proxy; test: test sandboxes), and of the build containers' networks.
   */
  seen: Record<Kind, Docker.ContainerInspectInfo[]> & { networks: Docker.NetworkInspectInfo[] };
}

/** Which of the run's containers this is, by the name Hypofix gives it. */
const kindOf = (c: Docker.ContainerInfo): Kind =>
  c.Names.some((n) => n.startsWith("/hypofix-env-") && c.Labels[LABEL_ENV] === "1")
    ? "build"
    : c.Names.some((n) => n.startsWith("/hypofix-egress-"))
      ? "egress"
      : "test";

/**
 * `hypofix fix <dir> --sandbox docker --json` as a user runs it, watching the
 * containers it starts (labelled with its pid) and inspecting each while it runs.
 * Its setup may reach nothing but the mirrors a test configures unless `env` says otherwise.
 */
export async function hypofixFix(repoDir: string, env: Record<string, string> = {}): Promise<CliRun> {
  const out = await mkdtemp(path.join(tmpdir(), "hypofix-out-"));
  const child = spawn("node", [BIN, "fix", repoDir, "--sandbox", "docker", "--out", out, "--json"], {
    env: { ...process.env, HYPOFIX_PYTHON: PYTHON, HYPOFIX_SETUP_ALLOW_HOSTS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const exited = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  const seen = {
    build: new Map<string, Docker.ContainerInspectInfo>(),
    egress: new Map<string, Docker.ContainerInspectInfo>(),
    test: new Map<string, Docker.ContainerInspectInfo>(),
  };
  const networks = new Map<string, Docker.NetworkInspectInfo>();
  const docker = dockerClient();
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    const containers = await docker
      .listContainers({ filters: { label: [`${LABEL_OWNER_PID}=${child.pid}`] } })
      .catch(() => []);
    for (const c of containers) {
      const kind = kindOf(c);
      if (seen[kind].has(c.Id)) continue;
      const info = await docker
        .getContainer(c.Id)
        .inspect()
        .catch(() => undefined);
      if (!info) continue;
      seen[kind].set(c.Id, info);
      for (const name of kind === "build" ? Object.keys(info.NetworkSettings.Networks) : []) {
        const network = await docker
          .getNetwork(name)
          .inspect()
          .catch(() => undefined);
        if (network) networks.set(name, network as Docker.NetworkInspectInfo);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const code = await exited;
  const result = resultSchema.parse(JSON.parse(await readFile(path.join(out, "result.json"), "utf8")));
  return {
    code,
    result,
    stderr,
    seen: {
      build: [...seen.build.values()],
      egress: [...seen.egress.values()],
      test: [...seen.test.values()],
      networks: [...networks.values()],
    },
  };
}

/** Runs `argv` in a container of `image` without network; its output. */
export async function runInImage(image: string, argv: string[]): Promise<string> {
  const docker = dockerClient();
  const container = await docker.createContainer({
    Image: image,
    Cmd: argv,
    // A terminal: the log is the plain output, without the stream headers of a non-tty container.
    Tty: true,
    HostConfig: { NetworkMode: "none" },
  });
  try {
    await container.start();
    await container.wait();
    const logs: unknown = await container.logs({ stdout: true, stderr: true });
    // docker-modem hands back output that parses as JSON already parsed.
    const text = Buffer.isBuffer(logs) ? logs.toString("utf8") : JSON.stringify(logs);
    return text.replace(/\r\n/g, "\n");
  } finally {
    await container.remove({ force: true });
  }
}

/** Which of `needles` occur anywhere in `image` (every layer, its config and history: `docker save`). */
export async function foundInImage(image: string, needles: string[]): Promise<string[]> {
  const stream = await dockerClient().getImage(image).get();
  const longest = Math.max(...needles.map((n) => Buffer.byteLength(n)));
  const found = new Set<string>();
  let carry = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const window = Buffer.concat([carry, chunk]);
    for (const needle of needles) if (window.includes(needle)) found.add(needle);
    carry = window.subarray(Math.max(0, window.length - longest + 1));
  }
  return [...found];
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
