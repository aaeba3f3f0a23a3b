// Hostile case (issue 23, point 4): anyone who can reach the webhook URL sent an unsigned
// 300 MB POST; the server read all of it before checking the signature (141 MB → 1,313 MB).
// GitHub caps deliveries at 25 MB: past that the server answers 413 while the body streams,
// counting bytes as they come (or at once from Content-Length), and holds none of the rest.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobQueue, connectionFromUrl } from "../../src/queue/queue.js";
import { deliveryHeaders } from "../github/payloads.js";
import { appPrivateKey } from "../helpers/git.js";
import { serveOnLoopback, type Running } from "../helpers/hypofix-process.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const MB = 1024 * 1024;
const SECRET = "body-cap-secret";

/** Resident memory of a process, in bytes (Linux). */
const rss = (pid: number) =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) * 1024;

describe("the webhook body is bounded while it streams", () => {
  const queueName = `hypofix-body-${randomUUID()}`;
  const queue = new JobQueue(connectionFromUrl(REDIS_URL), queueName);
  let served: Running;
  let port = 0;

  beforeAll(async () => {
    const { APP_ID: _a, PRIVATE_KEY: _k, PRIVATE_KEY_PATH: _p, ...base } = process.env;
    ({ served, port } = await serveOnLoopback(["--no-worker"], {
      ...base,
      APP_ID: "1",
      PRIVATE_KEY: appPrivateKey(),
      WEBHOOK_SECRET: SECRET,
      REDIS_URL,
      HYPOFIX_QUEUE_NAME: queueName,
      HYPOFIX_REDELIVERY_INTERVAL_MS: "0",
      LOG_LEVEL: "warn",
    }));
  }, 120_000);
  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  /**
   * POSTs `total` bytes of one JSON string to the webhook in 1 MiB chunks, as fast as the
   * server takes them, until it answers; returns its status, what was sent, and the
   * server's peak resident memory above where it started.
   */
  const flood = (total: number, declareLength: boolean, path = "/api/github/webhooks") =>
    new Promise<{ status: number; sent: number; growth: number }>((resolve, reject) => {
      const pid = served.child.pid!;
      const start = rss(pid);
      let peak = start;
      const sample = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
      const chunk = Buffer.alloc(MB, "a");
      let sent = 0;
      let answered = false;
      const req = request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: {
          ...deliveryHeaders("workflow_run", "{}", SECRET),
          ...(declareLength ? { "content-length": String(total) } : {}),
        },
      });
      const done = (status: number) => {
        clearInterval(sample);
        peak = Math.max(peak, rss(pid));
        req.destroy();
        resolve({ status, sent, growth: peak - start });
      };
      req.on("response", (res) => {
        answered = true;
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on("error", (err) => {
        if (answered) return;
        clearInterval(sample);
        reject(new Error(`no answer after ${sent} bytes: ${err.message}`));
      });
      const write = () => {
        while (!answered && sent < total) {
          const piece = sent === 0 ? Buffer.concat([Buffer.from('{"x":"'), chunk]) : chunk;
          sent += piece.length;
          if (!req.write(piece)) return void req.once("drain", write);
        }
        if (!answered) req.end('"}');
      };
      write();
    });

  it("answers 413 to a 300 MB chunked POST, and the server's memory stays flat", async () => {
    const { status, sent, growth } = await flood(300 * MB, false);
    expect(status, `the server grew by ${Math.round(growth / MB)} MB`).toBe(413);
    // It stopped reading at the cap: the sender could not push the whole body through.
    expect(sent).toBeLessThan(300 * MB);
    expect(growth, `the server grew by ${Math.round(growth / MB)} MB`).toBeLessThan(100 * MB);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 120_000);

  it("answers 413 at once to a declared Content-Length over 25 MB", async () => {
    const { status, growth } = await flood(300 * MB, true);
    expect(status, `the server grew by ${Math.round(growth / MB)} MB`).toBe(413);
    expect(growth, `the server grew by ${Math.round(growth / MB)} MB`).toBeLessThan(100 * MB);
  }, 120_000);

  it("bounds the body at every spelling of the path the webhook handler answers", async () => {
    for (const path of ["/api/github/webhooks//", "/api/github/webhooks?x=/"]) {
      const { status, growth } = await flood(300 * MB, false, path);
      expect(status, `${path}: the server grew by ${Math.round(growth / MB)} MB`).toBe(413);
    }
  }, 120_000);

  it("the other side: a body under the cap is read and checked (a bad signature is a 400, not a 413)", async () => {
    const { status } = await flood(2 * MB, false);
    expect(status).toBe(400);
  }, 120_000);
});
