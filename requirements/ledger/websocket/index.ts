// The ledger's WebSocket channels (facts: the WebSocket stream): the records judging the channels themselves.
// The update stream's filter and shape rules are judged over the channel by their WebSocket twins
// (webSocketTwins in their files' headers), not restated here.
import type { Requirement } from '../../../engine/model.ts';
import { ACTIVE_CONTRACT_REQUIREMENTS } from './active-contracts.ts';
import { LIVE_REQUIREMENTS } from './live.ts';
import { MESSAGE_REQUIREMENTS } from './messages.ts';
import { REFUSAL_REQUIREMENTS } from './refusals.ts';
import { TRANSPORT_REQUIREMENTS } from './transports.ts';

export const WEBSOCKET_REQUIREMENTS: Requirement[] = [
  ...TRANSPORT_REQUIREMENTS,
  ...LIVE_REQUIREMENTS,
  ...REFUSAL_REQUIREMENTS,
  ...MESSAGE_REQUIREMENTS,
  ...ACTIVE_CONTRACT_REQUIREMENTS,
];
