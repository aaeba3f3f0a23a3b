import { readFile } from "node:fs/promises";
import type Docker from "dockerode";
import {
  lockedPackages,
  missingFromMirror,
  npmMirrorDir,
  startNpmMirror,
  type NpmMirror,
} from "../../bench/lib/npm-mirror.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { ensureSetupNetwork } from "../../src/sandbox/environment.js";

export type { NpmMirror } from "../../bench/lib/npm-mirror.js";

/**
 * The npm registry of a test: the provisioned mirror folder (scripts/npm-mirror.ts)
 * served where a build container reaches it, by default the setup network's gateway
 * (the host's address on that bridge, never the LAN's). HYPOFIX_NPM_MIRROR_HOST moves
 * it (a proxy's or another network's address). Throws, naming what is missing, when
 * the folder lacks a package of one of `lockfiles`: the test then could only fail
 * inside the build, or reach for the public registry.
 */
export async function startSetupMirror(
  options: { lockfiles?: string[]; docker?: Docker } = {},
): Promise<NpmMirror> {
  const dir = npmMirrorDir();
  await assertMirrorHolds(options.lockfiles ?? [], dir);
  const host =
    process.env.HYPOFIX_NPM_MIRROR_HOST ?? (await setupNetworkGateway(options.docker ?? dockerClient()));
  return startNpmMirror({ dir, host });
}

/** The IPv4 gateway of the setup network (created if absent): the host as its containers see it. */
export async function setupNetworkGateway(docker: Docker): Promise<string> {
  const id = await ensureSetupNetwork(docker);
  const info = await docker.getNetwork(id).inspect();
  const gateway = (info.IPAM?.Config ?? []).map((c) => c.Gateway).find((g) => g && !g.includes(":"));
  if (!gateway) throw new Error(`the setup network ${id.slice(0, 12)} has no IPv4 gateway`);
  return gateway;
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
