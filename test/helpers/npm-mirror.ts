import { readFile } from "node:fs/promises";
import type Docker from "dockerode";
import {
  lockedPackages,
  missingFromMirror,
  npmMirrorDir,
  startNpmMirror,
  type NpmMirror,
} from "../../bench/lib/npm-mirror.js";
import type { Mirror } from "../../src/config.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { hostAddress } from "./host-address.js";

/** The public registry's URL, which every JavaScript package manager replaces with the one it is given. */
const PUBLIC_REGISTRY = "https://registry.npmjs.org";

export interface SetupMirror extends NpmMirror {
  /** The mirror as the egress proxy takes it (EgressSettings.mirrors): the setup gets it at the proxy. */
  egress: Mirror;
  /**
   * The build's own variables (EnvironmentRequest.setupEnv): corepack told not to ask for
   * registry signatures, which this host's registry does not serve and so neither can the
   * mirror; the mirror checked its package managers against the registry's integrity when
   * it fetched them.
   */
  setupEnv: Record<string, string>;
  /** Stops the mirror and removes the network whose gateway it listened on. */
  close(): Promise<void>;
}

/**
 * The npm registry of a test: the provisioned mirror folder (scripts/npm-mirror.ts),
 * served on an address of this host that containers can send to (hostAddress), for the
 * egress proxy to serve to a setup. Behind the proxy the mirror's own address is not the
 * client's, so its documents name tarballs at the public registry, which npm, pnpm and
 * corepack replace with the registry they are given. Throws, naming what is missing,
 * when the folder lacks a package of one of `lockfiles`: the test could then only fail
 * inside the build.
 */
export async function startSetupMirror(
  options: { lockfiles?: string[]; docker?: Docker } = {},
): Promise<SetupMirror> {
  const dir = npmMirrorDir();
  await assertMirrorHolds(options.lockfiles ?? [], dir);
  const host = await hostAddress(options.docker ?? dockerClient());
  try {
    const mirror = await startNpmMirror({ dir, host: host.address, publicUrl: PUBLIC_REGISTRY });
    return {
      ...mirror,
      egress: { kind: "npm-registry", url: mirror.url },
      setupEnv: { COREPACK_INTEGRITY_KEYS: "0" },
      close: async () => {
        await mirror.close();
        await host.remove();
      },
    };
  } catch (err) {
    await host.remove().catch(() => undefined);
    throw err;
  }
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
