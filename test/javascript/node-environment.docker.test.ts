import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type Docker from "dockerode";
import tar from "tar-fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { restoreCommand } from "../../src/lang/javascript/setup.js";
import { dockerClient, runExec } from "../../src/sandbox/docker.js";
import { inspectImage, type BaseImage } from "../../src/sandbox/images.js";
import { removeImages } from "../environment/helpers.js";
import { startSetupMirror, type SetupMirror } from "../helpers/npm-mirror.js";
import { buildNodeFixture } from "./node-sandbox.js";

// A JavaScript project's environment end to end, against the real engine, the real egress
// proxy and real package managers: the lockfile's install in a build container of the Node
// image, every package (and pnpm or Yarn itself) from the test's mirror through the proxy and
// nothing else, then mocha run from the committed image without a network.
vi.setConfig({ testTimeout: 300_000 });
const docker = dockerClient();
const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));
const NODE_IMAGE = `${process.env.HYPOFIX_NODE_IMAGE ?? "hypofix/sandbox-node:1"}-node20`;
const built: string[] = [];
let mirror: SetupMirror;
let base: BaseImage;

beforeAll(async () => {
  const image = await inspectImage(docker, NODE_IMAGE);
  if (!image) throw new Error(`${NODE_IMAGE} not found: bash scripts/provision.sh builds it`);
  base = image;
  const lockfiles = ["js-mocha/package-lock.json", "js-pnpm/pnpm-lock.yaml", "js-yarn/yarn.lock"];
  mirror = await startSetupMirror({ lockfiles: lockfiles.map((l) => path.join(FIXTURES, l)), docker });
});
afterAll(async () => {
  await mirror?.close();
  await removeImages(built);
});

/**
 * A container as a test sandbox runs: no network, read-only root, /work and /tmp on
 * tmpfs. npm offline: without it, an npx that finds nothing local retries the registry
 * for over a minute before it fails.
 */
async function offlineContainer(image: string): Promise<Docker.Container> {
  const container = await docker.createContainer({
    Image: image,
    Cmd: ["sleep", "infinity"],
    User: "10001:10001",
    WorkingDir: "/work",
    Env: ["npm_config_offline=true"],
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

/** Builds the environment of a fixture (buildNodeFixture), removed after the file's tests. */
async function buildFixture(name: string) {
  const fixture = await buildNodeFixture(name, base, mirror);
  built.push(fixture.env.image);
  return fixture;
}

/** Copies the repository into an offline container of the environment, restores the installed tree, runs mocha. */
async function runOffline(image: string, repo: string, extra: string[][] = []) {
  const sandbox = await offlineContainer(image);
  try {
    const copy = await run(
      sandbox,
      ["tar", "-x", "--no-same-owner", "-C", "/work", "-f", "-"],
      tar.pack(repo),
    );
    expect(copy.exitCode).toBe(0);
    const before = await run(sandbox, ["npx", "--no-install", "mocha"]);
    expect((await run(sandbox, restoreCommand("/work"))).exitCode).toBe(0);
    const after = await run(sandbox, ["npx", "--no-install", "mocha"]);
    const more = [];
    for (const argv of extra) more.push(await run(sandbox, argv));
    return { before, after, more };
  } finally {
    await sandbox.remove({ force: true });
  }
}

describe("a Node environment from the npm mirror", () => {
  it("installs the lockfile with npm ci from the mirror, and runs the tests offline from the image", async () => {
    const requestsBefore = mirror.requests.length;
    const { repo, plan, env } = await buildFixture("js-mocha");
    expect(plan.commands).toEqual([["npm", "ci"]]);
    expect(env.cached).toBe(false);

    // Every tarball came from the mirror, and it had them all.
    const served = mirror.requests.slice(requestsBefore);
    const tarballs = served.filter((r) => r.path.endsWith(".tgz"));
    expect(tarballs).toContainEqual({ method: "GET", path: "/mocha/-/mocha-11.8.0.tgz", status: 200 });
    const lock = JSON.parse(await readFile(path.join(repo, "package-lock.json"), "utf8")) as {
      packages: Record<string, unknown>;
    };
    expect(tarballs).toHaveLength(Object.keys(lock.packages).length - 1);
    expect(served.filter((r) => r.status !== 200)).toEqual([]);

    // The registry reached the setup (and its install script, run there), never the image.
    const info = await docker.getImage(env.image).inspect();
    expect(info.Config.Env.join("\n")).not.toContain("npm_config_registry");

    // The installed tree is not in /work (a tmpfs in every sandbox) until it is restored.
    const marker = ["cat", "node_modules/.postinstall-ran"];
    const { before, after, more } = await runOffline(env.image, repo, [marker]);
    expect(before.exitCode).not.toBe(0);
    expect(after.stdout).toContain("2 passing");
    expect(after.exitCode).toBe(0);
    // The install script saw the registry at the egress proxy, not the mirror's own address.
    expect(more[0]?.exitCode).toBe(0);
    expect(more[0]?.stdout).toMatch(/^http:\/\/[\d.]+:\d+\/$/);
    expect(more[0]?.stdout).not.toBe(mirror.url);
  });

  it("installs a pnpm lockfile through corepack, pnpm itself from the mirror, and pnpm runs offline", async () => {
    const requestsBefore = mirror.requests.length;
    const { repo, plan, env } = await buildFixture("js-pnpm");
    expect(plan.commands).toEqual([["corepack", "pnpm", "install", "--frozen-lockfile"]]);
    const served = mirror.requests.slice(requestsBefore);
    expect(served).toContainEqual({ method: "GET", path: "/pnpm/-/pnpm-9.15.9.tgz", status: 200 });
    expect(served.filter((r) => r.status !== 200)).toEqual([]);

    const { before, after, more } = await runOffline(env.image, repo, [["pnpm", "exec", "mocha"]]);
    expect(before.exitCode).not.toBe(0);
    expect(after.stdout).toContain("2 passing");
    // corepack runs the pnpm the setup downloaded, from the image, with no network and a read-only root.
    expect(more[0]).toMatchObject({ exitCode: 0, stdout: expect.stringContaining("2 passing") });
  });

  it("installs a Yarn 1 lockfile from the mirror, though its resolved URLs name the public registry", async () => {
    const requestsBefore = mirror.requests.length;
    const { repo, env } = await buildFixture("js-yarn");
    const served = mirror.requests.slice(requestsBefore);
    expect(served).toContainEqual({ method: "GET", path: "/mocha/-/mocha-11.8.0.tgz", status: 200 });
    expect(served.filter((r) => r.status !== 200)).toEqual([]);
    const { after } = await runOffline(env.image, repo, []);
    expect(after.stdout).toContain("2 passing");
  });
});
