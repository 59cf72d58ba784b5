// Normative sentences of the description (see ../model.ts): States and transitions.
import type { SentenceSection } from '../model.ts';

export const STATES_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'T.transfer-offer',
    heading: 'States and transitions > Transfer offer',
    sentences: [
      {
        n: 'T.transfer-offer.1',
        text: 'created: response fields `status`, `transaction_id`, `contract_id`.',
      },
      {
        n: 'T.transfer-offer.2',
        text: 'created: Offer created, waiting for the receiver to accept; `transaction_id` (creating transaction), `contract_id` (the offer).',
      },
      {
        n: 'T.transfer-offer.3',
        text: 'accepted: response fields `status`, `transaction_id`, `contract_id`.',
      },
      {
        n: 'T.transfer-offer.4',
        text: 'accepted: Receiver accepted; wallet automation still has to deliver the amount; `transaction_id` (accepting transaction), `contract_id` (accepted offer).',
      },
      {
        n: 'T.transfer-offer.5',
        text: 'completed: response fields `status`, `transaction_id`, `contract_id`.',
      },
      {
        n: 'T.transfer-offer.6',
        text: "completed: Amount transferred to the receiver; `transaction_id` (the transfer), `contract_id` (receiver's created holding).",
      },
      {
        n: 'T.transfer-offer.7',
        text: 'failed: response fields `status`, `failure_kind` (expired, rejected or withdrawn), `withdrawn_reason` (optional human-readable text).',
      },
      {
        n: 'T.transfer-offer.8',
        text: 'failed: Permanent failure; nothing transferred',
      },
      {
        n: 'T.transfer-offer.9',
        text: 'failed: ... a new offer needs a different tracking id',
        notCheckable: 'transfer offers are created through an endpoint the description does not give, so no offer can be made with a used tracking id',
      },
      {
        n: 'T.transfer-offer.10',
        text: 'Failure kinds: `expired` (the offer or accepted offer expired before completion), `rejected` (receiver rejected the offer or withdrew an accepted offer), `withdrawn` (sender withdrew, e.g. insufficient funds or operational reasons).',
      },
    ],
  },
  {
    key: 'T.buy-traffic',
    heading: 'States and transitions > Buy-traffic request',
    sentences: [
      { n: 'T.buy-traffic.1', text: 'Buy-traffic request: created by the wallet endpoint' },
      {
        n: 'T.buy-traffic.2',
        text: '... expires if it does not succeed before `expires_at` (the wallet automation then rejects and expires it).',
        notCheckable:
          "a request's later fate is reported by a status endpoint the description does not show, and the scan's traffic totals cannot be attributed to one request",
      },
    ],
  },
  {
    key: 'T.tracking-id',
    heading: 'States and transitions > Tracking id handling (buy traffic)',
    sentences: [
      {
        n: 'T.tracking-id.1',
        text: 'after a first submission, later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed)',
      },
      {
        n: 'T.tracking-id.2',
        text: '... unless the command failed and no traffic was purchased.',
      },
    ],
  },
  {
    key: 'T.root-hash',
    heading: 'States and transitions > Reward accounting root hash',
    sentences: [
      {
        n: 'T.root-hash.1',
        text: 'Reward accounting root hash result kinds: RewardAccountingRootHashOk, RewardAccountingRootHashUndetermined, RewardAccountingRootHashCannotProvide.',
      },
    ],
  },
];
