import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { resolveWorkspacePath } from '../../core/access/paths/workspacePath';
import type { AttachedContext } from '../../shared/attachedContext';

/** One attachment holds at most this many characters; a longer file is cut at a line, and says so. */
export const MAX_ATTACHMENT_CHARS = 40_000;
/** A file larger than this is not read at all: a selection of it is the way. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The editor's selection, as the host reads it: the document's path (absolute) and 1-based lines. */
export interface EditorSelection {
  /** Absolute; undefined for an untitled document. */
  path: string | undefined;
  /** The document's name for an untitled one ("Untitled-1"). */
  name: string;
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * A workspace file as context for a prompt. The path comes from the webview (untrusted) or a pick:
 * it must stay inside the workspace once links are followed, be a text file, and not be a file that
 * usually holds secrets (its text would go to the model and into the thread). Throws a sentence.
 */
export async function readFileAttachment(root: string, input: string): Promise<AttachedContext> {
  const where = await resolveWorkspacePath(root, input);
  if (!where.ok) throw new Error(where.error);
  if (!where.exists) throw new Error(`There is no file ${where.rel}, so it cannot be attached.`);
  const secret = secretReason(where.rel);
  if (secret)
    throw new Error(
      `${where.rel} is not attached: ${secret}, and its text would go to the model and stay in the conversation. Copy the part you need into the prompt instead.`,
    );
  const info = await stat(where.abs);
  if (info.isDirectory()) throw new Error(`${where.rel || 'The workspace'} is a folder; attach files from it one by one.`);
  if (info.size > MAX_FILE_BYTES)
    throw new Error(
      `${where.rel} is ${(info.size / 1024 / 1024).toFixed(1)} MB, too large to attach; select the part you need in the editor and attach the selection.`,
    );
  const text = await readFile(where.abs, 'utf8');
  if (text.slice(0, 8192).includes('\u0000')) throw new Error(`${where.rel} is a binary file; only text can be attached.`);
  return { kind: 'file', path: where.rel, label: where.rel, text: capped(text, where.rel) };
}

/** The editor's selection as context: a file's must lie inside the workspace; an untitled one may be attached. */
export async function selectionAttachment(root: string, selection: EditorSelection): Promise<AttachedContext> {
  let path = selection.name;
  if (selection.path !== undefined) {
    const where = await resolveWorkspacePath(root, selection.path);
    if (!where.ok) throw new Error(`The selection is in ${selection.name}, outside the workspace, so the panel does not attach it.`);
    path = where.rel;
    const secret = secretReason(where.rel);
    if (secret) throw new Error(`The selection is not attached: ${secret}. Copy the part you need into the prompt instead.`);
  }
  const lines = `${selection.startLine}-${selection.endLine}`;
  return {
    kind: 'selection',
    path,
    label: `${path}:${lines}`,
    startLine: selection.startLine,
    endLine: selection.endLine,
    text: capped(selection.text, `${path}:${lines}`),
  };
}

/** The text cut to MAX_ATTACHMENT_CHARS at a line boundary, with a note that says what is missing. */
function capped(text: string, label: string): string {
  if (text.length <= MAX_ATTACHMENT_CHARS) return text;
  const cut = text.lastIndexOf('\n', MAX_ATTACHMENT_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : MAX_ATTACHMENT_CHARS);
  return `${kept}\n[${label} is cut here: ${text.length - kept.length} more characters were not attached; read the file for the rest.]`;
}

/** Why a workspace-relative path likely holds secrets, or undefined. */
function secretReason(rel: string): string | undefined {
  const name = basename(rel).toLowerCase();
  if (name.startsWith('.env')) return `${rel} is an environment file, which often holds secrets`;
  if (/\.(pem|key|p12|pfx)$/.test(name) || /^id_(rsa|dsa|ecdsa|ed25519)/.test(name)) return `${rel} looks like a key file`;
  if (['.npmrc', '.netrc', '.pypirc', 'credentials', 'credentials.json'].includes(name)) return `${rel} often holds credentials`;
  return undefined;
}
