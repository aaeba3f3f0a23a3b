import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { servePackageMirror, type PackageMirror } from "../../bench/lib/package-mirror.js";
import { loadConfig } from "../../src/config.js";
import { python } from "../../src/lang/python/index.js";
import { dockerClient } from "../../src/sandbox/docker.js";
import { prepareEnvironment } from "../../src/sandbox/environment.js";
import { inspectImage } from "../../src/sandbox/images.js";
import {
  buildWheel,
  copyFixture,
  foundInImage,
  hypofixFix,
  removeImages,
  runInImage,
} from "../environment/helpers.js";
import { hostAddress } from "../helpers/host-address.js";

// Hostile case (issue 23): a repository's setup runs with network, so its code can reach what
// the worker host reaches: services bound to 0.0.0.0 (the App's :3000 with /metrics), the
// gateway, other containers, the LAN, link-local metadata; and it is handed the pip mirror's
// credentials, which it can bake into the cached environment image. Every address tried here
// is this host's own or a container of the test's; nothing is sent anywhere else.
vi.setConfig({ testTimeout: 900_000 });
const docker = dockerClient();
const config = loadConfig();
const PROBE = fileURLToPath(new URL("./egress-probe.py", import.meta.url));
const USER = "hypofix-ci";
const PASSWORD = `pw-${randomBytes(12).toString("hex")}`;
const SECRETS = [PASSWORD, Buffer.from(`${USER}:${PASSWORD}`).toString("base64")];
const SHINY = { "shiny/__init__.py": "def double(x):\n    return 2 * x\n" };
const built: (string | undefined)[] = [];

let host: Awaited<ReturnType<typeof hostAddress>>;
/** A service of the host bound to every address, as the App's :3000 is: nobody may reach it. */
let hostService: PackageMirror;
/** A mirror on the host the allowlist names (address and port). */
let openMirror: PackageMirror;
/** A private index that needs credentials: the proxy adds them. */
let privateIndex: PackageMirror;
/** Another container, with a port published on the host. */
let decoy: Docker.Container;
let decoyAddress: string;
let decoyHostPort: string;

beforeAll(async () => {
  host = await hostAddress(docker);
  const [privateWheels, openWheels, nothing] = await Promise.all(
    ["private", "open", "none"].map((name) => mkdtemp(path.join(tmpdir(), `hypofix-wheels-${name}-`))),
  );
  await buildWheel(privateWheels!, "hypofix-shiny", "1.0", SHINY);
  await buildWheel(openWheels!, "hypofix-extra", "1.0", { "extra/__init__.py": "" });
  hostService = await servePackageMirror(nothing!, "0.0.0.0");
  openMirror = await servePackageMirror(openWheels!, host.address);
  privateIndex = await servePackageMirror(privateWheels!, host.address, { auth: `${USER}:${PASSWORD}` });
  decoy = await docker.createContainer({
    name: `hypofix-test-decoy-${process.pid}-${Date.now()}`,
    Image: config.sandbox.image,
    Cmd: ["python3", "-m", "http.server", "8000"],
    ExposedPorts: { "8000/tcp": {} },
    Labels: { "org.hypofix.test": "1" },
    HostConfig: {
      NetworkMode: "bridge",
      PortBindings: { "8000/tcp": [{ HostIp: host.address, HostPort: "" }] },
    },
  });
  await decoy.start();
  const info = await decoy.inspect();
  decoyAddress = info.NetworkSettings.Networks.bridge!.IPAddress;
  decoyHostPort = info.NetworkSettings.Ports["8000/tcp"]![0]!.HostPort;
});

afterAll(async () => {
  for (const server of [hostService, openMirror, privateIndex]) server?.close();
  await decoy?.remove({ force: true });
  await removeImages(built);
  await host?.remove();
});

const decoyLog = async () => (await decoy.logs({ stdout: true, stderr: true })).toString("utf8");

interface Probe {
  gateway: string;
  direct: Record<string, string>;
  viaProxy: Record<string, number | string>;
  installs: Record<string, number>;
  env: Record<string, string>;
}

describe("a setup's network", () => {
  it("reaches nothing but the allowed hosts through the proxy, which adds the private index's credentials", async () => {
    const repo = await copyFixture("env-deps");
    await copyFile(PROBE, path.join(repo, "probe.py"));
    const hostUrl = `http://${host.address}:${hostService.port}/`;
    const mirrorPage = `${openMirror.url}/simple/hypofix-extra/`;
    await writeFile(
      path.join(repo, "probe-targets.json"),
      JSON.stringify({
        hostPort: hostService.port,
        direct: [
          `${host.address}:${hostService.port}`,
          `${host.address}:${decoyHostPort}`,
          `${decoyAddress}:8000`,
        ],
        viaProxy: [
          hostUrl,
          // CONNECT to an address literal that is not allowed.
          `https://${host.address}:${hostService.port}/`,
          `http://${decoyAddress}:8000/`,
          // An allowed name that resolves to a loopback address (the proxy's /etc/hosts).
          "http://localhost:3128/",
          mirrorPage,
        ],
        installs: [
          ["-r", "requirements.txt"],
          ["--index-url", `${openMirror.url}/simple/`, "--trusted-host", host.address, "hypofix-extra==1.0"],
        ],
      }),
    );
    await mkdir(path.join(repo, ".github"));
    await writeFile(path.join(repo, ".github/hypofix.yml"), "setup_command: python3 probe.py\n");

    const run = await hypofixFix(repo, {
      HYPOFIX_PIP_INDEX_URL: `http://${USER}:${PASSWORD}@${host.address}:${privateIndex.port}/simple/`,
      HYPOFIX_PIP_TRUSTED_HOST: host.address,
      HYPOFIX_SETUP_ALLOW_HOSTS: `${host.address}:${openMirror.port} localhost:3128`,
    });
    const image = run.result.environment?.image;
    built.push(image);
    expect(run.result.status, run.stderr).toBe("fixed");
    const probe = JSON.parse(await runInImage(image!, ["cat", "/opt/hypofix/probe.json"])) as Probe;

    // No connection of its own: not to the host (at its gateway or any address), nor another container.
    expect(Object.keys(probe.direct)).toHaveLength(4);
    for (const [target, outcome] of Object.entries(probe.direct))
      expect(outcome, target).not.toBe("connected");
    // Through the proxy: the allowed mirror, and nothing else on the same host or beside it.
    expect(probe.viaProxy).toEqual({
      [hostUrl]: 403,
      [`https://${host.address}:${hostService.port}/`]: expect.stringContaining("403"),
      [`http://${decoyAddress}:8000/`]: 403,
      "http://localhost:3128/": 403,
      [mirrorPage]: 200,
    });
    expect(probe.installs).toEqual({
      "-r requirements.txt": 0,
      [`--index-url ${openMirror.url}/simple/ --trusted-host ${host.address} hypofix-extra==1.0`]: 0,
    });
    expect(hostService.requests).toEqual([]);
    expect(await decoyLog()).not.toContain("GET");
    expect(openMirror.requests).toContain("GET /simple/hypofix-extra/ 200 auth=no");
    // Every request the private index saw carried its credentials, added by the proxy.
    expect(privateIndex.requests).toContain("GET /simple/hypofix-shiny/ 200 auth=yes");
    expect(privateIndex.requests.filter((r) => !r.endsWith(" auth=yes"))).toEqual([]);

    // By configuration: the build's network is internal with no host address, and holds the build
    // container and its proxy only; the proxy alone is also on the egress network.
    expect(run.seen.build).toHaveLength(1);
    const build = run.seen.build[0]!;
    const [networkName, ...others] = Object.keys(build.NetworkSettings.Networks);
    expect(others).toEqual([]);
    expect(networkName).toMatch(/^hypofix-setup-/);
    const network = run.seen.networks.find((n) => n.Name === networkName)!;
    expect(network).toMatchObject({
      Driver: "bridge",
      Internal: true,
      Options: { "com.docker.network.bridge.inhibit_ipv4": "true" },
    });
    expect(probe.gateway).toBe(network.IPAM?.Config?.[0]?.Gateway);
    expect(run.seen.egress).toHaveLength(1);
    const proxy = run.seen.egress[0]!;
    expect(
      Object.values(network.Containers ?? {})
        .map((c) => c.Name)
        .sort(),
    ).toEqual([build.Name, proxy.Name].map((n) => n.replace(/^\//, "")).sort());
    expect(Object.keys(proxy.NetworkSettings.Networks).sort()).toEqual(
      ["hypofix-egress", networkName].sort(),
    );
    expect(proxy.HostConfig).toMatchObject({ CapDrop: ["ALL"], ReadonlyRootfs: true });
    expect(proxy.Config.User).toBe("proxy");
    expect(await docker.getNetwork("hypofix-egress").inspect()).toMatchObject({
      Internal: false,
      Options: { "com.docker.network.bridge.enable_icc": "false" },
    });
    for (const test of run.seen.test) expect(test.HostConfig.NetworkMode).toBe("none");

    // The setup saw the index at the proxy, without credentials; they are nowhere it could keep them.
    const proxyAddress = proxy.NetworkSettings.Networks[networkName!]!.IPAddress;
    expect(probe.env.PIP_INDEX_URL).toBe(`http://${proxyAddress}:3130/simple/`);
    expect(probe.env.HTTPS_PROXY).toBe(`http://${proxyAddress}:3128`);
    for (const text of [
      JSON.stringify(probe),
      JSON.stringify(run.seen),
      JSON.stringify(run.result),
      run.stderr,
    ]) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
    expect(await foundInImage(image!, [...SECRETS, "3130/simple/"])).toEqual(["3130/simple/"]);
  });

  it("fails a setup whose host is not allowed, and names what the proxy refused", async () => {
    const repo = await copyFixture("env-deps");
    await mkdir(path.join(repo, ".github"));
    const index = `http://${host.address}:${hostService.port}/simple/`;
    await writeFile(
      path.join(repo, ".github/hypofix.yml"),
      `setup_command: pip install --index-url ${index} --trusted-host ${host.address} hypofix-shiny==1.0\n`,
    );
    const run = await hypofixFix(repo, { HYPOFIX_SETUP_ALLOW_HOSTS: `${host.address}:${openMirror.port}` });
    expect(run.code).toBe(2);
    expect(run.result.status).toBe("error");
    expect(run.result.reason).toContain(
      `hypofix: the egress proxy refused GET ${index}hypofix-shiny/ (only the mirrors and HYPOFIX_SETUP_ALLOW_HOSTS, at public addresses, are reachable)`,
    );
    expect(hostService.requests).toEqual([]);
  });
});

describe("a private index over TLS", () => {
  let tlsIndex: PackageMirror;
  let repo: string;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "hypofix-tls-"));
    const [cert, key] = [path.join(dir, "cert.pem"), path.join(dir, "key.pem")];
    await promisify(execFile)("openssl", [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=hypofix-test"],
      ...["-keyout", key, "-out", cert],
    ]);
    const wheels = await mkdtemp(path.join(tmpdir(), "hypofix-wheels-tls-"));
    await buildWheel(wheels, "hypofix-shiny", "1.0", SHINY);
    tlsIndex = await servePackageMirror(wheels, host.address, {
      auth: `${USER}:${PASSWORD}`,
      tls: { cert, key },
    });
    repo = await mkdtemp(path.join(tmpdir(), "hypofix-tlsrepo-"));
    await writeFile(path.join(repo, "requirements.txt"), "hypofix-shiny==1.0\n");
  });
  afterAll(() => tlsIndex?.close());

  const build = async (insecureHosts: string[]) =>
    prepareEnvironment({
      base: (await inspectImage(docker, config.sandbox.image))!,
      repoDir: repo,
      workingDirectory: "",
      setupEnv: python.environment.setupEnv(config),
      setup: [["pip", "install", "-r", "requirements.txt"]],
      dependencyFiles: [{ path: "requirements.txt", content: "hypofix-shiny==1.0\n" }],
      scope: `test-tls-${process.pid}-${Date.now()}`,
      allowNetwork: true,
      limits: config.sandbox.limits,
      setupTimeoutMs: 120_000,
      cacheBytes: 1024 ** 4,
      egress: {
        ...config.environment.egress,
        allow: [],
        mirrors: [
          { kind: "pip-index", url: `https://${USER}:${PASSWORD}@${host.address}:${tlsIndex.port}/simple/` },
        ],
        insecureHosts,
      },
    });

  it("checks the index's certificate: an unknown one fails the setup before any request", async () => {
    await expect(build([])).rejects.toMatchObject({ name: "SetupFailed" });
    expect(tlsIndex.requests).toEqual([]);
  });

  it("adds the credentials over TLS when the host is trusted, and keeps them out of the image", async () => {
    const env = await build([host.address]);
    built.push(env.image);
    expect(tlsIndex.requests).toContain("GET /simple/hypofix-shiny/ 200 auth=yes");
    expect(tlsIndex.requests.filter((r) => !r.endsWith(" auth=yes"))).toEqual([]);
    expect(await foundInImage(env.image, SECRETS)).toEqual([]);
  });
});
