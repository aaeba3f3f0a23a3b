/** What a benchmark result is stamped with: the machine, the commit. */
import { execFile } from "node:child_process";
import { cpus, release, totalmem, type, arch } from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memGb: number;
  node: string;
  os: string;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? "unknown",
    memGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${type()} ${release()} ${arch()}`,
  };
}

/** HEAD's sha, or "unknown" outside a git checkout. */
export async function gitCommit(cwd: string): Promise<string> {
  try {
    const { stdout } = await run("git", ["rev-parse", "HEAD"], { cwd });
    return stdout.trim();
  } catch {
    return "unknown";
  }
}
