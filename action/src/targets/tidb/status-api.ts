// The components' HTTP APIs (TiDB's status port, TiKV's and PD's): GET as bytes or JSON, POST JSON.
import { get as httpGet, request as httpRequest, type IncomingMessage } from "node:http";

/**
 * GET a component's HTTP API as bytes (a pprof profile, or JSON). Not fetch(): the Fetch standard
 * blocks port 10080 (TiDB's status port) as a "bad port". Waits at most `timeoutMs` for an answer.
 */
export function getBytes(
  url: string | { socketPath: string; path: string },
  timeoutMs = 10_000,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const answer = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () =>
        (res.statusCode ?? 0) >= 400
          ? reject(new Error(`HTTP ${res.statusCode}`))
          : resolve(Buffer.concat(chunks)),
      );
    };
    // a Unix socket's API (a counting build's counters) is asked by path
    const req =
      typeof url === "string"
        ? httpGet(url, { timeout: timeoutMs }, answer)
        : httpGet({ ...url, timeout: timeoutMs }, answer);
    req.on("timeout", () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)}s`)));
    req.on("error", reject);
  });
}

/** GET a component's JSON API (see getBytes). */
export async function getJson(url: string): Promise<unknown> {
  const body = (await getBytes(url)).toString("utf8");
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`not JSON: ${body.slice(0, 200)}`);
  }
}

/** POST JSON to a component's API; anything but 200 rejects with the status and the answer's body. */
export function postJson(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", timeout: 10_000, headers: { "content-type": "application/json" } },
      (res) => {
        let answer = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          answer += d;
        });
        res.on("end", () =>
          res.statusCode === 200
            ? resolve()
            : reject(
                new Error(`POST ${url} ${body}: HTTP ${res.statusCode}: ${answer.trim().slice(0, 300)}`),
              ),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error(`POST ${url}: no answer within 10s`)));
    req.on("error", reject);
    req.end(body);
  });
}
