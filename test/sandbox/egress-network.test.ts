import { hostname } from "node:os";
import type Docker from "dockerode";
import { afterAll, describe, expect, it } from "vitest";
import { dockerClient } from "../../src/sandbox/docker.js";
import { ensureEgressNetwork, LABEL_EGRESS } from "../../src/sandbox/egress.js";
import {
  LABEL_DEADLINE,
  LABEL_OWNER_HOST,
  LABEL_OWNER_PID,
  LABEL_SANDBOX,
  reapLeftovers,
} from "../../src/sandbox/reaper.js";

// The networks of the setup's egress against the real engine, under names of this test's own
// (the shared hypofix-egress is left alone).
const docker = dockerClient();
const made: string[] = [];
const fresh = (what: string) => {
  const name = `hypofix-test-${what}-${process.pid}-${Date.now()}`;
  made.push(name);
  return name;
};
const present = (name: string) =>
  docker
    .getNetwork(name)
    .inspect()
    .then(
      () => true,
      () => false,
    );
afterAll(async () => {
  for (const name of made)
    await docker
      .getNetwork(name)
      .remove()
      .catch(() => undefined);
});

describe("ensureEgressNetwork", () => {
  it("creates the egress network with a route out and inter-container traffic off, then reuses it", async () => {
    const name = fresh("egress");
    const created = await ensureEgressNetwork(docker, name);
    const info = (await docker.getNetwork(name).inspect()) as Docker.NetworkInspectInfo;
    expect(info).toMatchObject({
      Id: created.id,
      Driver: "bridge",
      Internal: false,
      Options: { "com.docker.network.bridge.enable_icc": "false" },
      Labels: { [LABEL_EGRESS]: "egress" },
    });
    expect(await ensureEgressNetwork(docker, name)).toEqual(created);
  });

  const ours = {
    Labels: { [LABEL_EGRESS]: "egress" },
    Options: { "com.docker.network.bridge.enable_icc": "false" },
  };
  it.each([
    [
      "inter-container traffic on",
      { ...ours, Options: {} },
      "com.docker.network.bridge.enable_icc=(unset), not false",
    ],
    ["internal", { ...ours, Internal: true }, "internal"],
    ["not ours", { ...ours, Labels: {} }, `label ${LABEL_EGRESS} is not egress`],
  ])("refuses an existing network of that name that is %s, and leaves it be", async (_, options, problem) => {
    const name = fresh("other");
    await docker.createNetwork({ Name: name, Driver: "bridge", ...options });
    await expect(ensureEgressNetwork(docker, name)).rejects.toMatchObject({
      name: "UserError",
      message: expect.stringContaining(`docker network ${name} exists with other options`),
    });
    await expect(ensureEgressNetwork(docker, name)).rejects.toThrow(problem);
    expect(await present(name)).toBe(true);
  });
});

describe("reapLeftovers", () => {
  it("removes a build's network past its deadline, and keeps one still in use", async () => {
    const labels = (deadline: number) => ({
      [LABEL_SANDBOX]: "1",
      [LABEL_EGRESS]: "setup",
      [LABEL_OWNER_PID]: String(process.pid),
      [LABEL_OWNER_HOST]: hostname(),
      [LABEL_DEADLINE]: String(deadline),
    });
    const [stale, live] = [fresh("stale"), fresh("live")];
    await docker.createNetwork({ Name: stale, Internal: true, Labels: labels(Date.now() - 1000) });
    await docker.createNetwork({ Name: live, Internal: true, Labels: labels(Date.now() + 600_000) });
    await reapLeftovers(docker);
    expect(await present(stale)).toBe(false);
    expect(await present(live)).toBe(true);
  });
});
