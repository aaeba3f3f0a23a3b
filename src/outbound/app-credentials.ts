import { getPrivateKey } from "@probot/get-private-key";
import type { Config } from "../config.js";
import { UserError } from "../errors.js";

export interface AppCredentials {
  appId: number;
  privateKey: string;
  webhookSecret: string;
}

/** The GitHub App's identity from the environment; one message naming every missing variable. */
export function appCredentials(
  config: Config,
  needSecret: boolean,
  source: NodeJS.ProcessEnv = process.env,
): AppCredentials {
  const env = config.env;
  let privateKey: string | null = null;
  let keyProblem = "";
  try {
    // Accepts PRIVATE_KEY (PEM, escaped newlines or base64) and PRIVATE_KEY_PATH, as Probot does.
    privateKey = getPrivateKey({ env: source });
  } catch (err) {
    keyProblem = err instanceof Error ? err.message : String(err);
  }
  const missing = [
    env.APP_ID ? "" : "APP_ID",
    privateKey ? "" : "PRIVATE_KEY (or PRIVATE_KEY_PATH)",
    !needSecret || env.WEBHOOK_SECRET ? "" : "WEBHOOK_SECRET",
  ].filter(Boolean);
  if (missing.length > 0 || !privateKey) {
    throw new UserError(
      `the GitHub App is not configured: set ${missing.join(", ")}${keyProblem ? ` (${keyProblem})` : ""}`,
      "register the App from app.yml and copy its id, private key and webhook secret",
    );
  }
  return { appId: Number(env.APP_ID), privateKey, webhookSecret: env.WEBHOOK_SECRET ?? "" };
}
