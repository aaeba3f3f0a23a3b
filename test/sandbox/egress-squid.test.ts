import { describe, expect, it } from "vitest";
import { networkProblems } from "../../src/sandbox/egress.js";
import { proxyPlan, refusedRequests, setupProxyEnv, squidConfig } from "../../src/sandbox/egress-squid.js";

// What one build's egress proxy is told (its Squid configuration) and what the setup is told.
// The behaviour against real Squid is test/security/setup-egress-allowlist.test.ts's.
const PASSWORD = "s3cr3t-t0ken";
const plan = proxyPlan("172.30.0.2", {
  allow: [
    { host: "pypi.org", port: 443 },
    { host: ".corp.example", port: 443 },
    { host: "10.9.8.7", port: 8080 },
  ],
  mirrors: [
    { kind: "pip-index", url: `https://ci:${PASSWORD}@pypi.corp.example/artifactory/api/pypi/simple/?x=1` },
    { kind: "pip-extra-index", url: "http://extra.example:8080/simple/" },
    { kind: "pip-extra-index", url: "https://self-signed.example/simple/" },
    { kind: "npm-registry", url: `https://ci:${PASSWORD}@npm.corp.example/npm/` },
  ],
  insecureHosts: ["self-signed.example"],
});
const conf = squidConfig(plan);
const lines = conf.split("\n");
const at = (line: string) => {
  const i = lines.indexOf(line);
  expect(i, line).toBeGreaterThanOrEqual(0);
  return i;
};

describe("the setup's view of the proxy", () => {
  const env = setupProxyEnv(plan);

  it("points every tool's proxy setting at the forward port, and the mirrors at their own ports", () => {
    for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "npm_config_proxy"]) {
      expect(env[name]).toBe("http://172.30.0.2:3128");
    }
    expect(env).toMatchObject({
      NO_PROXY: "172.30.0.2",
      PIP_INDEX_URL: "http://172.30.0.2:3130/artifactory/api/pypi/simple/?x=1",
      PIP_EXTRA_INDEX_URL: "http://172.30.0.2:3131/simple/ http://172.30.0.2:3132/simple/",
      npm_config_registry: "http://172.30.0.2:3133/npm/",
      npm_config_replace_registry_host: "always",
      // corepack's downloads of pnpm and Yarn, and Yarn itself, from the same mirror.
      COREPACK_NPM_REGISTRY: "http://172.30.0.2:3133/npm",
      YARN_REGISTRY: "http://172.30.0.2:3133/npm/",
      YARN_NPM_REGISTRY_SERVER: "http://172.30.0.2:3133/npm",
      YARN_UNSAFE_HTTP_WHITELIST: "172.30.0.2",
      PIP_TRUSTED_HOST: "172.30.0.2 self-signed.example",
    });
  });

  it("never carries a mirror's credentials, in plain or in base64", () => {
    const text = JSON.stringify(env);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(`ci:${PASSWORD}`).toString("base64"));
    expect(text).not.toContain("ci:");
  });

  it("has no npm registry setting when no npm mirror is configured", () => {
    const bare = setupProxyEnv(proxyPlan("172.30.0.2", { allow: [], mirrors: [], insecureHosts: [] }));
    expect(bare).not.toHaveProperty("npm_config_registry");
    expect(bare).not.toHaveProperty("npm_config_replace_registry_host");
    expect(bare).not.toHaveProperty("PIP_INDEX_URL");
  });
});

describe("the proxy's configuration", () => {
  it("listens on the setup network's address only", () => {
    expect(lines.filter((l) => l.startsWith("http_port "))).toEqual([
      "http_port 172.30.0.2:3128 name=forward",
      "http_port 172.30.0.2:3130 accel defaultsite=pypi.corp.example name=mirror3130",
      "http_port 172.30.0.2:3131 accel defaultsite=extra.example:8080 name=mirror3131",
      "http_port 172.30.0.2:3132 accel defaultsite=self-signed.example name=mirror3132",
      "http_port 172.30.0.2:3133 accel defaultsite=npm.corp.example name=mirror3133",
    ]);
  });

  it("allows an address only as written and before non-public addresses are refused, names only after", () => {
    const deny = at("http_access deny non_public");
    expect(at("acl allowed2 dstdom_regex -n ^10\\.9\\.8\\.7$")).toBeLessThan(deny);
    expect(at("http_access allow forward allowed2 allowed2_port")).toBeLessThan(deny);
    expect(at("acl allowed0 dstdomain -n pypi.org")).toBeGreaterThan(deny);
    expect(at("http_access allow forward allowed0 allowed0_port")).toBeGreaterThan(deny);
    expect(at("acl allowed1 dstdomain -n .corp.example")).toBeGreaterThan(deny);
    expect(at("acl allowed0_port port 443")).toBeGreaterThan(deny);
    expect(lines.filter((l) => l.startsWith("http_access")).at(-1)).toBe("http_access deny all");
  });

  it("counts private, loopback, link-local and metadata ranges as non-public, v4 and v6", () => {
    const ranges = lines
      .find((l) => l.startsWith("acl non_public dst "))!
      .split(" ")
      .slice(3);
    for (const range of ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16"]) {
      expect(ranges).toContain(range);
    }
    for (const range of ["::1/128", "fe80::/10", "fc00::/7", "::ffff:0:0/96", "100.64.0.0/10"]) {
      expect(ranges).toContain(range);
    }
  });

  it("serves each mirror from its own upstream only, reads only, with the credentials added there", () => {
    const basic = `Basic ${Buffer.from(`ci:${PASSWORD}`).toString("base64")}`;
    expect(lines).toEqual(
      expect.arrayContaining([
        "cache_peer pypi.corp.example parent 443 0 no-query no-digest no-netdb-exchange originserver tls name=mirror3130",
        "cache_peer_access mirror3130 allow mirror3130",
        "cache_peer_access mirror3130 deny all",
        "never_direct allow mirror3130",
        "request_header_access Authorization deny mirror3130",
        `request_header_add Authorization "${basic}" mirror3130`,
        "http_access deny mirror3130 !reading",
        "http_access allow mirror3130",
        "cache_peer extra.example parent 8080 0 no-query no-digest no-netdb-exchange originserver name=mirror3131",
        "cache_peer self-signed.example parent 443 0 no-query no-digest no-netdb-exchange originserver tls tls-flags=DONT_VERIFY_PEER name=mirror3132",
      ]),
    );
    // A mirror without credentials gets none; certificates are checked unless the host is trusted.
    expect(conf).not.toMatch(/request_header_add Authorization "[^"]*" mirror313[12]/);
    expect(conf.match(/DONT_VERIFY_PEER/g)).toHaveLength(1);
    // The password itself is nowhere in the configuration: Squid gets the header's value.
    expect(conf).not.toContain(PASSWORD);
  });

  it("refuses a mirror host it could not write into its configuration", () => {
    expect(() =>
      proxyPlan("172.30.0.2", {
        allow: [],
        mirrors: [{ kind: "pip-index", url: "http://[::1]:8080/simple/" }],
        insecureHosts: [],
      }),
    ).toThrow(/is not a host name/);
  });
});

describe("refusedRequests", () => {
  it("names each refused request once, in order, and nothing that was let through", () => {
    const log = [
      "TCP_TUNNEL/200 CONNECT pypi.org:443",
      "TCP_DENIED/403 CONNECT evil.example:443",
      "TCP_DENIED/403 GET http://10.0.0.1/latest/",
      "TCP_MISS/200 GET http://172.30.0.2:3130/simple/x/",
      "TCP_DENIED/403 CONNECT evil.example:443",
      "",
    ].join("\n");
    expect(refusedRequests(log)).toEqual(["CONNECT evil.example:443", "GET http://10.0.0.1/latest/"]);
    expect(refusedRequests("")).toEqual([]);
  });
});

describe("networkProblems", () => {
  const want = {
    internal: false,
    label: "egress",
    options: { "com.docker.network.bridge.enable_icc": "false" },
  };
  const good = {
    Driver: "bridge",
    Internal: false,
    Options: { "com.docker.network.bridge.enable_icc": "false" },
    Labels: { "org.hypofix.egress": "egress" },
  };

  it("accepts a network as it must be", () => {
    expect(networkProblems(good, want)).toEqual([]);
  });

  it("names every difference", () => {
    expect(networkProblems({ Driver: "macvlan", Internal: true, Options: {}, Labels: {} }, want)).toEqual([
      "driver macvlan, not bridge",
      "internal",
      "com.docker.network.bridge.enable_icc=(unset), not false",
      "label org.hypofix.egress is not egress",
    ]);
    expect(networkProblems({ ...good, Internal: false }, { ...want, internal: true })).toEqual([
      "not internal",
    ]);
  });
});
