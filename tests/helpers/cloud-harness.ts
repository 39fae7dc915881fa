// Test-only: runs tiperf's cloud lifecycle (action/src/cloud/stack.ts) on the fake cloud of files
// (fake-cloud.ts) under the real Pulumi CLI, in its own process, so tests can kill it.
//   cloud-harness.ts CONFIG.json up        up, print the outputs, leave the stack (no teardown)
//   cloud-harness.ts CONFIG.json up-fail   up (a machine fails), then the teardown
//   cloud-harness.ts CONFIG.json recover   recover the stack a dead run left, exit
//   cloud-harness.ts CONFIG.json lifecycle up, destroy, destroy again
//   cloud-harness.ts CONFIG.json run ARGS… up, then `tiperf ARGS…` (its teardown destroys the stack)
//   cloud-harness.ts CONFIG.json tiperf ARGS…  `tiperf ARGS…` with the fake cloud in place of aws
//                                              (config: cloudDir, sshPort, authorizedKeys)
import { readFileSync } from "node:fs";
import { CLOUDS } from "../../action/src/cloud/registry.ts";
import { CloudStack, type StackOptions } from "../../action/src/cloud/stack.ts";
import { teardownAll } from "../../action/src/lifecycle/teardown.ts";
import { fakeCloudProgram, fakeCloudProvider, fakeRemoveByTag } from "./fake-cloud.ts";

export interface HarnessConfig {
  /** tiperf mode: the test sshd every fake machine is reached on. */
  sshPort?: number;
  authorizedKeys?: string;
  stack: string;
  backend: string;
  workDir: string;
  cloudDir: string;
  runId: string;
  names: string[];
  bootMs?: Record<string, number>;
  failAt?: string;
}

const [configFile, mode, ...rest] = process.argv.slice(2);
const c = JSON.parse(readFileSync(configFile as string, "utf8")) as HarnessConfig;
const log = (line: string) => process.stderr.write(`${line}\n`);
const tags = { "tiperf:run-id": c.runId, "tiperf:expires-at": "2099-01-01T00:00:00Z" };
const options = (): StackOptions => ({
  stack: c.stack,
  backend: c.backend,
  workDir: c.workDir,
  runId: c.runId,
  program: fakeCloudProgram({
    dir: c.cloudDir,
    names: c.names,
    tags,
    ...(c.failAt ? { failAt: c.failAt } : {}),
    ...(c.bootMs ? { bootMs: c.bootMs } : {}),
  }),
  removeByTag: (runId) => fakeRemoveByTag(c.cloudDir, runId),
  log,
});
const open = () => CloudStack.open(options());

switch (mode) {
  case "up": {
    const s = await open();
    process.stdout.write(`${JSON.stringify(await s.up())}\n`);
    process.exit(0);
    break;
  }
  case "up-fail": {
    const s = await open();
    let code = 0;
    try {
      await s.up();
    } catch (e) {
      log(`up failed: ${(e as Error).message.split("\n")[0]}`);
      code = 3;
    } finally {
      await teardownAll(log);
    }
    process.exit(code);
    break;
  }
  case "recover":
    process.exit((await CloudStack.recoverLeft(options())) ? 0 : 4);
    break;
  case "lifecycle": {
    const s = await open();
    await s.up();
    await s.destroy();
    await s.destroy();
    process.exit(0);
    break;
  }
  case "run": {
    const s = await open();
    await s.up();
    log("harness: cluster up; starting tiperf");
    // the CLI runs its command on import, with its own signal handling and teardown
    process.argv = [process.argv[0] as string, "tiperf", ...rest];
    await import("../../action/src/cli.ts");
    break;
  }
  case "tiperf": {
    CLOUDS.aws = fakeCloudProvider({
      dir: c.cloudDir,
      sshPort: c.sshPort as number,
      authorizedKeys: c.authorizedKeys as string,
      ...(c.bootMs ? { bootMs: c.bootMs } : {}),
    });
    process.argv = [process.argv[0] as string, "tiperf", ...rest];
    await import("../../action/src/cli.ts");
    break;
  }
  default:
    throw new Error(`cloud-harness: unknown mode ${mode}`);
}
