// Faults of the scan interface that break what a positive requirement checks of its answer: that it is about
// the request (the update, party, validators, synchronizer or name asked for) and holds what was asked. Part of
// the scan's catalog (faults.ts).
import { declareFaults } from '../fault-definition.ts';

export const EFFECT_FAULTS = declareFaults('scan', {
  'scan-holdings-none-found': {
    family: 'answers about the request',
    breaks: 'Every holdings request (v0, v1, v2) is answered without any contract, even for owners that hold amulets in the snapshot asked for.',
    cites: ['C.holdings-v1.2'],
    rules: ['SCAN-HOLDINGS-V0-OF-OWNERS', 'SCAN-HOLDINGS-V1-OF-OWNERS', 'SCAN-HOLDINGS-V2-OF-OWNERS'],
  },
  'scan-v0-lookup-other-update': {
    family: 'answers about the request',
    breaks: 'GET /v0/updates/{update_id} answers the update after the one asked for.',
    cites: ['C.updates-v0.4'],
    rules: ['SCAN-UPDATES-BY-ID', 'SCAN-UPDATES-LOSSLESS-VARIANTS', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE', 'SCAN-REASSIGNMENT-RECORDS'],
    generic: { operations: ['getUpdateByIdV0'], checks: ['relations'] },
  },
  'scan-v2-lookup-other-update': {
    family: 'answers about the request',
    breaks: 'GET /v2/updates/{update_id} answers the update after the one asked for.',
    cites: ['X.versioning.6'],
    rules: ['SCAN-UPDATES-V2-BY-ID', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE', 'SCAN-REASSIGNMENT-RECORDS'],
  },
  'scan-event-lookup-other-update': {
    family: 'answers about the request',
    breaks: 'GET /v0/events/{update_id} answers the event item of the update after the one asked for.',
    cites: ['C.events.4'],
    rules: [
      'SCAN-EVENTS-BY-ID',
      'SCAN-EVENTS-VERDICT-FIELDS',
      'SCAN-EVENTS-ENCODING-VARIANTS',
      'SCAN-UPDATES-VARIANTS-SAME-UPDATE',
      'SCAN-REASSIGNMENT-RECORDS',
    ],
    generic: { operations: ['getEventById'], checks: ['relations'] },
  },
  'scan-preapproval-other-receiver': {
    family: 'answers about the request',
    breaks: "The transfer preapproval looked up for a party is another receiver's preapproval.",
    cites: ['C.preapproval.1'],
    rules: ['SCAN-TRANSFER-PREAPPROVAL'],
  },
  'scan-faucets-every-validator': {
    family: 'answers about the request',
    breaks: 'The validator faucets answer the records of every onboarded validator, whichever validator_ids are asked for.',
    cites: ['C.faucets.1'],
    rules: ['SCAN-FAUCETS-ASKED-VALIDATORS'],
    generic: { operations: ['getValidatorFaucetsByValidator'], checks: ['relations'] },
  },
  'scan-faucets-none-found': {
    family: 'answers about the request',
    breaks: 'The validator faucets answer no record, even for onboarded validators.',
    cites: ['C.faucets.2'],
    rules: ['SCAN-FAUCETS-ASKED-VALIDATORS'],
  },
  'scan-synchronizer-prefix-other': {
    family: 'answers about the request',
    breaks: 'A synchronizer-identities lookup by a proper prefix of a synchronizer id answers the identities of another synchronizer.',
    cites: ['C.sync-identities.1'],
    rules: ['SCAN-SYNCHRONIZER-IDENTITIES-OF-PREFIX'],
  },
  'scan-synchronizer-miss-repeats-last-hit': {
    family: 'answers about the request',
    breaks: 'A synchronizer-identities lookup of a prefix no synchronizer has is answered with the last synchronizer found, not 404.',
    cites: ['C.sync-identities.3'],
    rules: ['SCAN-ERRORS-NOT-FOUND-404'],
  },
  'scan-participant-id-wrong-host': {
    family: 'answers about the request',
    breaks: 'The participant ids of a party hosted on one participant name another participant (the next one of the network).',
    cites: ['C.participant-id.1'],
    rules: ['SCAN-PARTICIPANT-ID-HOSTS-SEEN'],
  },
  'scan-ans-prefix-lists-none': {
    family: 'answers about the request',
    breaks: 'ANS entries asked for with a non-empty name_prefix are never listed, not even the entry whose name it is.',
    cites: ['C.ans.2'],
    rules: ['SCAN-ANS-LOOKUP-BY-NAME'],
  },
} as const);
