import { readFile } from "node:fs/promises";
import { arch, cpus, hostname, release, totalmem } from "node:os";
import type { Host } from "./model.ts";

async function osName(): Promise<string> {
  try {
    const text = await readFile("/etc/os-release", "utf8");
    return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** What a reader needs to judge whether two results came from comparable machines. */
export async function hostFacts(): Promise<Host> {
  const cpu = cpus();
  return {
    hostname: hostname(),
    cpu_model: cpu[0]?.model.trim() ?? "unknown",
    cores: cpu.length,
    memory_bytes: totalmem(),
    kernel: release(),
    os: await osName(),
    arch: arch(),
  };
}
