// Judges one message a node sent on a WebSocket channel against the channel's document, under the deviation
// policy of the HTTP answers (judge-response.ts): null for an optional property and properties a later release
// line requires are named apart, never counted as breaks; properties the document does not list are fine
// (its records stay open).
import { isObject } from '../../common/json.ts';
import { type AnswerPolicy, judgeValue } from '../judge-response.ts';
import type { CompiledChannels } from './compile-channels.ts';

export interface MessageJudgement {
  /** Breaks of the document ([] when the message conforms under the policy). */
  problems: string[];
  /** JSON pointer of the first break inside the message. */
  pointer?: string;
  /** The message is the channel's error (a JsCantonError): it has every property the error requires. */
  error: boolean;
  /** Deviations the policy tolerates, one line each (reported apart, never a break). */
  tolerated: string[];
  /** Where the message has null for a property its schema leaves optional. */
  nullForOptional: string[];
  /** Required properties that were missing and that the policy's release line predates. */
  notApplicable: string[];
}

export function judgeMessage(compiled: CompiledChannels, path: string, message: unknown, policy: AnswerPolicy = {}): MessageJudgement {
  const channel = compiled.channels.find((c) => c.path === path);
  const none = { error: false, tolerated: [], nullForOptional: [], notApplicable: [] };
  if (!channel) return { ...none, problems: [`no channel ${path} in ${compiled.name} (channels: ${compiled.channels.map((c) => c.path).join(', ')})`] };
  const error = channel.errorRequired !== undefined && isObject(message) && channel.errorRequired.every((p) => p in message);
  const verdict = judgeValue(compiled.validators, channel.messagePointer, message, policy, `${error ? 'error message' : 'message'} on ${path}`);
  const tolerated = [
    ...verdict.nullForOptional.map((p) => `${p === '' ? '(root)' : p} is null where the property is optional`),
    ...verdict.notApplicable.map((p) => `'${p}' is missing, which the node's release line predates`),
  ];
  return { ...verdict, error, tolerated };
}
