import { SandboxExpired, type SandboxOptions } from "./types.js";

/** When a sandbox stops running commands: the job's deadline, and never later than its maximum age. */
export function sandboxDeadline(options: SandboxOptions, now = Date.now()): number {
  return Math.min(options.deadline ?? Infinity, now + options.limits.maxAgeMs);
}

/** A command's timeout cut to the time left before `deadline`; throws SandboxExpired past it. */
export function timeLeft(deadline: number, timeoutMs: number, now = Date.now()): number {
  const left = deadline - now;
  if (left <= 0) throw new SandboxExpired(deadline);
  return Math.min(timeoutMs, left);
}
