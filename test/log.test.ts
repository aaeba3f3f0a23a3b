import { describe, expect, it } from "vitest";
import { CENSOR, createLogger, redactSecrets } from "../src/log.js";
import { logSink } from "./helpers/log-sink.js";

const GHS = "ghs_16C7e42F292c6912E7710c838347Ae178B4a";
const SHA = "3f786850e387550fdab836ed7e6dc881de23001b";

describe("redactSecrets", () => {
  it("censors secret-named keys at any depth, in any spelling", () => {
    const record = {
      a: {
        b: { c: { token: "t1", headers: { Authorization: "token t2", "x-hub-signature-256": "sha256=ab" } } },
      },
      env: {
        HYPOFIX_LLM_API_KEY: "k",
        PRIVATE_KEY: "-----BEGIN",
        WEBHOOK_SECRET: "w",
        HYPOFIX_DASHBOARD_PASSWORD: "p",
      },
      list: [{ privateKey: "pk" }, { accessToken: "at", cookie: "c=1", "set-cookie": ["s=1"], apiKey: "x" }],
      auth: { appId: 1, privateKey: "pk" },
    };
    expect(redactSecrets(record)).toEqual({
      a: { b: { c: { token: CENSOR, headers: { Authorization: CENSOR, "x-hub-signature-256": CENSOR } } } },
      env: {
        HYPOFIX_LLM_API_KEY: CENSOR,
        PRIVATE_KEY: CENSOR,
        WEBHOOK_SECRET: CENSOR,
        HYPOFIX_DASHBOARD_PASSWORD: CENSOR,
      },
      list: [
        { privateKey: CENSOR },
        { accessToken: CENSOR, cookie: CENSOR, "set-cookie": CENSOR, apiKey: CENSOR },
      ],
      auth: CENSOR,
    });
  });

  it("masks token-shaped text in any string", () => {
    const record = {
      msg: `git fetch https://x-access-token:${GHS}@github.com/o/r.git failed`,
      deep: { deeper: { args: ["-c", `http.extraHeader=Authorization: Basic eC1hY2Nlc3M6Z2hz`] } },
      header: "Bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2ln",
      tokens: `pat github_pat_11ABCDEFG0123456789_abcdefXYZ and ghp_abcdefABCDEF0123456789 and gho_x1 ghu_y2`,
      redis: "redis://:hunter2@localhost:6379/0",
    };
    expect(redactSecrets(record)).toEqual({
      msg: `git fetch https://${CENSOR}@github.com/o/r.git failed`,
      deep: { deeper: { args: ["-c", `http.extraHeader=Authorization: Basic ${CENSOR}`] } },
      header: `Bearer ${CENSOR}`,
      tokens: `pat ${CENSOR} and ${CENSOR} and ${CENSOR} ${CENSOR}`,
      redis: `redis://${CENSOR}@localhost:6379/0`,
    });
  });

  it("masks PEM blocks, sk- keys, bare JWTs and api-key/password values in running text (issue 23)", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx2f\nq9Zb==\n-----END RSA PRIVATE KEY-----";
    const jwt = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiIxMjM0NSJ9.c2lnbmF0dXJlLWJ5dGVz";
    const record = {
      pem: `could not parse ${pem} as a key`,
      cut: `key starts -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC`,
      openai: "401 from the model: Incorrect API key provided: sk-proj-AbCdEf0123456789xyzXYZ_-q",
      jwt: `app token ${jwt} rejected`,
      header:
        "curl -H 'x-api-key: 9f8e7d6c5b4a3210' and api_key=abc123def456 and password: hunter2 client_secret=s3cr3t",
    };
    expect(redactSecrets(record)).toEqual({
      pem: `could not parse ${CENSOR} as a key`,
      cut: `key starts ${CENSOR}`,
      openai: `401 from the model: Incorrect API key provided: ${CENSOR}`,
      jwt: `app token ${CENSOR} rejected`,
      header: `curl -H 'x-api-key: ${CENSOR}' and api_key=${CENSOR} and password: ${CENSOR} client_secret=${CENSOR}`,
    });
  });

  it("leaves harmless keys and values alone", () => {
    const record = {
      tokenizer: "tokenizer",
      usage: { promptTokens: 800, completionTokens: 300, maxTokens: 4096 },
      hasToken: true,
      token: null,
      expiresToken: 3600,
      head: SHA,
      author: "octocat",
      signature: "def f(x: int) -> int",
      url: "https://github.com/o/r/pull/1",
      ssh: "git@github.com:o/r.git",
      text: "the bearer of a token said: basic block at 0x1f",
      words: "sk-learn and the api key rotation; password reset; eyJ is how base64 JSON starts",
      certificate: "-----BEGIN CERTIFICATE----- is public",
    };
    expect(redactSecrets(record)).toEqual(record);
  });
});

interface LogLine {
  msg: string;
  err?: { message: string; stack: string };
}

describe("createLogger", () => {
  it("writes lines without secrets from nested objects, child bindings and errors", () => {
    const { lines, sink } = logSink();
    const log = createLogger("info", sink).child({ job: { auth: { token: GHS } } });
    log.info({ a: { b: { c: { password: "hunter2", note: `use ${GHS}` } } }, head: SHA }, "nested");
    const err = new Error(`clone of https://x-access-token:${GHS}@github.com/o/r.git failed`);
    log.error({ err }, "clone failed");
    log.warn(err);

    const text = lines.join("");
    expect(text).not.toContain(GHS);
    expect(text).not.toContain("hunter2");
    const [nested, failed, bare] = lines.map((l) => JSON.parse(l) as LogLine);
    expect(nested).toMatchObject({
      msg: "nested",
      head: SHA,
      job: { auth: CENSOR },
      a: { b: { c: { password: CENSOR, note: `use ${CENSOR}` } } },
    });
    const message = `clone of https://${CENSOR}@github.com/o/r.git failed`;
    expect(failed).toMatchObject({ msg: "clone failed", err: { type: "Error", message } });
    expect(failed?.err?.stack).toContain(message);
    expect(bare).toMatchObject({ msg: message, err: { message } });
    expect(lines.every((l) => l.endsWith("}\n"))).toBe(true);
  });
});
