import type Docker from "dockerode";
import { dockerClient } from "../../src/sandbox/docker.js";

/**
 * An address of this host that containers can send to: the gateway of a bridge network of the
 * test's own (the default bridge does not report its gateway). Services a test starts for
 * containers (package mirrors, a decoy host service) listen there, so nothing leaves the machine.
 */
export async function hostAddress(
  docker: Docker = dockerClient(),
): Promise<{ address: string; remove: () => Promise<void> }> {
  const network = await docker.createNetwork({
    Name: `hypofix-test-host-${process.pid}-${Date.now()}`,
    Driver: "bridge",
    Labels: { "org.hypofix.test": "1" },
  });
  const info = (await network.inspect()) as Docker.NetworkInspectInfo;
  const address = info.IPAM?.Config?.[0]?.Gateway;
  if (!address) throw new Error("the test's bridge network has no gateway address");
  return { address, remove: () => network.remove() };
}
