// Hostile case (issue 12, point 6): container logs used json-file without limits, so
// anything reaching the container's stdout (PID 1's) grew a file on the host's disk.
import { afterAll, beforeAll, expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { testOptions } from "../sandbox/limits.js";
import { hostileRepo } from "./hostile-repo.js";

const repo = hostileRepo({});

let sb: Sandbox;
beforeAll(async () => {
  sb = await createSandbox("docker", testOptions(repo));
});
afterAll(() => sb?.dispose());

it("keeps no container log, and test code cannot write to the container's stdout", async () => {
  const info = await dockerClient()
    .getContainer((sb as unknown as { id: string }).id)
    .inspect();
  expect(info.HostConfig.LogConfig?.Type).toBe("none");
  const flood = await sb.exec(["python3", "-c", "open('/proc/1/fd/1', 'wb').write(b'x' * (10 << 20))"]);
  expect(flood.exitCode).toBe(1);
  expect(flood.stderr).toContain("PermissionError");
  // The other side: the command's own stdout still reaches the host.
  expect((await sb.exec(["python3", "-c", "print('own output')"])).stdout).toBe("own output\n");
});
