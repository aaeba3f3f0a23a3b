import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookServer } from "../../src/inbound/server.js";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { appPrivateKey } from "../helpers/git.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const CREDENTIALS = { user: "admin", password: "correct-horse-battery" };
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/**
 * The status page and Bull Board show private repository names, shas and failure
 * reasons: behind basic auth from configuration, and absent (404) without it.
 * Real HTTP server, real Redis queue holding a job of a private repository.
 */
describe("dashboard behind basic auth", () => {
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), `hypofix-ops-${randomUUID()}`);
  const servers: Server[] = [];
  let withAuth = "";
  let withoutAuth = "";

  const start = async (dashboard?: typeof CREDENTIALS) => {
    const probot = new Probot({
      appId: 1,
      privateKey: appPrivateKey(),
      secret: "s",
      log: pino({ level: "silent" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    const server = await startWebhookServer({
      probot,
      queue,
      port: 0,
      host: "127.0.0.1",
      ...(dashboard ? { dashboard } : {}),
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    await queue.enqueue({
      kind: "ci-failure",
      installationId: 9,
      repo: { owner: "secret-org", name: "private-repo" },
      headSha: "a".repeat(40),
    });
    withAuth = await start(CREDENTIALS);
    withoutAuth = await start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  for (const path of ["/", "/admin/queues", "/admin/queues/api/queues"]) {
    it(`${path}: 401 without or with wrong credentials, no private data in the answer`, async () => {
      for (const headers of <Record<string, string>[]>[
        {},
        { authorization: basic("admin", "wrong-password-123") },
        { authorization: basic("root", CREDENTIALS.password) },
      ]) {
        const res = await fetch(`${withAuth}${path}`, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe('Basic realm="hypofix"');
        const body = await res.text();
        expect(body).not.toContain("private-repo");
        expect(body).not.toContain("aaaaaaaaaaaa");
      }
    });
  }

  it("shows the status page and Bull Board with the right credentials", async () => {
    const authorization = basic(CREDENTIALS.user, CREDENTIALS.password);
    const page = await fetch(`${withAuth}/`, { headers: { authorization } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("secret-org/private-repo");
    expect(html).toContain("aaaaaaaaaaaa");

    const board = await fetch(`${withAuth}/admin/queues`, { headers: { authorization } });
    expect(board.status).toBe(200);
    expect(await board.text()).toContain("<html");
    const api = await fetch(`${withAuth}/admin/queues/api/queues`, { headers: { authorization } });
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: { name: string; counts: { waiting: number } }[] };
    expect(queues).toEqual([
      expect.objectContaining({ name: queue.queue.name, counts: expect.objectContaining({ waiting: 1 }) }),
    ]);
  });

  it("serves neither page when no credentials are configured (404), while probes still answer", async () => {
    for (const path of ["/", "/admin/queues", "/admin/queues/api/queues"]) {
      const res = await fetch(`${withoutAuth}${path}`, {
        headers: { authorization: basic(CREDENTIALS.user, CREDENTIALS.password) },
      });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("private-repo");
    }
    expect((await fetch(`${withoutAuth}/healthz`)).status).toBe(200);
  });
});
