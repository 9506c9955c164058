/**
 * What the CLI prints in text mode comes from models and tools, and a terminal obeys escape
 * sequences in it: OSC 0 retitles the window, OSC 52 writes the clipboard, CSI moves the cursor
 * and clears the screen. They are taken out before printing. ESC and the C1 controls always go, so
 * a sequence split across two writes cannot form. Bidirectional overrides and isolates go too: they
 * make a terminal show text in another order than it has ("Trojan Source"), so what a user reads
 * and approves is not what is there. The --json output keeps every character, escaped (jsonForTerminal).
 */

/**
 * OSC and the other string sequences (DCS, SOS, PM, APC) up to their terminator (BEL or ST) or the
 * end of the text; CSI with its parameters; any other two-character ESC sequence; and the same
 * in their one-character C1 forms.
 */
const SEQUENCE =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[ -~]?|\u009d[^\u0007\u009c]*[\u0007\u009c]?|[\u0090\u0098\u009e\u009f][^\u009c]*\u009c?|\u009b[0-?]*[ -/]*[@-~]?/g;

/** Every other C0 control but newline and tab, DEL, the C1 controls, and the bidirectional controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, '');
}

/** What JSON.stringify leaves raw that a terminal would still act on: DEL, C1, bidi, line separators. */
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * JSON text made safe for a terminal without losing a character: JSON.stringify escapes C0 (ESC
 * included) itself, and the rest are written as \uXXXX escapes, which every JSON reader reads back
 * as the same characters. These can only stand inside strings, where such an escape is valid.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One value as a line of terminal-safe JSON. */
export function jsonForTerminal(value: unknown): string {
  return terminalSafeJson(JSON.stringify(value));
}
