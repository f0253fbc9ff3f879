/** Checks of file modes: what is readable by others than the owner. */
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from "../../backend/db/private-files.ts";

/** A mode's permission bits in octal, as `ls` and `chmod` write them: "700". */
export const permissionsOf = (mode: number) => (mode & 0o777).toString(8);

/** Every folder (not 0700) and file (not 0600) from `root` down, as "relative/path mode". */
export async function notPrivate(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true });
  const loose: string[] = [];
  for (const entry of [root, ...names.map((name) => path.join(root, name))]) {
    const stats = await lstat(entry);
    const expected = stats.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o777) !== expected) {
      loose.push(`${path.relative(root, entry) || "."} ${permissionsOf(stats.mode)}`);
    }
  }
  return loose;
}
