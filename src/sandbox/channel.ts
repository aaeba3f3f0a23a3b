import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * The runner's side of the channel is authenticated: each line it sends is
 * `<hmac-sha256 hex> <json>` under a key the host hands it on stdin. Test code in
 * the container does not know the key, so a line it manages to inject is refused.
 */

/** Longest line the host reads from the runner: data messages carry 64 KiB of base64. */
export const MAX_LINE_BYTES = 256 * 1024;

const MAC_HEX = 64;

/** A fresh key for one runner. */
export function channelKey(): Buffer {
  return randomBytes(32);
}

/** The MAC the runner puts before `body` (supervisor.py computes the same). */
export function messageMac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

/** The JSON of an authentic line; undefined when the MAC is missing or wrong, or the body is not JSON. */
export function openMessage(key: Buffer, line: string): unknown {
  if (line.length < MAC_HEX + 2 || line[MAC_HEX] !== " ") return undefined;
  const body = line.slice(MAC_HEX + 1);
  const given = Buffer.from(line.slice(0, MAC_HEX), "utf8");
  const expected = Buffer.from(messageMac(key, body), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
