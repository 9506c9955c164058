import { listsTool } from './toolPatterns';
import type { Profile, ProfileProblem } from './profile';
import type { TextRange } from './profileProblem';

const WRITERS = ['edit_file', 'write_file'];

/**
 * An agent that may edit can always read: edit_file needs the file's exact text, and a writer that
 * cannot see what it overwrites reads code through whatever else it has (search_text "^", cut and
 * stripped) or writes blind. A `tools` list that gives a write tool and not read_file gets read_file,
 * with a warning that says so; a `disallowedTools` that takes read_file from a writer is honoured
 * (someone wrote it on purpose) and warned about, since that agent edits files it cannot read.
 */
export function addReadToWriters(profile: Profile): { profile: Profile; problems: ProfileProblem[] } {
  const { tools, disallowedTools } = profile;
  const writes = WRITERS.filter((w) => (tools === undefined || listsTool(tools, w)) && !(disallowedTools && listsTool(disallowedTools, w)));
  if (writes.length === 0) return { profile, problems: [] };
  const what = writes.join(' and ');
  if (disallowedTools && listsTool(disallowedTools, 'read_file')) {
    const message = `can write files (${what}) but not read them: "disallowedTools" takes read_file away, so it edits files it cannot see; allow read_file, or take ${what} away too`;
    return { profile, problems: [problemAt(profile, 'disallowedTools', message)] };
  }
  if (tools === undefined || listsTool(tools, 'read_file')) return { profile, problems: [] };
  const message = `can write files (${what}) but its "tools" do not include read_file; read_file is added, since an agent that edits must see what it edits: add read_file to "tools" to say so`;
  return { profile: { ...profile, tools: [...tools, 'read_file'] }, problems: [problemAt(profile, 'tools', message)] };
}

function problemAt(profile: Profile, field: string, message: string): ProfileProblem {
  const range: TextRange | undefined = profile.origin?.ranges[field];
  return {
    source: profile.source,
    name: profile.name,
    field,
    message,
    severity: 'warning',
    code: 'write-without-read',
    ...(profile.origin ? { path: profile.origin.path } : { setting: 'subagents.agents' }),
    ...(range ? { range } : {}),
  };
}
