// Faults of the ledger's WebSocket channels (channels/), declared apart from the HTTP interface's (faults.ts
// imports them), switched like every ledger fault with `ctx.faults.has('ledger-ws-...')`.
import { declareFaults } from '../fault-definition.ts';

// The WebSocket channels (channels/): the same stream as POST /v2/updates, without its list limit, and open-ended
// reads that go on with what is committed later. HTTP answers stay as they are.
const SAME_AND_BEYOND = ['LEDGER-WEBSOCKET-SAME-AS-HTTP', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'];
export const CHANNEL_FAULTS = declareFaults('ledger', {
  'ledger-ws-reorders': {
    family: 'websocket',
    breaks: 'On the WebSocket update channel the second and third updates (not checkpoints) of a delivery change places.',
    cites: ['X.errors.2', 'S.service.11'],
    rules: [...SAME_AND_BEYOND, 'LEDGER-UPDATES-ASCENDING-WS', 'LEDGER-UPDATES-DESCENDING-WS'],
  },
  'ledger-ws-drops-update': {
    family: 'websocket',
    breaks: 'On the WebSocket update channel the third update (not a checkpoint) of a delivery of four or more is lost.',
    cites: ['X.errors.2', 'S.service.11'],
    rules: [
      ...SAME_AND_BEYOND,
      'LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS-WS',
      'LEDGER-UPDATES-ANY-PARTY-WS',
      'LEDGER-UPDATES-DESCENDING-WS',
      'LEDGER-UPDATES-PAGING-COMPLETE-WS',
      'LEDGER-UPDATES-SEVERAL-PARTIES-WS',
    ],
  },
  'ledger-ws-duplicates-update': {
    family: 'websocket',
    breaks: 'On the WebSocket update channel the second update (not a checkpoint) of a delivery is sent twice in a row.',
    cites: ['X.errors.2', 'S.service.11'],
    rules: [...SAME_AND_BEYOND, 'LEDGER-UPDATES-ASCENDING-WS', 'LEDGER-UPDATES-DESCENDING-WS', 'LEDGER-UPDATES-PAGING-COMPLETE-WS'],
  },
  'ledger-ws-stops-at-list-limit': {
    family: 'websocket',
    breaks: 'A bounded read on the WebSocket update channel ends with a normal close after as many elements as the HTTP list limit, silently.',
    cites: ['X.errors.2', 'S.service.11'],
    rules: ['LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'],
  },
  'ledger-ws-filter-ignored': {
    family: 'websocket',
    breaks: 'On the WebSocket channels template filters are ignored: every template passes, as under a wildcard.',
    cites: ['R.ledger.24', 'R.ledger.36'],
    rules: ['LEDGER-UPDATES-TEMPLATE-FILTER-WS'],
  },
  'ledger-ws-no-live-updates': {
    family: 'websocket',
    breaks: 'An open-ended read on the WebSocket update channel never delivers updates committed after it opened: it stays open, silent.',
    cites: ['R.ledger.9'],
    rules: ['LEDGER-WEBSOCKET-LIVE-UPDATE'],
  },
  'ledger-ws-close-ignored': {
    family: 'websocket',
    breaks: "A close frame of the client is never answered and the connection kept, so the client's close handshake never completes.",
    cites: ['R.ledger.9'],
    rules: ['LEDGER-WEBSOCKET-LIVE-UPDATE', 'LEDGER-WEBSOCKET-COMPLETIONS'],
  },
  'ledger-ws-bad-request-silent-close': {
    family: 'websocket',
    breaks: 'A bad request on a WebSocket channel closes the connection normally (1000) without an error message.',
    cites: ['X.errors.3'],
    rules: ['LEDGER-WEBSOCKET-BAD-REQUEST'],
  },
  'ledger-ws-token-unchecked': {
    family: 'websocket',
    breaks: 'Tokens are not checked on the WebSocket channels: a connection without a token, or with a bad one, is served like a valid one.',
    cites: ['A.updates.11', 'X.auth.5'],
    rules: ['LEDGER-WEBSOCKET-REFUSED-TOKEN'],
  },
  'ledger-ws-completions-missing': {
    family: 'websocket',
    breaks: 'The WebSocket completion channels deliver the completions that existed when they opened, but none of commands submitted afterwards.',
    cites: ['A.overview.17'],
    rules: ['LEDGER-WEBSOCKET-COMPLETIONS'],
  },
  'ledger-ws-active-contracts-archived-included': {
    family: 'websocket',
    breaks: 'The active contracts at an offset on the WebSocket channel include contracts their update stream archived by then.',
    cites: ['S.service.11'],
    rules: ['LEDGER-WEBSOCKET-ACTIVE-CONTRACTS'],
  },
  'ledger-ws-message-malformed': {
    family: 'websocket',
    breaks: 'Every message of the WebSocket active-contracts channel carries its workflowId as a number instead of a string.',
    cites: ['S.service.3'],
    rules: ['LEDGER-WEBSOCKET-MESSAGE-SCHEMA'],
  },
} as const);
