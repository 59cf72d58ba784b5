// The Daml types of the simulated network's packages: the record type of each template's arguments and the
// argument and result types of each choice the world exercises. The world holds its values as compact JSON (the
// ledger JSON API's encoding, which drops the types); these types let a typed encoding (scan's protobuf_json)
// say what each value is, as a real node knows it from the package, not guessed from the JSON.
// The records list the fields the world gives its contracts, in declaration order.
import { derivedHex } from './rng.ts';

/** A type's name: its package (by name; the world knows the package ids) and qualified name. */
export interface TypeId {
  packageName: string;
  module: string;
  entity: string;
}

export type DamlType =
  | { kind: 'unit' | 'bool' | 'int64' | 'numeric' | 'text' | 'party' | 'contractId' | 'timestamp' | 'date' }
  | { kind: 'list' | 'optional' | 'textMap'; of: DamlType }
  | { kind: 'genMap'; key: DamlType; value: DamlType }
  | { kind: 'record'; id: TypeId; fields: Array<readonly [string, DamlType]> }
  | { kind: 'variant'; id: TypeId; constructors: Record<string, DamlType> }
  | { kind: 'enum'; id: TypeId; constructors: string[] };

export const AMULET_PACKAGE = 'splice-amulet';
export const WALLET_PACKAGE = 'splice-wallet';
export const GOVERNANCE_PACKAGE = 'splice-dso-governance';
export const STDLIB_PACKAGE = 'daml-stdlib';

const prim = (kind: 'unit' | 'bool' | 'int64' | 'numeric' | 'text' | 'party' | 'contractId' | 'timestamp' | 'date'): DamlType => ({ kind });
export const T = {
  unit: prim('unit'),
  bool: prim('bool'),
  int64: prim('int64'),
  numeric: prim('numeric'),
  text: prim('text'),
  party: prim('party'),
  contractId: prim('contractId'),
  timestamp: prim('timestamp'),
  date: prim('date'),
  list: (of: DamlType): DamlType => ({ kind: 'list', of }),
  optional: (of: DamlType): DamlType => ({ kind: 'optional', of }),
  textMap: (of: DamlType): DamlType => ({ kind: 'textMap', of }),
  genMap: (key: DamlType, value: DamlType): DamlType => ({ kind: 'genMap', key, value }),
};

/** `Module:Entity` of a package, split. */
function typeId(packageName: string, qualified: string): TypeId {
  const at = qualified.lastIndexOf(':');
  return { packageName, module: qualified.slice(0, at), entity: qualified.slice(at + 1) };
}

export function record(packageName: string, qualified: string, fields: Record<string, DamlType>): DamlType {
  return { kind: 'record', id: typeId(packageName, qualified), fields: Object.entries(fields) };
}
export function variant(packageName: string, qualified: string, constructors: Record<string, DamlType>): DamlType {
  return { kind: 'variant', id: typeId(packageName, qualified), constructors };
}
export function enumType(packageName: string, qualified: string, constructors: string[]): DamlType {
  return { kind: 'enum', id: typeId(packageName, qualified), constructors };
}

const amulet = (q: string, f: Record<string, DamlType>) => record(AMULET_PACKAGE, q, f);
const wallet = (q: string, f: Record<string, DamlType>) => record(WALLET_PACKAGE, q, f);

const Round = amulet('Splice.Types:Round', { number: T.int64 });
const RelTime = record(STDLIB_PACKAGE, 'DA.Time.Types:RelTime', { microseconds: T.int64 });
const ExpiringAmount = amulet('Splice.Fees:ExpiringAmount', {
  initialAmount: T.numeric,
  createdAt: Round,
  ratePerRound: amulet('Splice.Fees:RatePerRound', { rate: T.numeric }),
});
const amuletFields = { dso: T.party, owner: T.party, amount: ExpiringAmount };
const PaymentAmount = wallet('Splice.Wallet.Payment:PaymentAmount', {
  amount: T.numeric,
  unit: enumType(WALLET_PACKAGE, 'Splice.Wallet.Payment:Unit', ['USDUnit', 'AmuletUnit', 'ExtUnit']),
});
const offerTerms = { sender: T.party, receiver: T.party, dso: T.party, amount: PaymentAmount };
const TrackingInfo = wallet('Splice.Wallet.TransferOffer:TransferOfferTrackingInfo', { trackingId: T.text, sender: T.party, receiver: T.party });
const offerOutcome = (choice: string) => wallet(`Splice.Wallet.TransferOffer:${choice}_Result`, { trackingInfo: TrackingInfo });
// The part of the amulet configuration the world sets: where the decentralized synchronizer is.
const AmuletConfig = amulet('Splice.AmuletConfig:AmuletConfig', {
  decentralizedSynchronizer: amulet('Splice.DecentralizedSynchronizer:AmuletDecentralizedSynchronizerConfig', { activeSynchronizer: T.text }),
});
const AmuletConfigSchedule = amulet('Splice.Schedule:Schedule', {
  initialValue: AmuletConfig,
  futureValues: T.list(record(STDLIB_PACKAGE, 'DA.Types:Tuple2', { _1: T.timestamp, _2: AmuletConfig })),
});
const TransferInput = variant(AMULET_PACKAGE, 'Splice.AmuletRules:TransferInput', { InputAmulet: T.contractId, InputAppRewardCoupon: T.contractId });
const SynchronizerNodeConfig = record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:SynchronizerNodeConfig', {
  cometBft: record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:CometBftConfig', {
    nodes: T.genMap(T.text, T.unit),
    governanceKeys: T.list(T.text),
    sequencingKeys: T.list(T.text),
  }),
  sequencer: T.optional(
    record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:SequencerConfig', {
      migrationId: T.int64,
      sequencerId: T.text,
      url: T.text,
      availableAfter: T.optional(T.timestamp),
    }),
  ),
  mediator: T.optional(record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:MediatorConfig', { mediatorId: T.text })),
  scan: T.optional(record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:ScanConfig', { publicUrl: T.text })),
  legacySequencerConfig: T.optional(T.unit),
});

const gov = (q: string, f: Record<string, DamlType>) => record(GOVERNANCE_PACKAGE, q, f);
const DsoRules = gov('Splice.DsoRules:DsoRules', {
  dso: T.party,
  epoch: T.int64,
  svs: T.genMap(T.party, gov('Splice.DSO.SvState:SvInfo', { name: T.text, joinedAsOfRound: Round, svRewardWeight: T.int64, participantId: T.text })),
  offboardedSvs: T.genMap(T.party, gov('Splice.DSO.SvState:OffboardedSvInfo', { name: T.text, participantId: T.text })),
  dsoDelegate: T.party,
  config: gov('Splice.DsoRules:DsoRulesConfig', {
    decentralizedSynchronizer: gov('Splice.DSO.DecentralizedSynchronizer:DsoDecentralizedSynchronizerConfig', {
      synchronizers: T.genMap(
        T.text,
        gov('Splice.DSO.DecentralizedSynchronizer:SynchronizerConfig', {
          state: enumType(GOVERNANCE_PACKAGE, 'Splice.DSO.DecentralizedSynchronizer:DsoSynchronizerState', [
            'DS_Bootstrapping',
            'DS_Operational',
            'DS_Decommissioned',
          ]),
          cometBftGenesisJson: T.text,
          acsCommitmentReconciliationInterval: T.optional(T.int64),
        }),
      ),
      lastSynchronizerId: T.text,
      activeSynchronizerId: T.text,
    }),
  }),
  initialTrafficState: T.genMap(T.text, gov('Splice.DsoRules:TrafficState', { consumedTraffic: T.int64 })),
  isDevNet: T.bool,
});

/** Create-argument types by `Module:Entity`. */
const TEMPLATES: Record<string, DamlType> = {
  'Splice.AmuletRules:AmuletRules': amulet('Splice.AmuletRules:AmuletRules', { dso: T.party, configSchedule: AmuletConfigSchedule, isDevNet: T.bool }),
  'Splice.Amulet:Amulet': amulet('Splice.Amulet:Amulet', amuletFields),
  'Splice.Amulet:LockedAmulet': amulet('Splice.Amulet:LockedAmulet', {
    ...amuletFields,
    lock: amulet('Splice.Expiry:TimeLock', { holders: T.list(T.party) }),
  }),
  'Splice.Amulet:FeaturedAppActivityMarker': amulet('Splice.Amulet:FeaturedAppActivityMarker', {
    dso: T.party,
    provider: T.party,
    beneficiary: T.party,
    weight: T.numeric,
  }),
  'Splice.Amulet:AppRewardCoupon': amulet('Splice.Amulet:AppRewardCoupon', { dso: T.party, provider: T.party, amount: T.numeric }),
  'Splice.Amulet:UnclaimedDevelopmentFundCoupon': amulet('Splice.Amulet:UnclaimedDevelopmentFundCoupon', { dso: T.party, amount: T.numeric }),
  'Splice.ValidatorLicense:ValidatorLivenessActivityRecord': amulet('Splice.ValidatorLicense:ValidatorLivenessActivityRecord', {
    dso: T.party,
    validator: T.party,
    round: Round,
  }),
  'Splice.ValidatorLicense:ValidatorLicense': amulet('Splice.ValidatorLicense:ValidatorLicense', {
    validator: T.party,
    sponsor: T.party,
    dso: T.party,
    faucetState: T.optional(amulet('Splice.ValidatorLicense:FaucetState', { firstReceivedFor: Round, lastReceivedFor: Round, numCouponsMissed: T.int64 })),
    metadata: T.optional(amulet('Splice.ValidatorLicense:ValidatorLicenseMetadata', { lastUpdatedAt: T.timestamp, version: T.text, contactPoint: T.text })),
    lastActiveAt: T.optional(T.timestamp),
  }),
  'Splice.AmuletRules:TransferPreapproval': amulet('Splice.AmuletRules:TransferPreapproval', {
    dso: T.party,
    receiver: T.party,
    provider: T.party,
    validFrom: T.timestamp,
  }),
  'Splice.Round:OpenMiningRound': amulet('Splice.Round:OpenMiningRound', {
    dso: T.party,
    round: Round,
    amuletPrice: T.numeric,
    opensAt: T.timestamp,
    targetClosesAt: T.timestamp,
    issuingFor: RelTime,
    tickDuration: RelTime,
  }),
  'Splice.DsoRules:DsoRules': DsoRules,
  'Splice.DSO.SvState:SvNodeState': record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:SvNodeState', {
    dso: T.party,
    sv: T.party,
    svName: T.text,
    state: record(GOVERNANCE_PACKAGE, 'Splice.DSO.SvState:NodeState', { synchronizerNodes: T.genMap(T.text, SynchronizerNodeConfig) }),
  }),
  'Splice.Wallet.TransferOffer:TransferOffer': wallet('Splice.Wallet.TransferOffer:TransferOffer', {
    ...offerTerms,
    description: T.text,
    expiresAt: T.timestamp,
    trackingId: T.text,
  }),
  'Splice.Wallet.TransferOffer:AcceptedTransferOffer': wallet('Splice.Wallet.TransferOffer:AcceptedTransferOffer', {
    ...offerTerms,
    expiresAt: T.timestamp,
    trackingId: T.text,
  }),
};

interface ChoiceTypes {
  argument: DamlType;
  result: DamlType;
}

/** A choice's argument record (named after the choice, in the template's module) and its result type. */
function choice(packageName: string, module: string, name: string, argument: Record<string, DamlType>, result: DamlType): ChoiceTypes {
  return { argument: record(packageName, `${module}:${name}`, argument), result };
}

/** Choice types by `Module:Entity` of the template and choice name. */
const CHOICES: Record<string, Record<string, ChoiceTypes>> = {
  'Splice.AmuletRules:AmuletRules': {
    AmuletRules_DevNet_Tap: choice(
      AMULET_PACKAGE,
      'Splice.AmuletRules',
      'AmuletRules_DevNet_Tap',
      { receiver: T.party, amount: T.numeric },
      amulet('Splice.AmuletRules:AmuletRules_DevNet_TapResult', { amulet: T.contractId }),
    ),
    AmuletRules_Transfer: choice(
      AMULET_PACKAGE,
      'Splice.AmuletRules',
      'AmuletRules_Transfer',
      { sender: T.party, receiver: T.party, input: T.contractId },
      amulet('Splice.AmuletRules:TransferResult', { created: T.list(T.contractId) }),
    ),
  },
  'Splice.Amulet:Amulet': {
    Amulet_Spend: choice(AMULET_PACKAGE, 'Splice.Amulet', 'Amulet_Spend', { spender: T.party }, amulet('Splice.Amulet:Amulet_SpendResult', {})),
    Amulet_Lock: choice(
      AMULET_PACKAGE,
      'Splice.Amulet',
      'Amulet_Lock',
      { holder: T.party },
      amulet('Splice.Amulet:Amulet_LockResult', { locked: T.contractId }),
    ),
  },
  'Splice.Wallet.TransferOffer:TransferOffer': {
    TransferOffer_Accept: choice(
      WALLET_PACKAGE,
      'Splice.Wallet.TransferOffer',
      'TransferOffer_Accept',
      {},
      wallet('Splice.Wallet.TransferOffer:TransferOffer_AcceptResult', { acceptedTransferOffer: T.contractId }),
    ),
    TransferOffer_Expire: choice(
      WALLET_PACKAGE,
      'Splice.Wallet.TransferOffer',
      'TransferOffer_Expire',
      { actor: T.party },
      offerOutcome('TransferOffer_Expire'),
    ),
    TransferOffer_Reject: choice(WALLET_PACKAGE, 'Splice.Wallet.TransferOffer', 'TransferOffer_Reject', {}, offerOutcome('TransferOffer_Reject')),
    TransferOffer_Withdraw: choice(
      WALLET_PACKAGE,
      'Splice.Wallet.TransferOffer',
      'TransferOffer_Withdraw',
      { reason: T.text },
      offerOutcome('TransferOffer_Withdraw'),
    ),
  },
  'Splice.Wallet.TransferOffer:AcceptedTransferOffer': {
    AcceptedTransferOffer_Complete: choice(
      WALLET_PACKAGE,
      'Splice.Wallet.TransferOffer',
      'AcceptedTransferOffer_Complete',
      { inputs: T.list(TransferInput), walletProvider: T.party },
      wallet('Splice.Wallet.TransferOffer:AcceptedTransferOffer_CompleteResult', { trackingInfo: TrackingInfo, senderChangeAmulet: T.contractId }),
    ),
  },
};

/** The id of a package the types name: the world's amulet and wallet packages, or one derived from its name. */
export function packageId(w: { seed: number; amuletPackage: string; walletPackage: string }, packageName: string): string {
  if (packageName === AMULET_PACKAGE) return w.amuletPackage;
  if (packageName === WALLET_PACKAGE) return w.walletPackage;
  return derivedHex(w.seed, `pkg-${packageName.replace(/^splice-/, '')}`, 32);
}

/** `Module:Entity` of a template id `packageId:Module:Entity` (or `#name:Module:Entity`). */
function qualifiedName(templateId: string): string {
  return templateId.slice(templateId.indexOf(':') + 1);
}

/** The type of a template's create arguments, or undefined for a template the world's packages do not hold. */
export function templateType(templateId: string): DamlType | undefined {
  return TEMPLATES[qualifiedName(templateId)];
}

/** The argument and result types of a choice, or undefined for one the world's packages do not hold. */
export function choiceTypes(templateId: string, choiceName: string): ChoiceTypes | undefined {
  return CHOICES[qualifiedName(templateId)]?.[choiceName];
}
