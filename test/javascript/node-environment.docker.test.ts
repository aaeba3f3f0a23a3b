import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type Docker from "dockerode";
import tar from "tar-fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import {
  detectNodeSetup,
  keyContent,
  persistCommand,
  registryEnv,
  restoreCommand,
} from "../../src/lang/javascript/setup.js";
import { dockerClient, runExec } from "../../src/sandbox/docker.js";
import { prepareEnvironment } from "../../src/sandbox/environment.js";
import { inspectImage, type BaseImage } from "../../src/sandbox/images.js";
import { copyFixture, removeImages } from "../environment/helpers.js";
import { startSetupMirror, type NpmMirror } from "../helpers/npm-mirror.js";

// A JavaScript project's environment end to end, against the real engine and real npm:
// `npm ci` in a build container of the Node image on the setup network, every package
// from the test's own mirror, then mocha run from the committed image without a network.
vi.setConfig({ testTimeout: 300_000 });
const config = loadConfig();
const docker = dockerClient();
const FIXTURE = fileURLToPath(new URL("../fixtures/js-mocha", import.meta.url));
const NODE_IMAGE = `${process.env.HYPOFIX_NODE_IMAGE ?? "hypofix/sandbox-node:1"}-node20`;
const built: string[] = [];
let mirror: NpmMirror;
let base: BaseImage;

beforeAll(async () => {
  const image = await inspectImage(docker, NODE_IMAGE);
  if (!image) throw new Error(`${NODE_IMAGE} not found: bash scripts/provision.sh builds it`);
  base = image;
  mirror = await startSetupMirror({ lockfiles: [path.join(FIXTURE, "package-lock.json")], docker });
});
afterAll(async () => {
  await mirror?.close();
  await removeImages(built);
});

/** A container as a test sandbox runs: no network, read-only root, /work and /tmp on tmpfs. */
async function offlineContainer(image: string): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: image,
    Cmd: ["sleep", "infinity"],
    User: "10001:10001",
    WorkingDir: "/work",
    HostConfig: {
      NetworkMode: "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      Tmpfs: { "/tmp": "rw,exec,size=64m", "/work": "rw,exec,size=256m,uid=10001,gid=10001,mode=0755" },
    },
  });
  await container.start();
  return container;
}

const run = (container: Docker.Container, argv: string[], stdin?: Parameters<typeof runExec>[1]["stdin"]) =>
  runExec(container, {
    argv,
    workingDir: "/work",
    timeoutMs: 60_000,
    maxOutputBytes: 1024 * 1024,
    ...(stdin ? { stdin } : {}),
  });

describe("a Node environment from the npm mirror", () => {
  it("installs the lockfile with npm ci from the mirror, and runs the tests offline from the image", async () => {
    const repo = await copyFixture("js-mocha");
    const files = new Map<string, string>();
    for (const name of ["package.json", "package-lock.json"]) {
      files.set(name, await readFile(path.join(repo, name), "utf8"));
    }
    const plan = detectNodeSetup(files);
    expect(plan?.commands).toEqual([["npm", "ci"]]);

    const env = await prepareEnvironment({
      base,
      repoDir: repo,
      workingDirectory: "",
      setup: [...plan!.commands, persistCommand("/work")],
      dependencyFiles: [...files].map(([p, content]) => ({ path: p, content: keyContent(p, content) })),
      scope: `test-node-env-${process.pid}-${Date.now()}`,
      allowNetwork: true,
      limits: config.sandbox.limits,
      setupTimeoutMs: 240_000,
      pip: {},
      setupEnv: registryEnv(mirror.url),
      cacheBytes: 1024 ** 4,
    });
    built.push(env.image);
    expect(env.cached).toBe(false);

    // Every tarball came from the mirror, and it had them all.
    const tarballs = mirror.requests.filter((r) => r.path.endsWith(".tgz"));
    expect(tarballs).toContainEqual({ method: "GET", path: "/mocha/-/mocha-11.8.0.tgz", status: 200 });
    const lock = JSON.parse(files.get("package-lock.json")!) as { packages: Record<string, unknown> };
    expect(tarballs).toHaveLength(Object.keys(lock.packages).length - 1);
    expect(mirror.requests.filter((r) => r.status !== 200)).toEqual([]);

    // The environment image keeps the installed tree out of /work (a tmpfs in every sandbox).
    const sandbox = await offlineContainer(env.image);
    try {
      expect(
        (await run(sandbox, ["tar", "-x", "--no-same-owner", "-C", "/work", "-f", "-"], tar.pack(repo)))
          .exitCode,
      ).toBe(0);
      const before = await run(sandbox, ["npx", "--no-install", "mocha"]);
      expect(before.exitCode).not.toBe(0);
      expect((await run(sandbox, restoreCommand("/work"))).exitCode).toBe(0);
      const tests = await run(sandbox, ["npx", "--no-install", "mocha"]);
      expect(tests.stdout).toContain("2 passing");
      expect(tests.exitCode).toBe(0);
    } finally {
      await sandbox.remove({ force: true });
    }
  });
});
