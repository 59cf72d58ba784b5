// Before a run: every given target must answer HTTP at all. An unreachable URL is a configuration
// problem (exit 2, one line naming the URL), not a rule the target broke.
import type { Client } from '../suites/http.ts';
import type { InterfaceName } from '../suites/model.ts';
import { UsageError } from './spec-options.ts';

const FLAG: Record<InterfaceName, string> = { ledger: '--ledger-url', wallet: '--wallet-url', scan: '--scan-url' };

export async function ensureReachable(clients: Partial<Record<InterfaceName, Client>>): Promise<void> {
  for (const [name, client] of Object.entries(clients) as Array<[InterfaceName, Client]>) {
    const x = await client.request('GET', '/', { auth: 'none', unbudgeted: true });
    if (x.status === 0) throw new UsageError(`cannot reach ${FLAG[name]} ${client.base}: ${x.error}`);
  }
}
