export interface LockfileLike {
  packages?: Record<string, { name?: string; link?: boolean; engines?: { node?: string } }>;
}
export function packagesAskingNewerNode(
  lock: LockfileLike,
  nodeVersion: string,
  satisfies: (version: string, range: string) => boolean,
): { name: string; node: string }[];
export function engineNotice(root: string, nodeVersion?: string): string | undefined;
