import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { LABEL_OWNER_PID } from "../../src/sandbox/reaper.js";
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
