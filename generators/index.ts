export * from './load-document.ts';
export * from './operation-catalog.ts';
export * from './schema-validators.ts';
export * from './compile-spec.ts';

export { validValue, type ValueOptions } from './arbitraries/valid-value.ts';
export { invalidValue, malformedJson, mutationSites, applyMutation, type Mutation, type MutationKind, type InvalidValue } from './arbitraries/invalid-value.ts';
export { validRequest, invalidRequest, requestTarget, serialiseParameter, type GeneratedRequest, type RequestMutation } from './arbitraries/request.ts';
export * from './judge-response.ts';
export { decodeParameter } from './arbitraries/request.ts';
export { compareStrictness, blockingFindings, type StrictnessFinding, type StrictnessReport } from './strictness/compare-documents.ts';
export { compareSchemas, STRICTNESS_KINDS, INFORMATIONAL_KINDS, type StrictnessKind, type SchemaDifference } from './strictness/compare-schemas.ts';
export * from './relations.ts';
export {
  BUILTIN_CHANNELS,
  CHANNEL_INTERFACES,
  channelsName,
  channelsOf,
  compileChannels,
  hasChannels,
  type ChannelInterface,
  type ChannelSpec,
  type CompiledChannels,
} from './channels/compile-channels.ts';
export { judgeMessage, type MessageJudgement } from './channels/judge-message.ts';
export { isAsyncApiText } from './channels/load-channels.ts';
