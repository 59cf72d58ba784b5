// A module of its own, so the command line can recognise the error without loading the document loader.
/** A document that cannot be used; the message names the file and, where known, the JSON pointer. */
export class SpecLoadError extends Error {
  constructor(
    readonly source: string,
    readonly pointer: string | undefined,
    readonly reason: string,
  ) {
    super(`${source}${pointer !== undefined ? ` at ${pointer === '' ? '#' : '#' + pointer}` : ''}: ${reason}`);
    this.name = 'SpecLoadError';
  }
}
