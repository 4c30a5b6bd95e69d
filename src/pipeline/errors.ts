/** Failures the user can fix: printed as one line on stderr with exit status 2, never a stack trace. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;
