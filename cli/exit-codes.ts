// Exit codes of every command, in one place so that the run, the CLI and the docs agree.
export const EXIT = {
  /** Conformant, or incomplete outside --certify. */
  ok: 0,
  /** Not conformant: a MUST requirement failed (or a document's own examples do not validate). */
  failed: 1,
  /** A usage or configuration error: nothing was judged. */
  usage: 2,
  /** The suite itself failed: a check threw (status `error`) or the run crashed. */
  crash: 3,
  /** Incomplete under --certify: a MUST requirement of the targeted interfaces was not judged. */
  incomplete: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
