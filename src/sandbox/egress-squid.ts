import type { AllowedHost, EgressSettings, Mirror } from "../config.js";

/*
 * What the egress proxy of one environment build does, as Squid configuration, and what the
 * setup is told about it. Pure: src/sandbox/egress.ts starts the proxy and writes this in.
 *
 * The forward port lets through exactly the allowed host:port pairs; a name whose addresses
 * include a private, loopback, link-local or otherwise non-public one is refused (Squid checks
 * the addresses it resolved and connects to one of those same addresses: its DNS cache keeps an
 * answer at least negative_dns_ttl). An IPv4 entry is allowed only when the request names that
 * address; CONNECT to any other address literal is refused.
 *
 * Each mirror gets a port of its own where Squid is the mirror (a reverse proxy): only GET and
 * HEAD, only to that upstream, with the upstream's credentials added by Squid. The setup sees
 * `http://<proxy>:<port>/<path>` and never the credentials.
 */

export const FORWARD_PORT = 3128;
const FIRST_MIRROR_PORT = 3130;
/** Where the configuration, pid file and logs live in the proxy container (a tmpfs). */
export const PROXY_RUN_DIR = "/run/hypofix";
export const ACCESS_LOG = `${PROXY_RUN_DIR}/access.log`;

/**
 * Addresses a setup never reaches through a name: IANA's special-purpose ranges (this host,
 * private, shared, loopback, link-local, documentation, benchmarking, multicast, reserved) and
 * their IPv6 counterparts, with the v6 forms that embed a v4 address (mapped, NAT64, 6to4).
 */
const NON_PUBLIC = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "::ffff:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "2001::/23",
  "2001:db8::/32",
  "2002::/16",
  "fc00::/7",
  "fe80::/10",
  "ff00::/8",
];

export interface MirrorPlan {
  kind: Mirror["kind"];
  port: number;
  /** The upstream's host and port, as Squid dials them. */
  host: string;
  upstreamPort: number;
  tls: boolean;
  /** True when the upstream's certificate is not checked (HYPOFIX_PIP_TRUSTED_HOST). */
  insecure: boolean;
  /** Path and query of the mirror URL: the setup's URL keeps them. */
  path: string;
  /** The Authorization value Squid adds upstream, when the URL carries credentials. */
  authorization?: string;
}

export interface ProxyPlan {
  /** The proxy's address on the setup network: the only one it listens on. */
  listen: string;
  allow: AllowedHost[];
  mirrors: MirrorPlan[];
  /** Host names the setup's pip may fetch from without TLS (the proxy itself, HYPOFIX_PIP_TRUSTED_HOST). */
  trustedHosts: string[];
}

/** Squid dials host names and IPv4 addresses only; anything else never reaches its configuration. */
const SAFE_HOST = /^[a-z0-9.-]+$/;

export function proxyPlan(listen: string, settings: Omit<EgressSettings, "image">): ProxyPlan {
  const mirrors = settings.mirrors.map((mirror, i): MirrorPlan => {
    const url = new URL(mirror.url);
    if (!SAFE_HOST.test(url.hostname)) throw new Error(`mirror host ${url.hostname} is not a host name`);
    const tls = url.protocol === "https:";
    const upstreamPort = Number(url.port || (tls ? 443 : 80));
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    return {
      kind: mirror.kind,
      port: FIRST_MIRROR_PORT + i,
      host: url.hostname,
      upstreamPort,
      tls,
      insecure: settings.insecureHosts.some((h) => h === url.hostname || h === url.host),
      path: `${url.pathname}${url.search}`,
      ...(url.username || url.password
        ? { authorization: `Basic ${Buffer.from(credentials).toString("base64")}` }
        : {}),
    };
  });
  return { listen, allow: settings.allow, mirrors, trustedHosts: [listen, ...settings.insecureHosts] };
}

const regexOfAddress = (address: string) => `^${address.replaceAll(".", "\\.")}$`;

/** The whole squid.conf for one build. */
export function squidConfig(plan: ProxyPlan): string {
  const lines = [
    "# Written by Hypofix for one environment build (src/sandbox/egress-squid.ts).",
    `http_port ${plan.listen}:${FORWARD_PORT} name=forward`,
    ...plan.mirrors.map((m) => {
      const site = m.upstreamPort === (m.tls ? 443 : 80) ? m.host : `${m.host}:${m.upstreamPort}`;
      return `http_port ${plan.listen}:${m.port} accel defaultsite=${site} name=mirror${m.port}`;
    }),
    "visible_hostname hypofix-egress",
    `pid_filename ${PROXY_RUN_DIR}/squid.pid`,
    `cache_log stdio:${PROXY_RUN_DIR}/cache.log`,
    "logformat hypofix %Ss/%03>Hs %rm %ru",
    `access_log stdio:${ACCESS_LOG} hypofix`,
    // A pass-through, not a cache: nothing of one build is served to another.
    "cache deny all",
    "cache_mem 0 MB",
    "pinger_enable off",
    "shutdown_lifetime 0 seconds",
    "httpd_suppress_version_string on",
    "forwarded_for delete",
    "email_err_data off",
    // Also the shortest time Squid keeps a positive answer: the addresses it checked are the ones it dials.
    "negative_dns_ttl 1 minute",
    "acl forward myportname forward",
    "acl reading method GET HEAD",
    `acl non_public dst ${NON_PUBLIC.join(" ")}`,
    "http_access deny manager",
  ];
  for (const m of plan.mirrors) {
    const name = `mirror${m.port}`;
    const tls = m.tls ? ` tls${m.insecure ? " tls-flags=DONT_VERIFY_PEER" : ""}` : "";
    lines.push(
      `acl ${name} myportname ${name}`,
      `cache_peer ${m.host} parent ${m.upstreamPort} 0 no-query no-digest no-netdb-exchange originserver${tls} name=${name}`,
      `cache_peer_access ${name} allow ${name}`,
      `cache_peer_access ${name} deny all`,
      `never_direct allow ${name}`,
      // The setup's own Authorization never goes upstream; the mirror's does, when it has one.
      `request_header_access Authorization deny ${name}`,
      ...(m.authorization ? [`request_header_add Authorization "${m.authorization}" ${name}`] : []),
      `http_access deny ${name} !reading`,
      `http_access allow ${name}`,
    );
  }
  const numbered = plan.allow.map((entry, i) => ({ ...entry, acl: `allowed${i}` }));
  const addresses = numbered.filter((e) => /^\d+\.\d+\.\d+\.\d+$/.test(e.host));
  const names = numbered.filter((e) => !addresses.includes(e));
  for (const e of addresses) {
    lines.push(
      `acl ${e.acl} dstdom_regex -n ${regexOfAddress(e.host)}`,
      `acl ${e.acl}_port port ${e.port}`,
      `http_access allow forward ${e.acl} ${e.acl}_port`,
    );
  }
  lines.push("http_access deny non_public");
  for (const e of names) {
    lines.push(
      `acl ${e.acl} dstdomain -n ${e.host}`,
      `acl ${e.acl}_port port ${e.port}`,
      `http_access allow forward ${e.acl} ${e.acl}_port`,
    );
  }
  lines.push("http_access deny all", "");
  return lines.join("\n");
}

const MIRROR_VARIABLES: Record<Mirror["kind"], string> = {
  "pip-index": "PIP_INDEX_URL",
  "pip-extra-index": "PIP_EXTRA_INDEX_URL",
  "npm-registry": "npm_config_registry",
};

/**
 * The setup's environment for the proxy: the variables pip, npm and most HTTP clients read for a
 * proxy, and each mirror's credential-free URL under the variable its tool reads.
 */
export function setupProxyEnv(plan: ProxyPlan): Record<string, string> {
  const proxy = `http://${plan.listen}:${FORWARD_PORT}`;
  const env: Record<string, string> = {
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
    // The mirrors are the proxy itself: asked directly, not through its forward port.
    NO_PROXY: plan.listen,
    no_proxy: plan.listen,
    npm_config_proxy: proxy,
    npm_config_https_proxy: proxy,
    npm_config_noproxy: plan.listen,
    PIP_TRUSTED_HOST: plan.trustedHosts.join(" "),
  };
  for (const m of plan.mirrors) {
    const url = `http://${plan.listen}:${m.port}${m.path}`;
    const name = MIRROR_VARIABLES[m.kind];
    env[name] = env[name] ? `${env[name]} ${url}` : url;
    if (m.kind === "npm-registry") Object.assign(env, npmRegistryEnv(url, plan.listen));
  }
  return env;
}

/**
 * The npm registry for the JavaScript package managers besides npm: corepack (which
 * downloads pnpm and Yarn), Yarn 1 and Yarn Berry (which refuses plain http but from
 * the hosts it is told). npm and pnpm read npm_config_registry; a registry's packuments
 * name tarballs at the registry's own host, so npm fetches those here too.
 */
function npmRegistryEnv(url: string, proxyHost: string): Record<string, string> {
  return {
    npm_config_replace_registry_host: "always",
    COREPACK_NPM_REGISTRY: url.replace(/\/$/, ""),
    YARN_REGISTRY: url,
    YARN_NPM_REGISTRY_SERVER: url.replace(/\/$/, ""),
    YARN_UNSAFE_HTTP_WHITELIST: proxyHost,
  };
}

/** The requests the proxy refused, from its access log: "CONNECT host:443", at most `limit`, each once. */
export function refusedRequests(accessLog: string, limit = 10): string[] {
  const refused = new Set<string>();
  for (const line of accessLog.split("\n")) {
    const match = /^TCP_DENIED\/\d+ (\S+ \S+)/.exec(line);
    if (match?.[1]) refused.add(match[1]);
    if (refused.size >= limit) break;
  }
  return [...refused];
}
