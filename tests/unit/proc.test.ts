import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { childEnv } from "../../action/src/proc/env.ts";
import { shellCommand, shellQuote } from "../../action/src/proc/quote.ts";
import { proxyCommand, sshArgs } from "../../action/src/proc/ssh.ts";

describe("shellQuote: what a POSIX shell reads back is the argument", () => {
  const hostile = [
    "plain",
    "",
    "two words",
    "--rand-type=$(touch /tmp/pwned)",
    "`id`",
    "it's",
    "'''",
    'a "quoted" \\ back\\slash',
    "semi;colon && or || pipe | amp &",
    "glob * ? [a-z] ~ {a,b}",
    "new\nline\ttab",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, on purpose
    "$HOME ${PATH} $1 $@",
    "-n",
    "ünïcødé ✓",
    "!history",
  ];
  for (const arg of hostile) {
    test(JSON.stringify(arg), () => {
      // printf prints each argument between markers: the shell must pass it through untouched.
      const out = execFileSync("sh", ["-c", `printf '<%s>' ${shellQuote(arg)}`], { encoding: "utf8" });
      assert.equal(out, `<${arg}>`);
    });
  }

  test("safe words stay readable; a command line quotes each argument", () => {
    assert.equal(shellQuote("--mysql-port=3306"), "--mysql-port=3306");
    assert.equal(shellQuote("/usr/share/sysbench/oltp_common.lua"), "/usr/share/sysbench/oltp_common.lua");
    assert.equal(
      shellCommand(["sysbench", "--rand-type=$(touch /tmp/pwned)", "run"]),
      "sysbench '--rand-type=$(touch /tmp/pwned)' run",
    );
    const out = execFileSync("sh", ["-c", `printf '<%s>' ${shellCommand(hostile)}`], { encoding: "utf8" });
    assert.equal(out, hostile.map((a) => `<${a}>`).join(""));
  });
});

describe("childEnv: children get a clean environment", () => {
  const polluted = {
    PATH: "/usr/bin:/bin",
    HOME: "/root",
    LANG: "de_DE.UTF-8",
    MYSQL_PWD: "wrong",
    MYSQL_HOST: "10.0.0.9",
    PGPASSWORD: "wrong",
    PGHOST: "elsewhere",
    PGUSER: "nobody",
    GITHUB_TOKEN: "ghp_secret",
    AWS_SECRET_ACCESS_KEY: "aws-secret",
    AWS_SESSION_TOKEN: "aws-session",
    ACTIONS_RUNTIME_TOKEN: "runtime",
    LD_PRELOAD: "/tmp/evil.so",
  };

  test("client defaults and credentials stay out; PATH, HOME and the locale come in", () => {
    const env = childEnv({}, polluted);
    assert.deepEqual(Object.keys(env).sort(), ["HOME", "LANG", "LC_NUMERIC", "PATH"]);
    assert.equal(env.PATH, "/usr/bin:/bin");
    assert.equal(env.LC_NUMERIC, "C", "numbers the parsers read are printed in the C locale");
  });

  test("extra variables are added; a missing PATH gets the system default", () => {
    const env = childEnv({ PGOPTIONS: "-c x=y" }, { MYSQL_PWD: "x" });
    assert.equal(env.PGOPTIONS, "-c x=y");
    assert.match(env.PATH ?? "", /\/usr\/bin/);
    assert.equal(env.MYSQL_PWD, undefined);
  });
});

describe("ssh through a bastion: the ProxyCommand", () => {
  test("each argument quoted for the shell, every % doubled except the target's %h:%p; paths as ssh option values", () => {
    const jump = { host: "203.0.113.7", user: "ops", port: 2222, identity: "/keys/key 100%" };
    const cmd = proxyCommand(jump);
    assert.match(cmd, /^ssh .* -W %h:%p 203\.0\.113\.7$/);
    // the shell reads back the arguments ssh gets once its own %-expansion turned %% into %
    const argv = execFileSync(
      "sh",
      ["-c", `printf '%s\\n' ${cmd.replace(/^ssh /, "").replace(/%%/g, "%")}`],
      { encoding: "utf8" },
    )
      .trimEnd()
      .split("\n");
    assert.ok(argv.includes('IdentityFile="/keys/key 100%%"'), argv.join(" | "));
    assert.deepEqual(argv.slice(-3), ["-W", "%h:%p", "203.0.113.7"]);
    assert.ok(argv.includes("-p") && argv[argv.indexOf("-p") + 1] === "2222");
    const args = sshArgs({ host: "10.0.0.5", user: "ops", port: 22, jump }, "true");
    assert.ok(args.includes(`ProxyCommand=${cmd}`));
    assert.throws(() => sshArgs({ host: "h", user: "u", port: 22, identity: 'a"b' }, "true"), /double quote/);
  });
});
