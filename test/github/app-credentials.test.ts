import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { UserError } from "../../src/errors.js";
import { appCredentials } from "../../src/outbound/app-credentials.js";
import { appPrivateKey } from "../helpers/git.js";

const credentials = (env: NodeJS.ProcessEnv, needSecret = true) =>
  appCredentials(loadConfig(env), needSecret, env);

describe("appCredentials", () => {
  it("names every missing variable in one message", () => {
    const err = (() => {
      try {
        credentials({});
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe(
      "the GitHub App is not configured: set APP_ID, PRIVATE_KEY (or PRIVATE_KEY_PATH), WEBHOOK_SECRET",
    );
  });

  it("accepts a key with escaped newlines, as one-line secret stores give it", () => {
    const pem = appPrivateKey();
    const env = { APP_ID: "42", PRIVATE_KEY: pem.replace(/\n/g, "\\n"), WEBHOOK_SECRET: "s" };
    expect(credentials(env)).toEqual({ appId: 42, privateKey: pem, webhookSecret: "s" });
  });

  it("does not ask the worker for a webhook secret", () => {
    const env = { APP_ID: "42", PRIVATE_KEY: appPrivateKey() };
    expect(credentials(env, false).webhookSecret).toBe("");
  });
});
