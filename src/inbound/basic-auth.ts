import { createHash, timingSafeEqual } from "node:crypto";

export interface Credentials {
  user: string;
  password: string;
}

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

/**
 * True when an `Authorization: Basic …` header carries exactly these credentials.
 * Compared as digests in constant time, so neither length nor prefix leaks.
 */
export function basicAuthMatches(header: string | undefined, expected: Credentials): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const user = timingSafeEqual(digest(decoded.slice(0, colon)), digest(expected.user));
  const password = timingSafeEqual(digest(decoded.slice(colon + 1)), digest(expected.password));
  return user && password;
}
