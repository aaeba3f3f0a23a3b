import { spawn } from "node:child_process";
import { isIP } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { HOST_PYTHON } from "./pytest.js";

const SCRIPT = fileURLToPath(new URL("./package_mirror.py", import.meta.url));

export interface PackageMirror {
  /** `http://HOST:PORT` (https when served with a certificate). */
  url: string;
  port: number;
  /** One line per request so far: "<method> <path> <status> auth=<yes|no>". */
  requests: string[];
  close(): void;
}

/**
 * Serves the wheels in `folder` as a PEP 503 index (`/simple/<project>/`) on `host` and a port the
 * system picks, so a setup installs from a mirror of ours and nothing leaves the machine.
 * `auth` ("user:password") makes every request need those credentials; `tls` serves HTTPS.
 */
export async function servePackageMirror(
  folder: string,
  host: string,
  options: { auth?: string; tls?: { cert: string; key: string } } = {},
): Promise<PackageMirror> {
  // An address, never a name: a name would be looked up in DNS.
  if (!isIP(host)) throw new Error(`the package mirror listens on an address, not ${JSON.stringify(host)}`);
  const child = spawn(HOST_PYTHON, ["-u", SCRIPT, folder, host], {
    env: {
      ...process.env,
      ...(options.auth ? { MIRROR_AUTH: options.auth } : {}),
      ...(options.tls ? { MIRROR_CERT: options.tls.cert, MIRROR_KEY: options.tls.key } : {}),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const requests: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the package mirror exited (${code}) before listening`)));
    lines.once("line", (line) => resolve(Number(line)));
  });
  lines.on("line", (line) => requests.push(line));
  const scheme = options.tls ? "https" : "http";
  return { url: `${scheme}://${host}:${port}`, port, requests, close: () => child.kill() };
}
