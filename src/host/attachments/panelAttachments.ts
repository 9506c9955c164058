import type { AttachedContext } from '../../shared/attachedContext';
import type { AttachmentView } from '../../shared/protocol';
import { AttachmentTray } from './attachmentTray';
import { readFileAttachment, selectionAttachment, type EditorSelection } from './readAttachment';

/** What attaching needs from the editor. */
export interface AttachmentEditor {
  /** The active editor's selection; undefined when no editor is open or nothing is selected. */
  selection(): EditorSelection | undefined;
  /** Asks the user for a workspace file (a quick pick); its absolute path, or undefined when they back out. */
  pickFile(): Promise<string | undefined>;
}

/**
 * The panel's attachments: reads what the user attaches (a file, picked or named, or the editor's
 * selection) from the workspace, keeps it for the next prompt, and reports the chips.
 */
export class PanelAttachments {
  private readonly tray = new AttachmentTray();

  constructor(private readonly deps: { root: string | undefined; editor: AttachmentEditor; changed: (items: AttachmentView[]) => void }) {}

  async attach(kind: 'file' | 'selection', path: string | undefined): Promise<void> {
    const root = this.deps.root;
    if (!root) throw new Error('No folder is open: open a folder to attach its files.');
    let item: AttachedContext;
    if (kind === 'selection') {
      const selection = this.deps.editor.selection();
      if (!selection) throw new Error('Nothing is selected: select some text in an editor, then attach the selection.');
      item = await selectionAttachment(root, selection);
    } else {
      const picked = path ?? (await this.deps.editor.pickFile());
      if (picked === undefined) return;
      item = await readFileAttachment(root, picked);
    }
    this.tray.add(item);
    this.deps.changed(this.tray.view());
  }

  detach(id: string): void {
    // Gone already (sent, or taken off twice): the chips the panel gets back say what is left.
    this.tray.remove(id);
    this.deps.changed(this.tray.view());
  }

  /** Takes the attachments a message names, for its prompt. */
  take(ids: readonly string[]): AttachedContext[] {
    if (ids.length === 0) return [];
    const taken = this.tray.take(ids);
    this.deps.changed(this.tray.view());
    return taken;
  }

  view(): AttachmentView[] {
    return this.tray.view();
  }
}
