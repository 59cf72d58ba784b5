// The network's rules and rounds in force, as the scan and the validator's scan proxy both serve them: the amulet
// rules of the history's first transaction and the open mining round of the history's last update (the round
// GET /v0/dso names latest and the last ACS snapshot holds). The world keeps no other round open and issues
// none, so every answer names the same contracts, on the decentralized synchronizer where they were created.
import type { Contract } from '../world/model.ts';
import { openMiningRound } from '../world/dso-governance.ts';
import type { World } from '../world/world.ts';

export const latestOpenMiningRound = (world: World): Contract => openMiningRound(world, world.round(world.count - 1));

export interface RulesAndRounds {
  domainId: string;
  amuletRules: Contract;
  openRounds: Contract[];
  issuingRounds: Contract[];
}

export function rulesAndRounds(world: World): RulesAndRounds {
  return { domainId: world.synchronizers[0]!.id, amuletRules: world.amuletRules, openRounds: [latestOpenMiningRound(world)], issuingRounds: [] };
}
