import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import {
  type EnvironmentRequest,
  prepareEnvironment,
  pruneEnvironments,
} from "../../src/sandbox/environment.js";
import { python } from "../../src/lang/python/index.js";
import { inspectImage, type BaseImage } from "../../src/sandbox/images.js";
import { removeImages, runInImage } from "./helpers.js";

// The environment builder against the real engine: what a setup sees, what the image keeps,
// forks, and least-recently-used pruning. Each test has its own scope, so images never mix.
// Image builds and commits on a shared 2-core machine.
vi.setConfig({ testTimeout: 300_000 });
const config = loadConfig();
const docker = dockerClient();
const built: string[] = [];
let base: BaseImage;
let repo: string;

beforeAll(async () => {
  base = (await inspectImage(docker, config.sandbox.image))!;
  repo = await mkdtemp(path.join(tmpdir(), "hypofix-envrepo-"));
  await writeFile(path.join(repo, "requirements.txt"), "\n");
  await mkdir(path.join(repo, "services", "api"), { recursive: true });
  await writeFile(path.join(repo, "services", "api", "marker"), "api\n");
});
afterAll(() => removeImages(built));

const request = (
  scope: string,
  setup: string[][],
  over: Partial<EnvironmentRequest> = {},
): EnvironmentRequest => ({
  base,
  repoDir: repo,
  workingDirectory: "",
  setup,
  dependencyFiles: [{ path: "requirements.txt", content: "\n" }],
  scope: `test-${scope}-${process.pid}-${Date.now()}`,
  allowNetwork: true,
  limits: { ...config.sandbox.limits, timeoutMs: 30_000 },
  setupTimeoutMs: 60_000,
  setupEnv: python.environment.setupEnv(config),
  // Nothing but the mirrors a test names: no setup here reaches a package index.
  egress: { ...config.environment.egress, allow: [], mirrors: [] },
  cacheBytes: 1024 ** 4,
  ...over,
});

describe("prepareEnvironment", () => {
  it("gives the setup the mirrors at the proxy, without their credentials, and keeps none of it in the image", async () => {
    const env = await prepareEnvironment(
      request(
        "mirror",
        [
          [
            "sh",
            "-c",
            'echo "$PIP_INDEX_URL|$PIP_EXTRA_INDEX_URL|$HTTPS_PROXY|$NO_PROXY" > /opt/hypofix/seen',
          ],
        ],
        {
          egress: {
            ...config.environment.egress,
            allow: [],
            // Never asked: the setup only prints what it was told.
            mirrors: [
              { kind: "pip-index", url: "http://ci:hunter2@127.0.0.1:9/simple" },
              { kind: "pip-extra-index", url: "http://127.0.0.1:9/extra" },
            ],
          },
        },
      ),
    );
    built.push(env.image);
    expect(env).toMatchObject({ cached: false });
    const seen = await runInImage(env.image, ["cat", "/opt/hypofix/seen"]);
    const proxy = /^http:\/\/([\d.]+):3130\/simple\|/.exec(seen)?.[1];
    expect(proxy, seen).toBeDefined();
    expect(seen).toBe(
      `http://${proxy}:3130/simple|http://${proxy}:3131/extra|http://${proxy}:3128|${proxy}\n`,
    );
    const info = await docker.getImage(env.image).inspect();
    expect(info.Config.Env.join("\n")).not.toMatch(/PIP_INDEX_URL|PROXY/);
    expect(JSON.stringify(info)).not.toContain("hunter2");
    // The repository copy lived on a tmpfs: it is not in the image.
    expect(await runInImage(env.image, ["ls", "-A", "/work"])).toBe("");
  });

  it("runs the setup in the working directory of a monorepo's project", async () => {
    const env = await prepareEnvironment(
      request("workdir", [["sh", "-c", "pwd > /opt/hypofix/pwd && cat marker >> /opt/hypofix/pwd"]], {
        workingDirectory: "services/api",
      }),
    );
    built.push(env.image);
    expect(await runInImage(env.image, ["cat", "/opt/hypofix/pwd"])).toBe("/work/services/api\napi\n");
  });

  it("reuses the image for the same inputs, and builds anew when a dependency file changes", async () => {
    const first = request("reuse", [["sh", "-c", "date +%s%N > /opt/hypofix/stamp"]]);
    const built1 = await prepareEnvironment(first);
    built.push(built1.image);
    const again = await prepareEnvironment(first);
    expect(again).toMatchObject({ image: built1.image, cached: true, buildMs: 0 });
    const changed = await prepareEnvironment({
      ...first,
      dependencyFiles: [{ path: "requirements.txt", content: "x\n" }],
    });
    built.push(changed.image);
    expect(changed.image).not.toBe(built1.image);
    expect(changed.cached).toBe(false);
  });

  it("never runs a fork head's setup, and says so; a cached environment is still used", async () => {
    const fork = request("fork", [["sh", "-c", "touch /opt/hypofix/ran"]], { allowNetwork: false });
    expect(await prepareEnvironment(fork)).toEqual({
      image: base.tag,
      cached: false,
      skipped: "setup not run: it never runs with network for a fork's head",
      buildMs: 0,
    });
    const trusted = await prepareEnvironment({ ...fork, allowNetwork: true });
    built.push(trusted.image);
    expect(await prepareEnvironment(fork)).toMatchObject({ image: trusted.image, cached: true });
  });

  it("reports a failing setup with the last lines of its output", async () => {
    await expect(
      prepareEnvironment(
        request("fail", [["sh", "-c", "for i in $(seq 1 40); do echo line $i; done; exit 3"]]),
      ),
    ).rejects.toMatchObject({
      name: "SetupFailed",
      message: expect.stringContaining("failed (exit 3)"),
      logTail: Array.from({ length: 20 }, (_, i) => `line ${i + 21}`).join("\n"),
    });
  });
});

describe("pruneEnvironments", () => {
  it("removes the least recently used environments past the size cap", async () => {
    const scope = `test-prune-${process.pid}-${Date.now()}`;
    const make = (name: string) =>
      prepareEnvironment({
        ...request("prune", [["sh", "-c", `head -c 2000000 /dev/urandom > /opt/hypofix/${name}`]]),
        scope,
      });
    const images: string[] = [];
    for (const name of ["a", "b", "c"]) {
      const env = await make(name);
      images.push(env.image);
      built.push(env.image);
      await new Promise((r) => setTimeout(r, 1100)); // last use is stamped to the second or better
    }
    // Using "a" again leaves "b" the least recently used.
    expect(await make("a")).toMatchObject({ image: images[0], cached: true });
    // Each image adds about 2 MB of its own: a 5 MB cap keeps two.
    expect(await pruneEnvironments(docker, 5_000_000, { scope })).toEqual([images[1]]);
    const present = await Promise.all(images.map((image) => inspectImage(docker, image)));
    expect(present.map((p) => p !== undefined)).toEqual([true, false, true]);
    expect(await pruneEnvironments(docker, 1024 ** 3, { scope })).toEqual([]);
  });
});
