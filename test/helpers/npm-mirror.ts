import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type Docker from "dockerode";
import {
  lockedPackages,
  missingFromMirror,
  npmMirrorDir,
  startNpmMirror,
  type NpmMirror,
} from "../../bench/lib/npm-mirror.js";
import { registryEnv } from "../../src/lang/javascript/setup.js";
import { dockerClient } from "../../src/sandbox/docker.js";

export const LABEL_TEST_NETWORK = "org.hypofix.test-network";

export interface SetupMirror extends NpmMirror {
  /** The network a build container joins to reach the mirror (EnvironmentRequest.network). */
  network: string;
  /**
   * The build's variables (EnvironmentRequest.setupEnv): registryEnv(url), and corepack
   * told not to ask for registry signatures, which this host's registry does not serve
   * and so neither can the mirror; its package managers were checked against the
   * registry's integrity when they were fetched.
   */
  setupEnv: Record<string, string>;
  /** Stops the mirror and removes its network. */
  close(): Promise<void>;
}

/**
 * The npm registry of a test: the provisioned mirror folder (scripts/npm-mirror.ts),
 * served on the gateway of an internal Docker network of the test's own, the host's
 * address on that bridge and nothing else's. A build on that network reaches the
 * mirror and nothing past this machine, whatever a package manager tries.
 * HYPOFIX_NPM_MIRROR_HOST serves it on another address instead (a proxy's view).
 * Throws, naming what is missing, when the folder lacks a package of one of
 * `lockfiles`: the test could then only fail inside the build.
 */
export async function startSetupMirror(
  options: { lockfiles?: string[]; docker?: Docker } = {},
): Promise<SetupMirror> {
  const docker = options.docker ?? dockerClient();
  const dir = npmMirrorDir();
  await assertMirrorHolds(options.lockfiles ?? [], dir);
  const name = `hypofix-test-npm-${process.pid}-${randomUUID().slice(0, 8)}`;
  const network = await docker.createNetwork({
    Name: name,
    Driver: "bridge",
    Internal: true,
    Labels: { [LABEL_TEST_NETWORK]: "1" },
    Options: { "com.docker.network.bridge.enable_icc": "false" },
  });
  try {
    const host = process.env.HYPOFIX_NPM_MIRROR_HOST ?? (await gateway(network));
    const mirror = await startNpmMirror({ dir, host });
    return {
      ...mirror,
      network: name,
      setupEnv: { ...registryEnv(mirror.url), COREPACK_INTEGRITY_KEYS: "0" },
      close: async () => {
        await mirror.close();
        await network.remove();
      },
    };
  } catch (err) {
    await network.remove().catch(() => undefined);
    throw err;
  }
}

async function gateway(network: Docker.Network): Promise<string> {
  const info = await network.inspect();
  const address = (info.IPAM?.Config ?? []).map((c) => c.Gateway).find((g) => g && !g.includes(":"));
  if (!address) throw new Error(`network ${info.Name} has no IPv4 gateway`);
  return address;
}

export async function assertMirrorHolds(lockfiles: string[], dir: string = npmMirrorDir()): Promise<void> {
  const specs = [];
  for (const file of lockfiles) specs.push(...lockedPackages(file, await readFile(file, "utf8")));
  const missing = await missingFromMirror(specs, dir);
  if (missing.length > 0) {
    const named = missing.slice(0, 5).map((p) => `${p.name}@${p.version}`);
    throw new Error(
      `the npm mirror in ${dir} lacks ${missing.length} packages (${named.join(", ")}...): ` +
        "fill it with `npx tsx scripts/npm-mirror.ts` (bash scripts/provision.sh does)",
    );
  }
}
