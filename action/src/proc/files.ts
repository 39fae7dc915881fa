// Files written whole: a reader (or a crash) never sees half of one.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { WriteError } from "../errors.ts";

/**
 * Write-then-rename, so a reader (or a crash) never sees half a file. A failed write leaves no
 * temporary file behind and is a WriteError naming the file and the errno.
 */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw new WriteError(file, e);
  }
}
