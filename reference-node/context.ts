// What every interface module receives: the world, the node's settings, its faults, the releases it plays and
// its auth.
import type { Auth } from './auth.ts';
import type { SimulatedClock } from './clock.ts';
import type { FaultSet } from './faults.ts';
import type { NodeRelease } from './releases.ts';
import type { World } from './world/world.ts';

export interface NodeSettings {
  seed: number;
  scale: number;
  /** `http-list-max-elements-limit` of the ledger stream: more results than this -> 413. */
  listLimit: number;
  /** How long an open-ended ledger stream waits for new elements when the request gives no idle timeout. */
  defaultIdleTimeoutMs: number;
  /** How long a buy-traffic submission stays "being processed" (a second one meanwhile gets 429). */
  walletProcessingMs: number;
  /** Added to every offset the node puts on the wire (ledger and scan), as another node of the network numbers them. */
  offsetShift: number;
}

export interface NodeContext {
  world: World;
  settings: NodeSettings;
  faults: FaultSet;
  /** The scan and ledger releases the node plays: it serves what they have and nothing more. */
  release: NodeRelease;
  auth: Auth;
  /** The simulated ledger clock in microseconds; wallet actions and commands advance it. */
  clock: SimulatedClock;
}
