import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { UserError } from "../../src/errors.js";
import { javascript } from "../../src/lang/javascript/language.js";
import { environmentPhase } from "../../src/pipeline/environment.js";
import { DEFAULT_REPO_CONFIG } from "../../src/repo-config.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { NODE_IMAGE } from "./node-sandbox.js";

// HYPOFIX_NODE_IMAGE against the real engine: the environment phase looks for the Node images
// under the configured prefix (here the Node 20 image tagged under another name), and
// says so when that prefix has none.
const docker = dockerClient();
const PREFIX = `hypofix-test/node-override-${process.pid}:1`;
let repo: string;

beforeAll(async () => {
  // The family as provisioning makes it: the prefix itself (the default version) and one tag per major.
  const [name, tag] = PREFIX.split(":") as [string, string];
  for (const t of [tag, `${tag}-node20`]) await docker.getImage(NODE_IMAGE).tag({ repo: name, tag: t });
  repo = await mkdtemp(path.join(tmpdir(), "node-override-"));
  // No package.json: no setup, so the environment is the base image itself.
  await writeFile(path.join(repo, ".nvmrc"), "20\n");
});
afterAll(async () => {
  for (const t of [PREFIX, `${PREFIX}-node20`])
    await docker
      .getImage(t)
      .remove({ noprune: true })
      .catch(() => undefined);
  if (repo) await rm(repo, { recursive: true, force: true });
});

const phase = (prefix: string) =>
  environmentPhase({
    repoDir: repo,
    backend: "docker",
    config: loadConfig({ ...process.env, HYPOFIX_NODE_IMAGE: prefix }),
    repoConfig: DEFAULT_REPO_CONFIG,
    language: javascript,
    scope: `node-override-${process.pid}`,
    allowSetupNetwork: false,
  });

describe("HYPOFIX_NODE_IMAGE (docker)", () => {
  it("chooses the Node version among the images under the configured prefix", async () => {
    const outcome = await phase(PREFIX);
    expect("error" in outcome).toBe(false);
    if ("error" in outcome) return;
    expect(outcome.image).toBe(`${PREFIX}-node20`);
    expect(outcome.record).toMatchObject({ version: "20", image: `${PREFIX}-node20` });
  }, 60_000);

  it("a prefix with no Node image is refused, naming it", async () => {
    const missing = `hypofix-test/no-such-node-${process.pid}:1`;
    await expect(phase(missing)).rejects.toThrow(UserError);
    await expect(phase(missing)).rejects.toThrow(missing);
  }, 60_000);
});
