// A private OpenSSH server on 127.0.0.1 for the load-host tests: its own host key, port, authorized
// key and pid, started and stopped by the test (Debian's openssh-server).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { freePort, startOnFreePort } from "../../action/src/proc/port.ts";
import type { RemoteHost } from "../../action/src/proc/ssh.ts";
import { tempDir } from "./real.ts";

export interface Sshd {
  host: RemoteHost;
  dir: string;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: "127.0.0.1", port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });

export async function startSshd(log: (line: string) => void = () => {}): Promise<Sshd> {
  const dir = tempDir("tiperf-sshd-");
  const key = (name: string) => {
    execFileSync("ssh-keygen", [
      "-q",
      "-t",
      "ed25519",
      "-N",
      "",
      "-C",
      `tiperf-test-${name}`,
      "-f",
      join(dir, name),
    ]);
    return join(dir, name);
  };
  const hostKey = key("host_key");
  const clientKey = key("client_key");
  execFileSync("cp", [`${clientKey}.pub`, join(dir, "authorized_keys")]);
  mkdirSync("/run/sshd", { recursive: true }); // sshd's privilege separation directory
  // a port taken between freePort and sshd's bind: sshd says "Address already in use" and exits;
  // started again on another (startOnFreePort), and ready only once sshd itself says it listens
  const { child, port } = await startOnFreePort(async () => {
    const port = await freePort();
    writeFileSync(
      join(dir, "sshd_config"),
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${hostKey}`,
        `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
        `PidFile ${join(dir, "sshd.pid")}`,
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PermitRootLogin prohibit-password",
        "StrictModes no",
        "UsePAM no",
        "",
      ].join("\n"),
    );
    const child: ChildProcess = spawn("/usr/sbin/sshd", ["-D", "-e", "-f", join(dir, "sshd_config")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    child.stderr?.on("data", (d) => {
      said += d;
    });
    for (let i = 0; i < 100 && !/Server listening on 127\.0\.0\.1 port/.test(said); i++) {
      if (child.exitCode !== null) throw new Error(`sshd exited: ${said}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!(await listening(port))) {
      child.kill("SIGKILL");
      throw new Error(`sshd did not listen on ${port}: ${said}`);
    }
    return { child, port };
  }, log);
  return {
    dir,
    host: {
      host: "127.0.0.1",
      port,
      user: userInfo().username,
      identity: clientKey,
      knownHosts: join(dir, "known_hosts"),
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}
