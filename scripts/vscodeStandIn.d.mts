export function vscodeStandInSource(root: string): string;
