import { lstat } from 'node:fs/promises';
import { readBytesInside } from '../../platform/files/readInside';
import type { Workspace } from '../../ports';
import { contentHash } from './contentHash';

/** A file as the user sees it: the editor's unsaved text where there is one, else the disk. */
export interface SeenFile {
  /** null: there is no such file. */
  bytes: Buffer | null;
  hash: string | null;
  /** An editor holds text that is not saved: it differs from the disk. */
  unsaved: boolean;
  /** The disk file's modification time (0 when missing). */
  mtimeMs: number;
}

const MISSING: SeenFile = { bytes: null, hash: null, unsaved: false, mtimeMs: 0 };

/**
 * Reads `abs` as the Workspace port shows it (an editor's buffer, dirty or not) and as the disk
 * has it: the same text is the disk's bytes (binary files are not decoded and re-encoded), other
 * text is an unsaved editor buffer.
 */
export async function seeFile(workspace: Workspace, abs: string): Promise<SeenFile> {
  const info = await lstat(abs).catch(() => undefined);
  if (!info?.isFile()) return MISSING;
  const disk = await readBytesInside(workspace.root, abs).catch(() => undefined);
  if (!disk) return MISSING;
  const text = await workspace.readFile(abs).catch(() => undefined);
  if (text === undefined || text === disk.toString('utf8'))
    return { bytes: disk, hash: contentHash(disk), unsaved: false, mtimeMs: info.mtimeMs };
  const shown = Buffer.from(text, 'utf8');
  return { bytes: shown, hash: contentHash(shown), unsaved: true, mtimeMs: info.mtimeMs };
}
