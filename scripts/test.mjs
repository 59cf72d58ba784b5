// `npm test` after the lint: the typecheck and vitest side by side, the typecheck's output printed once it is
// over. The tests wait on sockets and timers for part of their time, which the typecheck fills; a type error
// still fails at once: vitest is stopped and the run exits 2. Arguments go to vitest (.ci/run adds reporters).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** A file of an installed package, found from its package.json (vitest exports no path to its command). */
const bin = (pkg, name) => join(dirname(require.resolve(`${pkg}/package.json`)), name);

const typecheck = spawn(process.execPath, [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
const vitest = spawn(process.execPath, [bin('vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], { stdio: 'inherit' });

let typeOutput = '';
typecheck.stdout.on('data', (chunk) => (typeOutput += chunk));
typecheck.stderr.on('data', (chunk) => (typeOutput += chunk));

const ended = (child) => new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
const typed = ended(typecheck).then((code) => {
  if (code !== 0) {
    process.stderr.write(`${typeOutput}\nnpm test: the typecheck failed (tsc exit ${code}); the tests are stopped\n`);
    vitest.kill('SIGTERM');
  } else process.stdout.write('npm test: the typecheck passed\n');
  return code;
});
const tested = ended(vitest);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => [typecheck, vitest].forEach((c) => c.kill(signal)));

const [typeCode, testCode] = await Promise.all([typed, tested]);
process.exit(typeCode !== 0 ? 2 : testCode);
