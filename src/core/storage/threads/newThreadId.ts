import { randomUUID } from 'node:crypto';

/** A fresh top-level thread id (child threads are derived instead: see childThreadId). */
export function newThreadId(): string {
  return `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
}
