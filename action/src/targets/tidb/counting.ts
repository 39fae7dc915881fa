// A counting build of tidb-server (target.source.count, or target.counting for a binary built so):
// Go's coverage counters compiled into TiDB's packages (go build -cover -covermode=atomic), and a
// small file of tiperf's in the main package that serves them on a Unix socket named by
// TIPERF_COUNTERS_SOCKET. Read before and after a window and converted with `go tool covdata`,
// they give the Go statements the server executed — per source file, summed as
// go_stmts_per_op — a count of the code's work per operation that the machine's speed does not
// move, where CPU time per operation is 3.5–10% noisy per round.
import { existsSync, readFileSync } from "node:fs";
import { link, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inherited } from "../../environment.ts";
import { InputError } from "../../errors.ts";
import { COUNTERS_TIMEOUT_MS } from "../../observe/cost.ts";
import { counterKey, seriesKey } from "../../observe/server-counters.ts";
import { runCommand } from "../../proc/process.ts";
import { getBytes } from "./status-api.ts";

/** The file tiperf adds to the main package of a counting build (removed after the build). */
export const COUNTING_FILE = "tiperf_counting.go";

/** The variable naming the socket a counting build serves its counters on (unset: it serves none). */
export const COUNTERS_SOCKET_ENV = "TIPERF_COUNTERS_SOCKET";

/** The counter series of one source file's executed statements: `tidb:go_statements_total{file=…}`. */
export const GO_STATEMENTS = "go_statements_total";

/** tiperf's file in the main package: GET /meta and /counters on the socket, as runtime/coverage writes them. */
export const COUNTING_GO = `// Added by tiperf to a counting build (go build -cover); not part of the tree. It serves this
// process's coverage counters on the Unix socket named by ${COUNTERS_SOCKET_ENV}, so that the Go
// statements executed over a window can be read (runtime/coverage, Go 1.20 or later).
package main

import (
	"net"
	"net/http"
	"os"
	"runtime/coverage"
)

func init() {
	socket := os.Getenv("${COUNTERS_SOCKET_ENV}")
	if socket == "" {
		return
	}
	_ = os.Remove(socket)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		os.Stderr.WriteString("tiperf counting build: cannot serve counters on " + socket + ": " + err.Error() + "\\n")
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/meta", func(w http.ResponseWriter, _ *http.Request) {
		if err := coverage.WriteMeta(w); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/counters", func(w http.ResponseWriter, _ *http.Request) {
		if err := coverage.WriteCounters(w); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	go func() { _ = http.Serve(ln, mux) }()
}
`;

/** What target.source.count asks: the main package's directory and the packages to count. */
export interface CountSpec {
  main: string;
  packages?: string[];
}

/** The module path of a Go tree (its go.mod's `module` line). */
export function moduleOf(tree: string): string {
  const file = join(tree, "go.mod");
  const m = existsSync(file) ? /^module\s+(\S+)/m.exec(readFileSync(file, "utf8")) : null;
  if (!m)
    throw new InputError(`target.source.count: ${file} names no module: a counting build needs a Go module`);
  return m[1] as string;
}

/**
 * How a counting build is made in a checkout: tiperf's file to write into the main package, and
 * the GOFLAGS that compile coverage counters into the counted packages (default: every package of
 * the tree's module), added to any GOFLAGS the build already has.
 */
export function countingBuild(
  tree: string,
  count: CountSpec,
  env: Record<string, string>,
): { file: string; env: Record<string, string> } {
  const main = join(tree, count.main);
  if (!existsSync(main))
    throw new InputError(
      `target.source.count.main: ${count.main} is not a directory of the checkout (the main package of tidb-server, like cmd/tidb-server)`,
    );
  const flags = coverFlags(count.packages?.length ? count.packages : [`${moduleOf(tree)}/...`]);
  return {
    file: join(main, COUNTING_FILE),
    env: { ...env, GOFLAGS: env.GOFLAGS ? `${env.GOFLAGS} ${flags}` : flags },
  };
}

/** The Go flags that compile coverage counters into `packages` (their patterns, comma-joined). */
export const coverFlags = (packages: readonly string[]) =>
  `-cover -covermode=atomic -coverpkg=${packages.join(",")}`;

/** The hash a coverage meta-data file is named by (its header's MetaFileHash, bytes 24–40). */
export function metaHash(meta: Buffer): string {
  // runtime/coverage's meta-data file starts with "\x00\x63\x76\x6d" ("\0cvm")
  if (meta.length < 40 || meta.readUInt32BE(0) !== 0x0063766d)
    throw new Error("not a Go coverage meta-data file (is the binary a counting build, go build -cover?)");
  return meta.subarray(24, 40).toString("hex");
}

/**
 * Statements executed per source file from `go tool covdata textfmt` output (`file:l.c,l.c
 * statements count` per block): Σ statements × count, files that executed none left out; tiperf's
 * own file (serving the counters) too.
 */
export function statementsPerFile(textfmt: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of textfmt.split("\n")) {
    const m = /^(.+):\d+\.\d+,\d+\.\d+ (\d+) (\d+)$/.exec(line);
    if (!m) continue;
    const file = m[1] as string;
    const n = Number(m[2]) * Number(m[3]);
    if (n === 0 || file.endsWith(`/${COUNTING_FILE}`)) continue;
    out.set(file, (out.get(file) ?? 0) + n);
  }
  return out;
}

/** One function's statements executed so far, and the file it is in. */
export interface FunctionStatements {
  file: string;
  n: number;
}

/** Go's name of a function as pprof spells it: `pkg.f`, `pkg.T.m`, `pkg.(*T).m`. */
function goName(pkg: string, fn: string): string {
  const m = /^\*([^.]+)\.(.+)$/.exec(fn);
  return m ? `${pkg}.(*${m[1]}).${m[2]}` : `${pkg}.${fn}`;
}

/**
 * Statements executed per function from `go tool covdata debugdump` output (per package a
 * "Package path:" line, per function "Func:" and "Srcfile:" lines, then one line per block:
 * `0: L4:C23 -- L4:C48 NS=2 = 5`, statements and executions): Σ statements × executions; a
 * function literal's blocks count in the function around it. Functions that executed none and
 * tiperf's own file left out.
 */
export function statementsPerFunction(dump: string): Map<string, FunctionStatements> {
  const out = new Map<string, FunctionStatements>();
  let pkg = "";
  let fn = "";
  let file = "";
  for (const line of dump.split("\n")) {
    const header = /^(Package path|Func|Srcfile): (.+)$/.exec(line);
    if (header) {
      const [, key, value] = header as unknown as [string, string, string];
      if (key === "Package path") pkg = value;
      else if (key === "Func") fn = value;
      else file = value;
      continue;
    }
    const m = /^\d+: L\d+:C\d+ -- L\d+:C\d+ NS=(\d+) = (\d+)$/.exec(line);
    if (!m || !fn || file.endsWith(`/${COUNTING_FILE}`)) continue;
    const n = Number(m[1]) * Number(m[2]);
    if (n === 0) continue;
    const name = goName(pkg, fn);
    const entry = out.get(name) ?? { file, n: 0 };
    entry.n += n;
    out.set(name, entry);
  }
  return out;
}

/** A counting build's counters, read over its socket: one per source file that executed statements. */
export class CodeCounters {
  /** The directory holding the meta-data file, written once; each reading's counters beside a link to it. */
  private meta: Promise<{ dir: string; file: string; hash: string }> | undefined;
  private n = 0;

  constructor(
    private readonly socket: string,
    private readonly o: { go?: string; scratch?: string } = {},
  ) {}

  private get(path: string): Promise<Buffer> {
    return getBytes({ socketPath: this.socket, path }, COUNTERS_TIMEOUT_MS).catch((e: Error) => {
      throw new Error(`${this.socket} ${path}: ${e.message}`);
    });
  }

  /** The process's meta-data, fetched and written once (it does not change while it runs). */
  private metaData() {
    this.meta ??= (async () => {
      const bytes = await this.get("/meta");
      const hash = metaHash(bytes);
      const dir = await mkdtemp(join(this.o.scratch ?? join(this.socket, ".."), "counters-meta-"));
      const file = join(dir, `covmeta.${hash}`);
      await writeFile(file, bytes);
      return { dir, file, hash };
    })().catch((e) => {
      this.meta = undefined;
      throw e;
    });
    return this.meta;
  }

  /**
   * The process's counters now, written beside its meta-data and converted with `go tool covdata`
   * (`tool`: textfmt or debugdump), the tool's output returned.
   */
  private async convert(tool: "textfmt" | "debugdump"): Promise<string> {
    const meta = await this.metaData();
    // the counters are taken at this GET; converting them afterwards does not move the window
    const counters = await this.get("/counters");
    const dir = join(meta.dir, `reading-${this.n++}`);
    try {
      await mkdir(dir);
      await link(meta.file, join(dir, `covmeta.${meta.hash}`));
      await writeFile(join(dir, `covcounters.${meta.hash}.1.1`), counters);
      const out = join(dir, "statements.txt");
      const go = this.o.go ?? "go";
      const args = ["tool", "covdata", tool, `-i=${dir}`, ...(tool === "textfmt" ? [`-o=${out}`] : [])];
      const r = await runCommand(go, args, { timeoutMs: 60_000, env: inherited() });
      if (r.code !== 0)
        throw new Error(`${go} ${args.join(" ")}: ${r.stderr.trim() || `exit ${r.code ?? r.signal}`}`);
      return tool === "textfmt" ? await readFile(out, "utf8") : r.stdout;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The statements each file executed so far, as counters `tidb:go_statements_total{file="…"}`. */
  async read(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const [file, n] of statementsPerFile(await this.convert("textfmt")))
      result[counterKey("tidb", seriesKey(GO_STATEMENTS, { file }))] = n;
    return result;
  }

  /** The statements each function executed so far (a regressed cell's code profile, code-profile.ts). */
  async functions(): Promise<Map<string, FunctionStatements>> {
    const out = statementsPerFunction(await this.convert("debugdump"));
    if (!out.size)
      throw new Error(
        "go tool covdata debugdump named no function that executed (has its output's format changed?)",
      );
    return out;
  }
}
