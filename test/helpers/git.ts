import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";

const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

/** Runs git in `cwd` with a fixed identity and returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...IDENTITY } }).trim();
}

/** `dir` as a git repository on branch main that serves any commit by sha, as GitHub does for a fetch. */
export function initOrigin(dir: string): void {
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "config", "uploadpack.allowAnySHA1InWant", "true");
}

/** A fresh RSA key in the PEM form GitHub issues for Apps. */
export function appPrivateKey(): string {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
}
