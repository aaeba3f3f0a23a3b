import type { IncomingMessage } from "node:http";
import type { Handler, NextFunction, Request, Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { Logger } from "pino";
import { basicAuthMatches, type Credentials } from "./basic-auth.js";

/** Failed logins one client address may make per window before every request of it waits. */
export const FAILED_LOGINS_PER_WINDOW = 20;
const WINDOW_MS = 15 * 60_000;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request comes from the dashboard's own pages: its Origin is this host, or it
 * names none and no browser says it is cross-site (`Sec-Fetch-Site`); a client that is no
 * browser (curl) sends neither. `Origin: null` (a sandboxed frame, a redirect) is foreign.
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

/**
 * The dashboard's guards, in order: no page of it may be framed (clickjacking); a client
 * address past FAILED_LOGINS_PER_WINDOW failed logins waits (429) whatever it sends, right
 * password included; basic auth; and a request that changes state must come from the
 * dashboard's own origin, since a browser sends the saved credentials with any site's form.
 */
export function dashboardGuard(credentials: Credentials, log: Logger): Handler[] {
  const frameDenied: Handler = (_req, res, next) => {
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
    next();
  };
  const failedLogins = rateLimit({
    windowMs: WINDOW_MS,
    limit: FAILED_LOGINS_PER_WINDOW,
    // Only a refused login counts: a request that passed is taken back off the count.
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== 401,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    message: "too many failed logins; try again later\n",
    // Its configuration warnings (a proxy's X-Forwarded-For, say) as one log line each, never a stack on stderr.
    logger: {
      warn: (err, message) => log.warn({ err: String(err) }, message ?? "dashboard rate limit"),
      error: (err, message) => log.error({ err: String(err) }, message ?? "dashboard rate limit"),
    },
  });
  const authenticated: Handler = (req, res, next) => {
    if (basicAuthMatches(req.headers.authorization, credentials)) return next();
    res.status(401).set("www-authenticate", 'Basic realm="hypofix"').type("text/plain");
    res.send("authentication required\n");
  };
  const ownOrigin: Handler = (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || sameOrigin(req)) return next();
    res.status(403).type("text/plain").send("cross-site request refused\n");
  };
  return [frameDenied, failedLogins, authenticated, ownOrigin];
}
