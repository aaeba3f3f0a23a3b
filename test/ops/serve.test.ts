import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPrivateKey } from "../helpers/git.js";
import { hypofix, waitForHttp, type Running } from "../helpers/hypofix-process.js";
import { RedisServer } from "../helpers/redis-server.js";

/** Ports from the ops range (TEAM.md); loopback only: 127.0.0.2 is loopback too. */
const REDIS_PORT = 7410;
const SERVE_PORT = 7411;
const SETUP_PORT = 7412;

function serve(env: Record<string, string>, cwd = process.cwd()): Running {
  const { REDIS_URL: _shared, APP_ID: _a, PRIVATE_KEY: _k, PRIVATE_KEY_PATH: _p, ...base } = process.env;
  return hypofix(
    ["serve", "--no-worker"],
    { ...base, LOG_LEVEL: "info", NO_SMEE_SETUP: "true", ...env },
    cwd,
  );
}

const refused = (url: string) =>
  fetch(url).then(
    () => false,
    () => true,
  );

/** `hypofix serve` as its own process: HOST binding, Probot's setup page, readiness and logs around a Redis outage. */
describe("hypofix serve (subprocess, own Redis)", () => {
  let redis: RedisServer;
  let app: Running;
  let setup: Running;
  const setupDir = mkdtempSync(join(tmpdir(), "hypofix-setup-"));

  beforeAll(async () => {
    redis = new RedisServer(REDIS_PORT);
    await redis.start();
    app = serve({
      APP_ID: "1",
      PRIVATE_KEY: appPrivateKey(),
      WEBHOOK_SECRET: "s",
      REDIS_URL: redis.url,
      HOST: "127.0.0.2",
      PORT: String(SERVE_PORT),
    });
    // Without credentials: Probot's manifest flow, reading app.yml from the working directory.
    writeFileSync(join(setupDir, "app.yml"), "name: hypofix-under-test\ndefault_events: [check_run]\n");
    writeFileSync(join(setupDir, "package.json"), JSON.stringify({ name: "hypofix", version: "0.0.0" }));
    setup = serve({ HOST: "127.0.0.2", PORT: String(SETUP_PORT), REDIS_URL: redis.url }, setupDir);
  }, 90_000);
  afterAll(async () => {
    app?.child.kill("SIGKILL");
    setup?.child.kill("SIGKILL");
    await redis?.dispose();
    rmSync(setupDir, { recursive: true, force: true });
  });

  it("binds HOST only: answers on 127.0.0.2, refuses 127.0.0.1", async () => {
    const res = await waitForHttp(`http://127.0.0.2:${SERVE_PORT}/healthz`, app);
    expect(res.status).toBe(200);
    expect(await refused(`http://127.0.0.1:${SERVE_PORT}/healthz`)).toBe(true);
  }, 90_000);

  it("without App credentials shows Probot's setup page with the manifest from app.yml", async () => {
    const root = await waitForHttp(`http://127.0.0.2:${SETUP_PORT}/`, setup);
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/probot");
    const page = await fetch(`http://127.0.0.2:${SETUP_PORT}/probot`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Register GitHub App");
    expect(html).toContain("hypofix-under-test");
    expect(await refused(`http://127.0.0.1:${SETUP_PORT}/probot`)).toBe(true);
  }, 90_000);

  it("is ready with Redis, 503 while Redis is down, ready again after; one-line logs, no stack traces", async () => {
    const readyz = `http://127.0.0.2:${SERVE_PORT}/readyz`;
    await waitForHttp(readyz, app);
    expect((await fetch(readyz)).status).toBe(200);
    await redis.stop("SIGKILL");
    await new Promise((r) => setTimeout(r, 4000));
    const down = await fetch(readyz);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, checks: { redis: "unreachable" } });
    // Scrapes keep working while Redis is away (no queue figures).
    expect((await fetch(`http://127.0.0.2:${SERVE_PORT}/metrics`)).status).toBe(200);
    await redis.start();
    const until = Date.now() + 20_000;
    while ((await fetch(readyz)).status !== 200 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 250));
    expect((await fetch(readyz)).status).toBe(200);

    const lines = app.output().trim().split("\n");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(app.output()).not.toMatch(/\n\s+at /);
    expect(app.output()).not.toContain('"stack"');
  }, 90_000);
});
