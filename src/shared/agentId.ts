/**
 * The rule that makes an agent's id from the name it was written with: lower case, dots, spaces,
 * slashes and underscores to dashes, nothing else but [a-z0-9-]. Agent files name agents
 * `code.reviewer` (Copilot's `code.reviewer.agent.md`) or `Code Reviewer`; the id is
 * `code-reviewer`. Shared, so the panel's `@agent`, the CLI's `--agent` and delegate_task take the
 * name as it was written and find the same agent the loader made of it.
 */
export function agentIdOf(name: string): string {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[.\s_/]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 64)
    .replace(/-$/, '');
  if (slug === '') return 'agent';
  return /^[a-z]/.test(slug) ? slug : `agent-${slug}`.slice(0, 64);
}

/**
 * The id among `ids` that a name as written means: the id itself, or the id the loader made of it
 * (`code.reviewer` → `code-reviewer`). A name with no letter or digit means none (its id would be
 * the placeholder "agent").
 */
export function findAgentId(ids: Iterable<string>, written: string): string | undefined {
  const name = written.trim().replace(/^@/, '');
  const list = [...ids];
  if (list.includes(name)) return name;
  if (!/[a-z0-9]/i.test(name)) return undefined;
  const id = agentIdOf(name);
  return list.includes(id) ? id : undefined;
}
