import { describe, expect, it } from 'vitest';
import { splitAttachedContext, withAttachedContext } from '../../../../src/shared/attachedContext';
import { expandPrompt } from '../../../../src/core/config/promptFiles/expandPrompt';
import { parsePromptFile } from '../../../../src/core/config/promptFiles/readPromptFiles';
import { narrowedProfile, slashCommandTurn } from '../../../../src/core/engine/requests/slashCommand';

const vscode = (text: string) =>
  parsePromptFile(text, { name: 'form', source: '.github/prompts/form.prompt.md', path: '/x', format: 'vscode' });

describe('prompt file variables', () => {
  it("fills VS Code's ${input:name} from name=value, else from the rest of the arguments; refuses a missing one with how to give it", () => {
    const command = vscode('---\ndescription: Form\n---\nMake a form ${input:formName:the name} in ${input:dir}.\n');
    expect(expandPrompt(command, 'formName=Login dir=src/ui')).toBe('Make a form Login in src/ui.');
    expect(expandPrompt(command, 'Login')).toBe('Make a form Login in Login.');
    expect(() => expandPrompt(command, '')).toThrow('/form needs a value for "formName" (the name): write /form formName=…');
  });

  it('appends the arguments to a body that uses no variable, as Claude Code does', () => {
    expect(expandPrompt(vscode('Tidy the imports.'), 'src/a.ts')).toBe('Tidy the imports.\n\nsrc/a.ts');
  });

  it('maps VS Code tool sets to ours and narrows the profile to the overlap: never a tool the profile lacks', () => {
    const command = vscode("---\ntools: ['edit', 'execute', 'githubRepo']\n---\nGo.\n");
    expect(command.tools).toEqual(['edit_file', 'write_file', 'run_command']);
    const turn = slashCommandTurn('/form', [command], {});
    expect(turn).toMatchObject({ kind: 'command', tools: ['edit_file', 'write_file', 'run_command'] });
    const readOnly = { name: 'r', description: 'r', instructions: '', source: 't', tools: ['read_file', 'search_text'] };
    expect(narrowedProfile(readOnly, command.tools).tools).toEqual([]);
    expect(narrowedProfile({ ...readOnly, tools: ['read_file', 'run_command'] }, command.tools).tools).toEqual(['run_command']);
  });

  it('keeps context attached in the panel after the expanded text, out of the arguments', () => {
    const sent = withAttachedContext('/form Login', [{ kind: 'file', path: 'src/a.ts', label: 'src/a.ts', text: 'code' }]);
    const turn = slashCommandTurn(sent, [vscode('Make $ARGUMENTS.')], {});
    expect(turn).toMatchObject({ kind: 'command' });
    const prompt = (turn as { prompt: string }).prompt;
    expect(prompt.startsWith('Make Login.')).toBe(true);
    expect(splitAttachedContext(prompt)).toMatchObject({ prompt: 'Make Login.', attachments: [{ kind: 'file', path: 'src/a.ts' }] });
  });

  it('leaves text that is not a command alone, and // sends one slash less', () => {
    expect(slashCommandTurn('/etc/hosts has a typo', [], {})).toBeUndefined();
    expect(slashCommandTurn('//form is a word', [vscode('x')], {})).toBeUndefined();
  });
});
