// The DSO's governance state, which no update of the history carries: the DSO rules listing the super
// validators, each SV's node state (its scan and sequencer on the decentralized synchronizer), the licenses of
// the onboarded validators and the open mining round of each round. Payloads follow the Daml models in their
// compact JSON encoding (Int as text, Optional as value or null, Map as an array of [key, value] pairs), reduced
// to the fields a reader looks at. Made once the reference data exists (reference-data.ts), from which it also
// gathers every reference contract of the network's start.
import { GOVERNANCE_PACKAGE } from './daml-types.ts';
import type { Contract, Party, Synchronizer, SvNode, Validator } from './model.ts';
import { ROUND_EVERY_UPDATES } from './model.ts';
import { derivedHex } from './rng.ts';
import { isoMicros, UPDATE_SPACING_MICROS } from './time.ts';

/** What of the world the governance state is made from. */
export interface GovernanceWorld {
  readonly seed: number;
  readonly dso: Party;
  readonly svParties: Party[];
  readonly validators: Validator[];
  readonly synchronizers: Synchronizer[];
  readonly currentMigrationId: number;
  readonly migrationBoundary: number;
  readonly svRewardWeights: Map<string, Array<{ effectiveAtMicros: number; weight: string }>>;
  readonly amuletRules: Contract;
  readonly preapprovals: Map<string, { contract: Contract; domainId: string }>;
  readonly coupons: Contract[];
  recordTimeMicros(index: number): number;
  ledgerEndMicros(): number;
  contract(index: number, nodeId: number, template: string, args: Record<string, unknown>, signatories: string[], observers: string[]): Contract;
}

export interface DsoGovernance {
  svNodes: SvNode[];
  dsoRules: Contract;
  svNodeStates: Contract[];
  /** In onboarding order. */
  validatorLicenses: Contract[];
  /** Every contract created with the network (update 0) and never archived: the amulet rules, the governance
   *  contracts above, the transfer preapprovals and the development fund coupons. */
  referenceContracts: Contract[];
}

/** A round lasts as long as the updates that share its number. */
export const ROUND_MICROS = ROUND_EVERY_UPDATES * UPDATE_SPACING_MICROS;

// Node ids of the governance contracts within update 0 (the other reference data uses 1000-4999).
const DSO_RULES_NODE = 5000;
const SV_NODE_STATE_NODE = 5001;
const LICENSE_NODE = 5100;
const ROUND_NODE = 5000;

const round = (n: number) => ({ number: String(n) });

/** A contract of the DSO governance package, created with the network. */
function governanceContract(w: GovernanceWorld, nodeId: number, template: string, args: Record<string, unknown>): Contract {
  const c = w.contract(0, nodeId, template, args, [w.dso.id], []);
  return { ...c, templateId: `${derivedHex(w.seed, 'pkg-dso-governance', 32)}:${template}`, packageName: GOVERNANCE_PACKAGE };
}

export function dsoGovernance(w: GovernanceWorld): DsoGovernance {
  const dso = w.dso.id;
  const global = w.synchronizers[0]!;
  const svNodes = w.svParties.map((sv, k): SvNode => {
    const fp = `1220${derivedHex(w.seed, `sv-node:${sv.hint}`, 32)}`;
    return {
      party: sv.id,
      name: sv.hint,
      participantId: sv.hostedOn[0]!,
      scanUrl: `https://scan.${sv.hint}.example.com`,
      // The first SV runs the sequencer and mediator the synchronizer identities name.
      sequencerId: k === 0 ? global.sequencerId : `SEQ::sequencer-${sv.hint}::${fp}`,
      sequencerUrl: `https://sequencer-${w.currentMigrationId}.${sv.hint}.example.com`,
      mediatorId: k === 0 ? global.mediatorId : `MED::mediator-${sv.hint}::${fp}`,
      sequencerAvailableAfterMicros: w.recordTimeMicros(w.migrationBoundary),
    };
  });

  // The weight in force: the latest change effective before the ledger's end (as reward-weight lookups see it).
  const latestWeight = (party: string) =>
    (w.svRewardWeights.get(party) ?? [])
      .filter((c) => c.effectiveAtMicros < w.ledgerEndMicros())
      .sort((a, b) => a.effectiveAtMicros - b.effectiveAtMicros)
      .at(-1)?.weight ?? '0';
  const bySvParty = [...svNodes].sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
  const dsoRules = governanceContract(w, DSO_RULES_NODE, 'Splice.DsoRules:DsoRules', {
    dso,
    epoch: '0',
    svs: bySvParty.map((n) => [n.party, { name: n.name, joinedAsOfRound: round(0), svRewardWeight: latestWeight(n.party), participantId: n.participantId }]),
    offboardedSvs: [],
    dsoDelegate: svNodes[0]!.party,
    config: {
      decentralizedSynchronizer: {
        synchronizers: [[global.id, { state: 'DS_Operational', cometBftGenesisJson: '', acsCommitmentReconciliationInterval: '1800' }]],
        lastSynchronizerId: global.id,
        activeSynchronizerId: global.id,
      },
    },
    initialTrafficState: [],
    isDevNet: true,
  });

  const svNodeStates = svNodes.map((n, k) =>
    governanceContract(w, SV_NODE_STATE_NODE + k, 'Splice.DSO.SvState:SvNodeState', {
      dso,
      sv: n.party,
      svName: n.name,
      state: {
        synchronizerNodes: [
          [
            global.id,
            {
              cometBft: { nodes: [], governanceKeys: [], sequencingKeys: [] },
              sequencer: {
                migrationId: String(w.currentMigrationId),
                sequencerId: n.sequencerId,
                url: n.sequencerUrl,
                availableAfter: isoMicros(n.sequencerAvailableAfterMicros),
              },
              mediator: { mediatorId: n.mediatorId },
              scan: { publicUrl: n.scanUrl },
              legacySequencerConfig: null,
            },
          ],
        ],
      },
    }),
  );

  const validatorLicenses = w.validators.map((v, k) =>
    w.contract(
      0,
      LICENSE_NODE + k,
      'Splice.ValidatorLicense:ValidatorLicense',
      {
        validator: v.party,
        sponsor: svNodes[0]!.party,
        dso,
        // The faucet statistics of /v0/validators/validator-faucets, as the license records them.
        faucetState: {
          firstReceivedFor: round(v.faucets.firstCollectedInRound),
          lastReceivedFor: round(v.faucets.lastCollectedInRound),
          numCouponsMissed: String(v.faucets.numRoundsMissed),
        },
        metadata: null,
        lastActiveAt: isoMicros(w.recordTimeMicros(v.faucets.lastCollectedInRound * ROUND_EVERY_UPDATES)),
      },
      [dso],
      [v.party],
    ),
  );

  const referenceContracts = [
    w.amuletRules,
    dsoRules,
    ...svNodeStates,
    ...validatorLicenses,
    ...[...w.preapprovals.values()].map((p) => p.contract),
    ...w.coupons,
  ];
  return { svNodes, dsoRules, svNodeStates, validatorLicenses, referenceContracts };
}

/** The open mining round `n`, created when its first update was recorded. */
export function openMiningRound(w: GovernanceWorld, n: number): Contract {
  const index = n * ROUND_EVERY_UPDATES;
  const opensAt = w.recordTimeMicros(index);
  return w.contract(
    index,
    ROUND_NODE,
    'Splice.Round:OpenMiningRound',
    {
      dso: w.dso.id,
      round: round(n),
      amuletPrice: '0.0050000000',
      opensAt: isoMicros(opensAt),
      targetClosesAt: isoMicros(opensAt + 2 * ROUND_MICROS),
      issuingFor: { microseconds: String(n * ROUND_MICROS) },
      tickDuration: { microseconds: String(ROUND_MICROS) },
    },
    [w.dso.id],
    [],
  );
}

/** Votes a DSO decision needs with `svs` super validators (the governance threshold of the DSO rules). */
export function votingThreshold(svs: number): number {
  const f = Math.floor((svs - 1) / 3);
  return Math.ceil((svs + f + 1) / 2);
}
