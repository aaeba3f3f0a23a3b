import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { NODE_IMAGE_PREFIX, nodeImages, nodeImageTag } from "../../src/lang/javascript/images.js";
import { chooseNode } from "../../src/lang/javascript/node-version.js";
import { dockerClient, runExec } from "../../src/sandbox/docker.js";

// The Node images provisioning built (docker/sandbox-node.versions), as the sandbox uses them.
const docker = dockerClient();
const prefix = process.env.HYPOFIX_NODE_IMAGE ?? NODE_IMAGE_PREFIX;

async function versionsFile(): Promise<{ major: string; node: string; npm: string }[]> {
  const text = await readFile(new URL("../../docker/sandbox-node.versions", import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((line) => /^\d/.test(line))
    .map((line) => {
      const [major = "", node = "", npm = ""] = line.trim().split(/\s+/);
      return { major, node, npm };
    });
}

async function runIn(image: string, script: string): Promise<{ code: number | null; out: string }> {
  const container = await docker.createContainer({
    Image: image,
    Cmd: ["sleep", "infinity"],
    HostConfig: {
      NetworkMode: "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      Tmpfs: { "/tmp": "rw,size=16m" },
    },
  });
  try {
    await container.start();
    const res = await runExec(container, {
      argv: ["sh", "-c", script],
      workingDir: "/work",
      timeoutMs: 30_000,
      maxOutputBytes: 64 * 1024,
    });
    return { code: res.exitCode, out: res.stdout + res.stderr };
  } finally {
    await container.remove({ force: true });
  }
}

describe("the Node sandbox images", () => {
  it("are found by their label, one per line of docker/sandbox-node.versions", async () => {
    const lines = await versionsFile();
    const images = await nodeImages(docker, prefix);
    expect([...images.keys()].sort()).toEqual(lines.map((l) => l.node).sort());
    for (const line of lines) expect(images.get(line.node)?.tag).toBe(nodeImageTag(prefix, line.major));
    // The version choice over what is there: a range gets the newest image that satisfies it.
    const choice = chooseNode({
      available: [...images.keys()],
      packageJson: JSON.stringify({ engines: { node: ">=18" } }),
    });
    expect(images.get(choice!.version)?.tag).toBe(nodeImageTag(prefix, lines[lines.length - 1]!.major));
  });

  it("run their Node, npm and a supervisor's tools as uid 10001 on a read-only root, without python3", async () => {
    for (const line of await versionsFile()) {
      const script = [
        "id -u",
        "node --version",
        "npm --version",
        "for p in /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/pnpm /usr/bin/timeout /bin/kill /bin/sh; do test -x $p && echo $p; done | wc -l",
        "command -v python3 || echo no-python3",
        "timeout 1 sleep 5; echo timeout-exit=$?",
      ].join("; ");
      const { code, out } = await runIn(nodeImageTag(prefix, line.major), script);
      expect(code, out).toBe(0);
      expect(out.split("\n").slice(0, 6)).toEqual([
        "10001",
        `v${line.node}`,
        line.npm,
        "6",
        "no-python3",
        "timeout-exit=124",
      ]);
    }
  });
});
