// A counting build of tidb-server (target.source.count, or target.counting for a binary built so):
// Go's coverage counters compiled into TiDB's packages (go build -cover -covermode=atomic), and a
// small file of tiperf's in the main package that serves them on a Unix socket named by
// TIPERF_COUNTERS_SOCKET. Read before and after a window and converted with `go tool covdata`,
// they give the Go statements the server executed — per source file, summed as
// go_stmts_per_op — a count of the code's work per operation that the machine's speed does not
// move, where CPU time per operation is 3.5–10% noisy per round.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { InputError } from "../../errors.ts";
import { COUNTERS_TIMEOUT_MS } from "../../observe/cost.ts";
import { counterKey, seriesKey } from "../../observe/counters.ts";

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
  const packages = count.packages?.length ? count.packages : [`${moduleOf(tree)}/...`];
  const flags = `-cover -covermode=atomic -coverpkg=${packages.join(",")}`;
  return {
    file: join(main, COUNTING_FILE),
    env: { ...env, GOFLAGS: env.GOFLAGS ? `${env.GOFLAGS} ${flags}` : flags },
  };
}

/** GET a path of the counters socket as bytes. */
function getSocket(socket: string, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, path, timeout: COUNTERS_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        if ((res.statusCode ?? 0) >= 400)
          reject(new Error(`${socket} ${path}: HTTP ${res.statusCode}: ${body.toString("utf8").trim()}`));
        else resolve(body);
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${socket} ${path}: no answer`)));
    req.on("error", reject);
    req.end();
  });
}

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

function runGo(go: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(go, args, { timeout: 60_000, maxBuffer: 1 << 20 }, (err, _out, stderr) =>
      err ? reject(new Error(`${go} ${args.join(" ")}: ${stderr.trim() || err.message}`)) : resolve(),
    );
  });
}

/** A counting build's counters, read over its socket: one per source file that executed statements. */
export class CodeCounters {
  private meta: { bytes: Buffer; hash: string } | undefined;
  private n = 0;

  constructor(
    private readonly socket: string,
    private readonly o: { go?: string; scratch?: string } = {},
  ) {}

  /** The statements each file executed so far, as counters `tidb:go_statements_total{file="…"}`. */
  async read(): Promise<Record<string, number>> {
    if (!this.meta) {
      const bytes = await getSocket(this.socket, "/meta");
      this.meta = { bytes, hash: metaHash(bytes) };
    }
    // the counters are taken at this GET; converting them afterwards does not move the window
    const counters = await getSocket(this.socket, "/counters");
    const dir = await mkdtemp(join(this.o.scratch ?? join(this.socket, ".."), `counters-${this.n++}-`));
    try {
      await writeFile(join(dir, `covmeta.${this.meta.hash}`), this.meta.bytes);
      await writeFile(join(dir, `covcounters.${this.meta.hash}.1.1`), counters);
      const out = join(dir, "statements.txt");
      await runGo(this.o.go ?? "go", ["tool", "covdata", "textfmt", `-i=${dir}`, `-o=${out}`]);
      const perFile = statementsPerFile(readFileSync(out, "utf8"));
      const result: Record<string, number> = {};
      for (const [file, n] of perFile) result[counterKey("tidb", seriesKey(GO_STATEMENTS, { file }))] = n;
      return result;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
