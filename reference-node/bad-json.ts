// Raised by the server's body parser, rendered by each interface's error handler: in a module of its own so
// that the interfaces need not import the server that registers them.

/** Request bodies whose JSON does not parse; each interface renders it in its own error shape. */
export class BadJsonError extends Error {
  readonly statusCode = 400;
  readonly code = 'CN_BAD_JSON';
}
