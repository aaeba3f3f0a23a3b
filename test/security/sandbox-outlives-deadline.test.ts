// Hostile case (issue 12, point 6): a job whose tests hang or whose worker is stuck keeps
// its container forever; a warm worker only reaped at start, and only containers of dead
// owners. Now no command runs past the sandbox's deadline, and the periodic reaper removes a
// container past it even though its owner (this process) is alive.
import { afterAll, expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { createSandbox, SandboxExpired, type Sandbox } from "../../src/sandbox/index.js";
import { LABEL_DEADLINE, startReaper } from "../../src/sandbox/reaper.js";
import { testOptions } from "../sandbox/limits.js";
import { hostileRepo } from "./hostile-repo.js";

// Room for creating the container on a loaded machine before the deadline passes.
const MAX_AGE_MS = 20_000;
const repo = hostileRepo({});
const docker = dockerClient();
const idOf = (sb: Sandbox) => (sb as unknown as { id: string }).id;
const created: Sandbox[] = [];
afterAll(() => Promise.all(created.map((sb) => sb.dispose())));

it("runs nothing past the deadline, and the reaper removes the container of a live owner", async () => {
  const young = await createSandbox("docker", testOptions(repo));
  created.push(young);
  const started = Date.now();
  const old = await createSandbox("docker", testOptions(repo, { maxAgeMs: MAX_AGE_MS }));
  created.push(old);
  const deadline = Number((await docker.getContainer(idOf(old)).inspect()).Config.Labels[LABEL_DEADLINE]);
  expect(deadline).toBeGreaterThanOrEqual(started + MAX_AGE_MS);
  expect(deadline).toBeLessThanOrEqual(Date.now() + MAX_AGE_MS);

  // A command asked for a minute is cut at the deadline; the next one is refused.
  const hung = await old.exec(["sleep", "60"], { timeoutMs: 60_000 });
  expect(hung).toMatchObject({ timedOut: true, exitCode: null });
  expect(Date.now()).toBeGreaterThanOrEqual(deadline);
  await expect(old.exec(["true"])).rejects.toBeInstanceOf(SandboxExpired);
  expect((await young.exec(["true"])).exitCode).toBe(0);

  const stop = startReaper(docker, { intervalMs: 300 });
  try {
    await expect
      .poll(
        () =>
          docker
            .getContainer(idOf(old))
            .inspect()
            .then(
              () => "running",
              (e: { statusCode?: number }) => e.statusCode,
            ),
        {
          timeout: 15_000,
          interval: 300,
        },
      )
      .toBe(404);
  } finally {
    stop();
  }
  // Its owner is alive and its deadline is an hour away: the other container stays.
  expect((await docker.getContainer(idOf(young)).inspect()).State.Running).toBe(true);
});
