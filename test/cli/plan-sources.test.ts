// Every source `plan` names for a fixture is an operation the node serves: the interface that answered, the
// method, and the path template under that interface's own prefix as its document writes it ({tracking_id}),
// never a path of one interface under another's prefix, an encoded template or a request's query. The node's
// own routes are the judge, so an operation outside the built-in documents (/v2/parties) is checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERFACE_PREFIX, INTERFACES, type InterfaceName } from '../../common/vocabulary.ts';
import type { CompiledSpec } from '../../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { FIXTURE_HELP } from '../../engine/fixtures.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

let node: RunningReferenceNode;
let specs: Record<InterfaceName, CompiledSpec>;

beforeAll(async () => {
  node = await startReferenceNode({});
  specs = await loadedSpecs();
});
afterAll(() => node.close());

/** `plan` given only the node's URLs and the tokens, as against a real node (fixtures discovered). */
async function plan(ledgerToken: string): Promise<string> {
  const out = await cliInProcess([
    'plan',
    '--ledger-url',
    node.urls.ledger,
    '--ledger-token',
    ledgerToken,
    '--wallet-url',
    node.urls.validator,
    '--wallet-token',
    node.credentials.walletUsers[0]!.token,
    '--scan-url',
    node.urls.scan,
  ]);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout;
}

/** "from the ledger's POST /v2/updates /pointer (note)" lines of the fixture table. */
const origins = (stdout: string) => stdout.split('\n').filter((l) => /^ +from /.test(l) && !/^ +from the embedded node/.test(l));

/** What is wrong with an operation named `method path` as one of `iface` (undefined: nothing). */
function wrong(iface: InterfaceName, method: string, path: string): string | undefined {
  if (/[%?#]/.test(path)) return 'not a template (encoded, or with a query)';
  const prefix = INTERFACE_PREFIX[iface];
  if (!path.startsWith(`${prefix}/`)) return `not under the ${iface}'s prefix ${prefix || '(none)'}`;
  const under = INTERFACES.find((other) => other !== iface && INTERFACE_PREFIX[other] && path.startsWith(`${INTERFACE_PREFIX[other]}/`));
  if (under) return `under the ${under}'s prefix`;
  // Parameter names do not matter to the router; the documents' names are checked below.
  let n = 0;
  const route = path.replace(/\{[^}/]+\}/g, () => `:p${n++}`);
  if (!node.server.hasRoute({ method: method as 'GET', url: route })) return 'not an operation the node serves';
  const relative = path.slice(prefix.length);
  const shape = (p: string) => p.replace(/\{[^}/]+\}/g, '{}');
  const documented = specs[iface].catalog.operations.find((o) => o.method === method.toLowerCase() && shape(o.path) === shape(relative));
  if (documented && documented.path !== relative) return `the document writes it ${documented.path}`;
  return undefined;
}

/** "METHOD path: what is wrong" for every operation named wrongly in `lines`. */
const problems = (lines: string[]) =>
  lines.flatMap((line) =>
    named(line).flatMap((op) => (wrong(op.iface, op.method, op.path) ? [`${op.method} ${op.path}: ${wrong(op.iface, op.method, op.path)}`] : [])),
  );

/** Every operation a line names, the origin's own (after "the X's") and any in its note ("of GET /api/scan/..."). */
function named(line: string): Array<{ iface: InterfaceName; method: string; path: string }> {
  const own = /the (ledger|wallet|scan)'s (GET|POST) ([^\s),]+)/.exec(line);
  const all = [...line.matchAll(/\b(GET|POST) (\/[^\s),]+)/g)].map(([, method, path]) => {
    const iface = INTERFACES.find((i) => INTERFACE_PREFIX[i] && path!.startsWith(`${INTERFACE_PREFIX[i]}/`)) ?? 'ledger';
    return { iface, method: method!, path: path! };
  });
  // The origin's operation is judged as the interface it names, not as the one its prefix suggests.
  return own ? [{ iface: own[1] as InterfaceName, method: own[2]!, path: own[3]! }, ...all.slice(1)] : all;
}

describe('plan names the operation every discovered fixture came from', () => {
  it('with a ledger token that may read as any party: every fixture, each from an operation of the interface named', async () => {
    const stdout = await plan(node.credentials.ledgerAdminToken);
    const lines = origins(stdout);
    const count = Number(/^Fixtures \((\d+)\):$/m.exec(stdout)?.[1]);
    expect(count).toBeGreaterThan(20);
    expect(lines).toHaveLength(count);
    expect(problems(lines)).toEqual([]);
    for (const line of lines) expect(line, 'names its interface').toMatch(/^ +from the (ledger|wallet|scan)'s (GET|POST) \//);
    // The two the issue named: the ledger's stream, and the status template as the wallet's document writes it.
    expect(stdout).toMatch(/otherUserTransferOffers +.*\n +from the ledger's POST \/v2\/updates \//);
    expect(stdout).toMatch(/transferOffers +.*\n +from the wallet's POST \/api\/validator\/v0\/wallet\/transfer-offers\/\{tracking_id\}\/status \/status/);
  });

  it("with a ledger token of limited rights: the user's rights by the template, not the user's encoded id", async () => {
    const stdout = await plan(node.credentials.ledgerUserToken.token);
    const lines = origins(stdout);
    expect(lines.length).toBeGreaterThan(3);
    expect(problems(lines)).toEqual([]);
    expect(stdout).toMatch(/ledgerParties +.*\n +from the ledger's GET \/v2\/users\/\{user-id\}\/rights \//);
  });

  it('the discovery each missing fixture names (a skip reason of plan and run) is an operation of the interface named', () => {
    const helps = Object.values(FIXTURE_HELP);
    expect(helps.flatMap(named).length).toBeGreaterThan(5);
    expect(problems(helps)).toEqual([]);
  });
});
