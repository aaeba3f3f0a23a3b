import { randomUUID } from "node:crypto";
import type Docker from "dockerode";
import type { EgressSettings } from "../config.js";
import { UserError } from "../errors.js";
import type { Logger } from "../log.js";
import { runExec } from "./docker.js";
import {
  ACCESS_LOG,
  FORWARD_PORT,
  PROXY_RUN_DIR,
  proxyPlan,
  refusedRequests,
  setupProxyEnv,
  squidConfig,
} from "./egress-squid.js";
import { LABEL_SANDBOX } from "./reaper.js";

/*
 * The setup's only way out. Each environment build gets a network of its own that is internal
 * (no route out) and has no address of the host on it (inhibit_ipv4: an internal bridge still
 * carries the gateway address, through which every service of the host answers). On it are the
 * build container and an egress proxy (Squid, docker/egress-proxy.*), which is also on the shared
 * egress network, a bridge with a route out and inter-container traffic off. What the proxy lets
 * through is egress-squid.ts's business.
 */

export const EGRESS_NETWORK = "hypofix-egress";
/** "egress" on the shared egress network, "setup" on a build's network, "proxy" on a proxy container. */
export const LABEL_EGRESS = "org.hypofix.egress";
const INHIBIT_IPV4 = "com.docker.network.bridge.inhibit_ipv4";
const ENABLE_ICC = "com.docker.network.bridge.enable_icc";
const MIB = 1024 * 1024;
/** inhibit_ipv4 came with Docker 20.10 (API 1.41); an older engine would leave the host reachable. */
const MIN_API_MINOR = 41;

export interface Egress {
  /** The build's network: the build container's NetworkMode. */
  network: string;
  /** The setup's environment: proxy variables and the mirrors' credential-free URLs. */
  env: Record<string, string>;
  /** What the proxy refused so far, as a line for a failed setup's log; undefined when nothing. */
  refused(): Promise<string | undefined>;
  /** Removes the proxy and the build's network; the build container must be gone first. */
  close(): Promise<void>;
}

/** A network's options as they must be; each difference is named. */
export function networkProblems(
  info: Pick<Docker.NetworkInspectInfo, "Driver" | "Internal" | "Options" | "Labels">,
  want: { internal: boolean; label: string; options: Record<string, string> },
): string[] {
  const problems: string[] = [];
  if (info.Driver !== "bridge") problems.push(`driver ${info.Driver}, not bridge`);
  if (Boolean(info.Internal) !== want.internal) problems.push(want.internal ? "not internal" : "internal");
  for (const [key, value] of Object.entries(want.options)) {
    if (info.Options?.[key] !== value)
      problems.push(`${key}=${info.Options?.[key] ?? "(unset)"}, not ${value}`);
  }
  if (info.Labels?.[LABEL_EGRESS] !== want.label) problems.push(`label ${LABEL_EGRESS} is not ${want.label}`);
  return problems;
}

const EGRESS_OPTIONS = { [ENABLE_ICC]: "false" };
const SETUP_OPTIONS = { [INHIBIT_IPV4]: "true" };

/**
 * The shared egress network, created once; an existing one is used only when its options are
 * ours (a bridge with a route out, inter-container traffic off, our label), else a clear error.
 */
export async function ensureEgressNetwork(
  docker: Docker,
  name = EGRESS_NETWORK,
): Promise<{ id: string; name: string }> {
  const existing = (await docker.listNetworks({ filters: { name: [name] } })).find((n) => n.Name === name);
  if (existing) {
    const info = (await docker.getNetwork(existing.Id).inspect()) as Docker.NetworkInspectInfo;
    const problems = networkProblems(info, { internal: false, label: "egress", options: EGRESS_OPTIONS });
    if (problems.length > 0) {
      throw new UserError(
        `docker network ${name} exists with other options than Hypofix's egress network: ${problems.join("; ")}`,
        `remove it (docker network rm ${name}); the next environment build creates it as it must be`,
      );
    }
    return { id: info.Id, name };
  }
  try {
    await docker.createNetwork({
      Name: name,
      Driver: "bridge",
      CheckDuplicate: true,
      Labels: { [LABEL_EGRESS]: "egress" },
      Options: EGRESS_OPTIONS,
    });
  } catch (err) {
    // Another worker created it at the same moment: it is checked like any existing one.
    if ((err as { statusCode?: number }).statusCode !== 409) throw err;
  }
  return ensureEgressNetwork(docker, name);
}

let engineChecked: Promise<void> | undefined;
function checkEngine(docker: Docker): Promise<void> {
  engineChecked ??= docker.version().then((v) => {
    const [major = 0, minor = 0] = v.ApiVersion.split(".").map(Number);
    if (major < 1 || (major === 1 && minor < MIN_API_MINOR)) {
      throw new UserError(
        `Docker ${v.Version} (API ${v.ApiVersion}) cannot keep the setup off the host: it needs Docker 20.10 or newer`,
        "upgrade the Docker engine",
      );
    }
  });
  return engineChecked;
}

/** The image's label says which Squid it holds: only one built with OpenSSL checks a TLS mirror's certificate. */
const PROXY_FLAVOUR = "squid-openssl";

async function checkProxyImage(docker: Docker, image: string): Promise<void> {
  const how = "bash scripts/provision.sh builds it (docker/build-egress-proxy-image-offline.sh)";
  const info = await docker
    .getImage(image)
    .inspect()
    .catch((err: unknown) => {
      if ((err as { statusCode?: number }).statusCode === 404) return undefined;
      throw err;
    });
  if (!info) throw new UserError(`egress proxy image ${image} not found`, how);
  const flavour = info.Config?.Labels?.[LABEL_EGRESS];
  if (flavour !== PROXY_FLAVOUR) {
    throw new UserError(
      `image ${image} is not Hypofix's egress proxy (label ${LABEL_EGRESS}=${flavour ?? "(none)"}, not ${PROXY_FLAVOUR})`,
      `remove it; ${how}`,
    );
  }
}

/**
 * Starts the proxy of one build on a new internal network. `labels` are the build container's
 * (owner, deadline, job): the proxy and the network are reaped like it.
 */
export async function openEgress(
  docker: Docker,
  settings: EgressSettings,
  labels: Record<string, string>,
  log?: Logger,
): Promise<Egress> {
  await checkEngine(docker);
  await checkProxyImage(docker, settings.image);
  const egressNetwork = await ensureEgressNetwork(docker);
  const suffix = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const networkName = `hypofix-setup-${suffix}`;
  const network = await docker.createNetwork({
    Name: networkName,
    Driver: "bridge",
    Internal: true,
    CheckDuplicate: true,
    Labels: { ...labels, [LABEL_SANDBOX]: "1", [LABEL_EGRESS]: "setup" },
    Options: SETUP_OPTIONS,
  });
  let proxy: Docker.Container | undefined;
  const close = async () => {
    await proxy?.remove({ force: true }).catch((err: unknown) => {
      if ((err as { statusCode?: number }).statusCode !== 404)
        log?.warn({ err }, "could not remove the egress proxy");
    });
    await network.remove().catch((err: unknown) => {
      if ((err as { statusCode?: number }).statusCode !== 404)
        log?.warn({ err }, "could not remove the setup network");
    });
  };
  try {
    // As asked, or the host would be reachable: an engine may ignore an option it does not know.
    const problems = networkProblems((await network.inspect()) as Docker.NetworkInspectInfo, {
      internal: true,
      label: "setup",
      options: SETUP_OPTIONS,
    });
    if (problems.length > 0)
      throw new Error(`the setup network ${networkName} came out ${problems.join("; ")}`);
    proxy = await docker.createContainer({
      name: `hypofix-egress-${suffix}`,
      Image: settings.image,
      // Squid starts once its configuration is in place (written below, never in the container's config).
      Cmd: [
        "sh",
        "-c",
        `while [ ! -e ${PROXY_RUN_DIR}/squid.conf ]; do sleep 0.05; done; exec squid -N -f ${PROXY_RUN_DIR}/squid.conf`,
      ],
      User: "proxy",
      Labels: { ...labels, [LABEL_EGRESS]: "proxy" },
      HostConfig: {
        NetworkMode: egressNetwork.name,
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        ReadonlyRootfs: true,
        LogConfig: { Type: "none", Config: {} },
        Tmpfs: {
          [PROXY_RUN_DIR]: "rw,noexec,nosuid,nodev,size=16m,uid=13,gid=13,mode=0700",
          "/tmp": "rw,noexec,nosuid,nodev,size=16m",
          "/var/spool/squid": "rw,noexec,nosuid,nodev,size=16m,uid=13,gid=13",
        },
        Memory: 256 * MIB,
        MemorySwap: 256 * MIB,
        PidsLimit: 64,
      },
    });
    await network.connect({ Container: proxy.id });
    await proxy.start();
    const info = await proxy.inspect();
    const listen = info.NetworkSettings.Networks[networkName]?.IPAddress;
    if (!listen) throw new Error(`the egress proxy has no address on ${networkName}`);
    const plan = proxyPlan(listen, settings);
    const run = (argv: string[], stdin?: string) =>
      runExec(proxy!, {
        argv,
        workingDir: "/",
        ...(stdin === undefined ? {} : { stdin }),
        timeoutMs: 20_000,
        maxOutputBytes: MIB,
      });
    // Parsed before it is put in place, so a mistake of ours is a clear error, not a silent exit.
    const conf = `${PROXY_RUN_DIR}/squid.conf`;
    const wrote = await run(
      ["sh", "-c", 'cat > "$1.new" && squid -k parse -f "$1.new" 2>&1 && mv "$1.new" "$1"', "sh", conf],
      squidConfig(plan),
    );
    if (wrote.exitCode !== 0) {
      const errors = wrote.stdout.split("\n").filter((l) => /FATAL|ERROR/.test(l));
      throw new Error(
        `the egress proxy refused its configuration: ${errors.join("; ") || `exit ${wrote.exitCode}`}`,
      );
    }
    const ready = await run([
      "bash",
      "-c",
      `for _ in $(seq 1 200); do (: </dev/tcp/${listen}/${FORWARD_PORT}) 2>/dev/null && exit 0; sleep 0.05; done; exit 1`,
    ]);
    if (ready.exitCode !== 0) {
      const cacheLog = await run(["tail", "-n", "5", `${PROXY_RUN_DIR}/cache.log`]);
      throw new Error(`the egress proxy did not start: ${cacheLog.stdout.trim() || "no log"}`);
    }
    log?.debug({ network: networkName, proxy: listen, mirrors: plan.mirrors.length }, "egress proxy ready");
    return {
      network: networkName,
      env: setupProxyEnv(plan),
      refused: async () => {
        const refused = refusedRequests((await run(["cat", ACCESS_LOG])).stdout);
        if (refused.length === 0) return undefined;
        return `the egress proxy refused ${refused.join(", ")} (only the mirrors and HYPOFIX_SETUP_ALLOW_HOSTS, at public addresses, are reachable)`;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
