import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * GitHub's REST API as a real HTTP server on loopback, for tests that run the
 * worker as a separate process (nock cannot reach into it, and nock in the
 * same process interferes with dockerode's attached streams). Probot reaches
 * it through GHE_HOST/GHE_PROTOCOL, exactly as it reaches GitHub Enterprise.
 */
export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

/** An answer: its status, its body (a string is sent as text) and any headers (a `link` to the next page). */
export type Route = (
  request: Recorded,
) => { status: number; body: unknown; headers?: Record<string, string> } | undefined;

export class FakeGitHub {
  readonly requests: Recorded[] = [];
  private server?: Server;

  constructor(private readonly route: Route) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void readBody(req).then((text) => {
        const path = (req.url ?? "").replace(/^\/api\/v3/, "");
        const recorded: Recorded = {
          method: req.method ?? "GET",
          path,
          body: text ? safeJson(text) : undefined,
        };
        this.requests.push(recorded);
        const answer = this.route(recorded) ?? {
          status: 404,
          body: { message: `fake GitHub: no route for ${recorded.method} ${path}` },
        };
        const payload = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          "content-type":
            typeof answer.body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8",
          ...answer.headers,
        });
        res.end(payload);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  find(method: string, path: RegExp): Recorded | undefined {
    return this.requests.find((r) => r.method === method && path.test(r.path));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => resolve(text));
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
