#!/usr/bin/env node
// Process entry of `cn-conformance <command>`: the packed package's bin, compiled to dist/cli/main.js; in a
// checkout, bin/cn-conformance.js and `npm run conformance` run it through tsx.
import { EXIT } from './exit-codes.ts';
import { main } from './program.ts';

// Output piped into a pager or `head` that closes early is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
