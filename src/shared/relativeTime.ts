/**
 * "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date: when a thread was
 * last active, short enough for a list row at 300 px.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function relativeTime(then: number, now: number): string {
  const ago = now - then;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  const thenDay = startOfDay(then);
  const today = startOfDay(now);
  if (thenDay === today) return `${Math.floor(ago / HOUR)} h ago`;
  const days = Math.round((today - thenDay) / DAY);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  const d = new Date(then);
  const date = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === new Date(now).getFullYear() ? date : `${date}, ${d.getFullYear()}`;
}

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
