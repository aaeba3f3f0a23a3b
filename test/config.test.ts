import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { UserError } from "../src/errors.js";
import { javascript } from "../src/lang/javascript/language.js";

describe("loadConfig", () => {
  it("applies defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config.env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(config.sandbox.image).toBe("hypofix/sandbox-python:2");
    expect(config.sandbox.limits.outputBytes).toBe(1024 * 1024);
  });

  it("takes the Node images' prefix from HYPOFIX_NODE_IMAGE, as Python's from HYPOFIX_SANDBOX_IMAGE", () => {
    expect(javascript.environment.imageBase(loadConfig({}))).toBe("hypofix/sandbox-node:1");
    const config = loadConfig({ HYPOFIX_NODE_IMAGE: "registry.example/hypofix-node:3" });
    expect(javascript.environment.imageBase(config)).toBe("registry.example/hypofix-node:3");
    expect(config.sandbox.image).toBe("hypofix/sandbox-python:2");
  });

  it("names the variable that is wrong", () => {
    let caught: unknown;
    try {
      loadConfig({ HYPOFIX_SANDBOX_MEMORY_MB: "lots" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).message).toContain("HYPOFIX_SANDBOX_MEMORY_MB");
  });

  it("rejects a malformed Redis URL", () => {
    expect(() => loadConfig({ REDIS_URL: "not a url" })).toThrow(/REDIS_URL/);
  });

  it("reads the daily token quota per repository: 2,000,000 by default, 0 for no limit", () => {
    expect(loadConfig({}).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(2_000_000);
    expect(loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: "0" }).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(0);
    expect(loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: "500000" }).env.HYPOFIX_REPO_DAILY_TOKENS).toBe(500_000);
  });

  it.each(["2M", "-1", "1.5"])("refuses %j as the daily token quota, naming the variable", (value) => {
    let caught: unknown;
    try {
      loadConfig({ HYPOFIX_REPO_DAILY_TOKENS: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).message).toMatch(
      /^invalid environment variable HYPOFIX_REPO_DAILY_TOKENS: /,
    );
  });
});

describe("the setup's egress settings", () => {
  const egress = (env: NodeJS.ProcessEnv) => loadConfig(env).environment.egress;

  it("allows the Python and npm package indexes by default, and nothing when set empty", () => {
    expect(egress({}).allow).toEqual([
      { host: "pypi.org", port: 443 },
      { host: "files.pythonhosted.org", port: 443 },
      { host: "registry.npmjs.org", port: 443 },
    ]);
    expect(egress({ HYPOFIX_SETUP_ALLOW_HOSTS: "" }).allow).toEqual([]);
  });

  it("reads names, ports, domains and addresses from HYPOFIX_SETUP_ALLOW_HOSTS", () => {
    expect(
      egress({
        HYPOFIX_SETUP_ALLOW_HOSTS: "Pypi.org, mirror.example:8443 *.corp.example .pkg.example 10.1.2.3:80",
      }).allow,
    ).toEqual([
      { host: "pypi.org", port: 443 },
      { host: "mirror.example", port: 8443 },
      { host: ".corp.example", port: 443 },
      { host: ".pkg.example", port: 443 },
      { host: "10.1.2.3", port: 80 },
    ]);
  });

  it.each(["https://pypi.org", "pypi.org:0", "pypi.org:65536", "[::1]:443", "a_b.example", "*"])(
    "refuses %j as an allowed host, naming the variable",
    (entry) => {
      expect(() => loadConfig({ HYPOFIX_SETUP_ALLOW_HOSTS: entry })).toThrow(
        /^invalid environment variable HYPOFIX_SETUP_ALLOW_HOSTS: /,
      );
    },
  );

  it("takes the mirrors in order, credentials included, and the hosts not to verify", () => {
    expect(
      egress({
        HYPOFIX_PIP_INDEX_URL: "https://ci:t0ken@pypi.corp.example/simple/",
        HYPOFIX_PIP_EXTRA_INDEX_URL: "https://a.example/simple http://b.example:8080/simple",
        HYPOFIX_NPM_REGISTRY: "https://npm.corp.example/",
        HYPOFIX_PIP_TRUSTED_HOST: "b.example:8080",
      }),
    ).toMatchObject({
      mirrors: [
        { kind: "pip-index", url: "https://ci:t0ken@pypi.corp.example/simple/" },
        { kind: "pip-extra-index", url: "https://a.example/simple" },
        { kind: "pip-extra-index", url: "http://b.example:8080/simple" },
        { kind: "npm-registry", url: "https://npm.corp.example/" },
      ],
      insecureHosts: ["b.example:8080"],
    });
    expect(egress({}).mirrors).toEqual([]);
  });

  it("refuses a mirror that is not http(s) without echoing its credentials", () => {
    let caught: unknown;
    try {
      loadConfig({ HYPOFIX_PIP_INDEX_URL: "ftp://ci:hunter2-secret@pypi.corp.example/simple/" });
    } catch (err) {
      caught = err;
    }
    expect((caught as UserError).message).toMatch(/^invalid environment variable HYPOFIX_PIP_INDEX_URL: /);
    expect((caught as UserError).message).not.toContain("hunter2");
  });
});
