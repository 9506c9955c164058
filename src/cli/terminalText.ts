/**
 * What the CLI prints in text mode comes from models and tools, and a terminal obeys escape
 * sequences in it: OSC 0 retitles the window, OSC 52 writes the clipboard, CSI moves the cursor
 * and clears the screen. They are taken out before printing (the --json output escapes them
 * anyway). ESC and the C1 controls always go, so a sequence split across two writes cannot form.
 */

/**
 * OSC and the other string sequences (DCS, SOS, PM, APC) up to their terminator (BEL or ST) or the
 * end of the text; CSI with its parameters; any other two-character ESC sequence; and the same
 * in their one-character C1 forms.
 */
const SEQUENCE =
  /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[ -~]?|\u009d[^\u0007\u009c]*[\u0007\u009c]?|[\u0090\u0098\u009e\u009f][^\u009c]*\u009c?|\u009b[0-?]*[ -/]*[@-~]?/g;

/** Every other C0 control but newline and tab, DEL, and the C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalSafe(text: string): string {
  return text.replace(SEQUENCE, '').replace(CONTROL, '');
}
