// Hostile case (issue 23, point 5): the dashboard (Bull Board behind basic auth) took
// state-changing requests from any site (a browser sends the admin's saved basic-auth
// credentials with them), could be framed by any page (clickjacking its buttons), and let
// anyone guess the password as fast as they could ask. Now writes must come from the
// dashboard's own origin, every answer forbids framing, and failed logins are rate-limited
// (express-rate-limit). Real HTTP server, real Redis queue.
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FAILED_LOGINS_PER_WINDOW } from "../../src/inbound/dashboard-guard.js";
import { createLogger } from "../../src/log.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { logSink } from "../helpers/log-sink.js";
import { startTestServer } from "../helpers/webhook-server.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const CREDENTIALS = { user: "admin", password: "correct-horse-battery" };
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const admin = basic(CREDENTIALS.user, CREDENTIALS.password);

describe("the dashboard refuses cross-site writes, framing and password guessing", () => {
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), `hypofix-board-${randomUUID()}`);
  const servers: Server[] = [];

  const start = async () => {
    const { server, url } = await startTestServer(queue, { dashboard: CREDENTIALS });
    servers.push(server);
    return url;
  };
  let base = "";
  const api = () => `${base}/admin/queues/api/queues/${encodeURIComponent(queue.queue.name)}`;

  beforeAll(async () => {
    await queue.enqueue({
      kind: "ci-failure",
      installationId: 9,
      repo: { owner: "octo", name: "calc" },
      headSha: "a".repeat(40),
    });
    base = await start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  it("refuses a write from another site (Origin, or Sec-Fetch-Site without one), with the admin's credentials", async () => {
    const jobs = await queue.queue.count();
    const attempts: [string, RequestInit][] = [
      // A form or fetch on evil.example, as a browser sends it: simple, no preflight.
      [
        `${api()}/add`,
        {
          method: "POST",
          headers: { origin: "https://evil.example", "content-type": "text/plain" },
          body: '{"name":"x","data":{}}',
        },
      ],
      [
        `${api()}/add`,
        {
          method: "POST",
          headers: { origin: "https://evil.example", "content-type": "application/json" },
          body: '{"name":"x","data":{}}',
        },
      ],
      [`${api()}/pause`, { method: "PUT", headers: { origin: "null" } }],
      [`${api()}/pause`, { method: "PUT", headers: { "sec-fetch-site": "cross-site" } }],
      [
        `${base}/admin/queues/api/queues/pause`,
        { method: "PUT", headers: { origin: "http://127.0.0.1.evil.example" } },
      ],
    ];
    for (const [url, init] of attempts) {
      const res = await fetch(url, {
        ...init,
        headers: { ...(init.headers as object), authorization: admin },
      });
      expect(res.status, `${init.method} ${url} ${JSON.stringify(init.headers)}`).toBe(403);
    }
    expect(await queue.queue.count()).toBe(jobs);
    expect(await queue.queue.isPaused()).toBe(false);
  });

  it("the other side: the dashboard's own page (same Origin) and a client without one can write", async () => {
    const own = await fetch(`${api()}/pause`, {
      method: "PUT",
      headers: { authorization: admin, origin: base },
    });
    expect(own.status).toBe(200);
    expect(await queue.queue.isPaused()).toBe(true);
    const cli = await fetch(`${api()}/resume`, { method: "PUT", headers: { authorization: admin } });
    expect(cli.status).toBe(200);
    expect(await queue.queue.isPaused()).toBe(false);
  });

  it("forbids framing on every dashboard answer, refused ones included", async () => {
    for (const [path, headers] of <[string, Record<string, string>][]>[
      ["/", { authorization: admin }],
      ["/admin/queues", { authorization: admin }],
      ["/admin/queues/api/queues", { authorization: admin }],
      ["/", {}],
    ]) {
      const res = await fetch(`${base}${path}`, { headers });
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'");
    }
  });

  it("says once, in one log line, that a proxy's X-Forwarded-For is not trusted (never a stack on stderr)", async () => {
    const { lines, sink } = logSink();
    const { server, url } = await startTestServer(queue, {
      dashboard: CREDENTIALS,
      log: createLogger("warn", sink),
    });
    servers.push(server);
    const stderr = vi.spyOn(console, "error");
    const warned = vi.spyOn(console, "warn");
    try {
      const res = await fetch(`${url}/`, {
        headers: { authorization: admin, "x-forwarded-for": "203.0.113.9" },
      });
      expect(res.status).toBe(200);
      expect(stderr).not.toHaveBeenCalled();
      expect(warned).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      warned.mockRestore();
    }
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; err?: string });
    expect(logged).toEqual([expect.objectContaining({ err: expect.stringContaining("X-Forwarded-For") })]);
  });

  it("rate-limits failed logins: past the limit even the right password waits; successful ones never count", async () => {
    const fresh = await start();
    const get = (authorization?: string) =>
      fetch(`${fresh}/`, authorization ? { headers: { authorization } } : {}).then((r) => r.status);
    for (let i = 0; i < 3 * FAILED_LOGINS_PER_WINDOW; i++) expect(await get(admin)).toBe(200);
    for (let i = 0; i < FAILED_LOGINS_PER_WINDOW; i++)
      expect(await get(basic("admin", `guess-${i}`))).toBe(401);
    expect(await get(basic("admin", "one-more-guess"))).toBe(429);
    expect(await get(admin)).toBe(429);
    // The limit is per server here (one client address); another server's counter is its own.
    expect((await fetch(`${base}/`, { headers: { authorization: admin } })).status).toBe(200);
  });
});
