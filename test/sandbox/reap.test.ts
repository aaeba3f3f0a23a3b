import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { LABEL_DEADLINE, LABEL_OWNER_HOST, LABEL_OWNER_PID, reapReason } from "../../src/sandbox/reaper.js";
import { createSandbox } from "../../src/sandbox/index.js";
import { testOptions } from "./limits.js";

const holder = fileURLToPath(new URL("./hold-sandbox.ts", import.meta.url));

// This file's first createSandbox is the "next start" after a crash: it must reap.
it("reaps the container of a killed owner process on the next start", async () => {
  const repo = mkdtempSync(path.join(tmpdir(), "hypofix-repo-"));
  const child = spawn(process.execPath, ["--import", "tsx", holder, repo], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => (out += chunk));
  const died = once(child, "exit").then(([code]) => {
    throw new Error(`holder exited early (${code})`);
  });
  while (!out.includes("\n")) await Promise.race([once(child.stdout, "data"), died]);
  const id = out.trim();

  const docker = dockerClient();
  const info = await docker.getContainer(id).inspect();
  expect(info.Config.Labels[LABEL_OWNER_PID]).toBe(String(child.pid));
  child.kill("SIGKILL");
  await once(child, "exit");
  // Killed without dispose: the container outlives its owner.
  expect((await docker.getContainer(id).inspect()).State.Running).toBe(true);

  const next = await createSandbox("docker", testOptions(repo));
  try {
    await expect(docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
  } finally {
    await next.dispose();
  }
});

describe("reapReason", () => {
  const now = 1_000_000;
  const labels = (over: Record<string, string>) => ({
    [LABEL_OWNER_HOST]: "here",
    [LABEL_OWNER_PID]: "42",
    [LABEL_DEADLINE]: String(now + 1000),
    ...over,
  });
  const alive = () => true;
  const dead = () => false;

  it("keeps a container of a live owner before its deadline", () => {
    expect(reapReason(labels({}), now, "here", alive)).toBeUndefined();
  });

  it("reaps a container past its deadline, whoever owns it", () => {
    expect(reapReason(labels({ [LABEL_DEADLINE]: String(now - 1) }), now, "here", alive)).toBe(
      "past deadline",
    );
    expect(reapReason(labels({ [LABEL_DEADLINE]: String(now - 1) }), now, "elsewhere", alive)).toBe(
      "past deadline",
    );
  });

  it("reaps a container whose owner on this host is gone, never one of another host's", () => {
    expect(reapReason(labels({}), now, "here", dead)).toBe("owner gone");
    expect(reapReason(labels({}), now, "elsewhere", dead)).toBeUndefined();
    // Containers made before deadlines were labelled: only the owner rule applies.
    expect(reapReason(labels({ [LABEL_DEADLINE]: "" }), now, "here", alive)).toBeUndefined();
  });
});
