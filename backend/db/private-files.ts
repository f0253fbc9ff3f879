/**
 * The data directory (DATA_DIR) is the backend's alone: it holds the embedded database and, without
 * SECRETS_ENCRYPTION_KEY, the key that opens stored secrets. Folders are 0700 and files 0600, for
 * new installs and, corrected at start, for existing ones (docs/security.md#secrets-at-rest).
 */
import { chmod, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `folder` (and missing parents) readable by the owner only, or makes an existing one so. */
export async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await chmod(folder, PRIVATE_FOLDER_MODE);
}

/** Everything under `folder` to 0700 (folders) and 0600 (files); symbolic links are left alone. */
export async function makeContentPrivate(folder: string): Promise<void> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const mode = entry.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    await chmod(path.join(entry.parentPath, entry.name), mode);
  }
}
