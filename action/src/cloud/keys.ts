// The key pair of one run: generated in memory, its private half written 0600 into the run
// directory for tiup and ssh (never logged), its public half given to AWS as the run's key pair.
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";

/** An SSH wire-format string: 4-byte big-endian length, then the bytes. */
function wire(bytes: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/** A JWK base64url integer as an SSH mpint (a leading zero byte when the top bit is set). */
function mpint(b64url: string): Buffer {
  let bytes = Buffer.from(b64url, "base64url");
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return wire(bytes);
}

export interface RunKey {
  /** `ssh-rsa AAAA… comment`, as authorized_keys and EC2's ImportKeyPair take it. */
  publicKey: string;
  /** PEM (PKCS#1), as OpenSSH and tiup read it. */
  privateKey: string;
}

export function generateRunKey(comment: string): RunKey {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  const jwk = publicKey.export({ format: "jwk" });
  const blob = Buffer.concat([wire(Buffer.from("ssh-rsa")), mpint(jwk.e as string), mpint(jwk.n as string)]);
  return {
    publicKey: `ssh-rsa ${blob.toString("base64")} ${comment}`,
    privateKey: privateKey.export({ format: "pem", type: "pkcs1" }).toString(),
  };
}

/** Writes the private key readable by its owner only (ssh refuses a key others can read). */
export async function writePrivateKey(file: string, key: RunKey): Promise<void> {
  await writeFile(file, key.privateKey, { mode: 0o600, flag: "wx" });
}
