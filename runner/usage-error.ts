// What the user gave cannot be used (a setting, a document, a selection, an unreachable target, a refused
// token): found before the first request, told in one line, exit 2 at the command line.
export class UsageError extends Error {
  override name = 'UsageError';
}
