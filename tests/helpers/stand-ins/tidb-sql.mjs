// TEST-ONLY STAND-IN for the part of TiDB's SQL a stand-in cluster's MariaDB does not speak: a TCP
// front on its own port that passes the MySQL protocol through to the MariaDB and rewrites the two
// statements of TiDB's dynamic config (dynamic-config.md) into ones MariaDB answers in the same
// shape, so the client sees what TiDB would send:
//   SET CONFIG <role> `<item>` = <value>   → the item recorded (`set`), then `DO 0` (OK); when `set`
//                                            returns a reason, a statement that leaves it as a warning
//   SHOW CONFIG WHERE type = '<role>' AND name IN ('<item>', …)
//                                          → a SELECT of the rows (Type, Instance, Name, Value) `show` gives
// Commands are the client's packets with sequence id 0; the handshake (ids 1…) passes untouched.
// It measures nothing of TiDB.
import { connect, createServer } from "node:net";

const sqlString = (s) => `'${String(s).replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
const unquote = (s) => {
  const t = s.trim();
  return /^'.*'$/s.test(t) ? t.slice(1, -1).replaceAll("''", "'") : t;
};

/** A statement MariaDB answers as TiDB would answer `query`, or undefined to pass it through. */
export function rewrite(query, { set, show }) {
  const setConfig = /^\s*SET\s+CONFIG\s+(\w+)\s+`((?:[^`]|``)+)`\s*=\s*(.+?)\s*;?\s*$/is.exec(query);
  if (setConfig) {
    const [, role, item, value] = setConfig;
    const refused = set(role.toLowerCase(), item.replaceAll("``", "`"), unquote(value));
    // a CAST MariaDB cannot make leaves warning 1292 with the reason in it, as TiDB leaves one
    return refused ? `DO CAST(${sqlString(`stand-in refused: ${refused}`)} AS SIGNED)` : "DO 0";
  }
  const showConfig =
    /^\s*SHOW\s+CONFIG\s+WHERE\s+type\s*=\s*'(\w+)'\s+AND\s+name\s+IN\s*\((.*)\)\s*;?\s*$/is.exec(query);
  if (showConfig) {
    const role = showConfig[1].toLowerCase();
    const names = [...showConfig[2].matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replaceAll("''", "'"));
    const rows = show(role, names);
    if (!rows.length)
      return `SELECT ${sqlString(role)} AS Type, '' AS Instance, '' AS Name, '' AS Value FROM DUAL WHERE 0`;
    return rows
      .map(
        (r, i) =>
          `SELECT ${[r.type, r.instance, r.name, r.value]
            .map(sqlString)
            .map((v, j) => (i === 0 ? `${v} AS ${["Type", "Instance", "Name", "Value"][j]}` : v))
            .join(", ")}`,
      )
      .join(" UNION ALL ");
  }
  return undefined;
}

/** The front: listens on 127.0.0.1:`port` (0: any), forwards to 127.0.0.1:`upstream()`. */
export function tidbSqlFront({ port = 0, upstream, set, show }) {
  const server = createServer((client) => {
    const db = connect(upstream(), "127.0.0.1");
    db.on("error", () => client.destroy());
    client.on("error", () => db.destroy());
    db.pipe(client);
    let buf = Buffer.alloc(0);
    client.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 4) {
        const len = buf.readUIntLE(0, 3);
        if (buf.length < 4 + len) break;
        const packet = buf.subarray(0, 4 + len);
        buf = buf.subarray(4 + len);
        const seq = packet[3];
        // COM_QUERY (0x03) as a command: a packet that starts a new exchange (sequence id 0)
        const sql =
          seq === 0 && packet[4] === 0x03
            ? rewrite(packet.subarray(5).toString("utf8"), { set, show })
            : undefined;
        if (sql === undefined) {
          db.write(packet);
          continue;
        }
        const payload = Buffer.concat([Buffer.from([0x03]), Buffer.from(sql, "utf8")]);
        const header = Buffer.alloc(4);
        header.writeUIntLE(payload.length, 0, 3);
        header[3] = 0;
        db.write(Buffer.concat([header, payload]));
      }
    });
    client.on("end", () => db.end());
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
