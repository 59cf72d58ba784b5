// One call from an AsyncAPI document's location to what the suite judges WebSocket messages with: its channels,
// each with the request a client sends and the schema of every message the node sends, compiled by the same
// validators (OpenAPI semantics, formats, union error reduction, tolerant variants) as the HTTP answers.
import { resolve as resolvePath } from 'node:path';
import { isObject, type JsonObject } from '../../common/json.ts';
import { packageFile } from '../../common/package-files.ts';
import { fingerprints, type Fingerprints, referencedFiles, unchanged } from '../file-fingerprints.ts';
import { isUrl, readDocumentBytes, type LoadedDocument } from '../load-document.ts';
import { SchemaValidators } from '../schema-validators.ts';
import { SpecLoadError } from '../spec-load-error.ts';
import { type Branch, isError, readMessages } from './either-messages.ts';
import { parseChannels } from './load-channels.ts';
import { SCHEMA_PREFIX, SchemaGraph } from './schema-graph.ts';

export interface ChannelSpec {
  /** The channel's address, e.g. "/v2/updates" (the HTTP endpoint's path). */
  path: string;
  subscribeOperationId?: string;
  publishOperationId?: string;
  /** The request record the client sends (converted JSON Schema; its $refs point into `validators.document`). */
  requestSchema?: object;
  /** Every message the node sends on the channel: an answer element or, where the document says so, an error. */
  messageSchema: object;
  /** Where the two sit in `validators.document`. */
  requestPointer?: string;
  messagePointer: string;
  /** The properties that make a message the error branch (e.g. JsCantonError's code, cause...); absent without one. */
  errorRequired?: string[];
  /** Who may open the channel: alternatives, each a security scheme name (or names joined by "+"); [] when not stated. */
  auth: string[];
}

export interface ChannelExample {
  /** e.g. "/v2/updates message example \"checkpoint\"". */
  where: string;
  pointer: string;
  value: unknown;
}

export interface CompiledChannels {
  /** Name used in reports and `--spec NAME=PATH` (e.g. "ledger-channels"). */
  name: string;
  /** The path (absolute) or URL it was read from. */
  source: string;
  /** sha256 of the root file's bytes. */
  sha256: string;
  /** The root file's bytes as read. */
  bytes: Buffer;
  /** The document's `asyncapi` field, e.g. "2.6.0". */
  asyncapi: string;
  /** Its info.version (an official ledger document's release, e.g. 3.5.10-SNAPSHOT). */
  documentVersion?: string;
  channels: ChannelSpec[];
  /** Readings of the document's defects that the suite applies, one line each (e.g. an ambiguous oneOf). */
  repairs: string[];
  /** The message examples of the document, each on the channel it is used on. */
  examples: ChannelExample[];
  validators: SchemaValidators;
}

/** The channel documents this project ships, by the interface they belong to. */
export const BUILTIN_CHANNELS = { ledger: packageFile('specs/ledger-channels.yaml') } as const;

export type ChannelInterface = keyof typeof BUILTIN_CHANNELS;

export const CHANNEL_INTERFACES = Object.keys(BUILTIN_CHANNELS) as ChannelInterface[];

/** Whether an interface has WebSocket channels. */
export const hasChannels = (name: string): name is ChannelInterface => (CHANNEL_INTERFACES as string[]).includes(name);

/** The name a channel document goes by in reports and `--spec` (e.g. "ledger-channels"). */
export const channelsName = (name: ChannelInterface) => `${name}-channels`;

/** The interface whose channel document `name` names ("ledger-channels": ledger), if it names one. */
export const channelsOf = (name: string): ChannelInterface | undefined => CHANNEL_INTERFACES.find((i) => channelsName(i) === name);

// Compiled documents from local files, per process, by name and location: parsing takes most of a second, and
// every run and test file that loads the documents would otherwise parse the same file again. One is used again
// while every file it was read from (the files its $refs name too: the ledger's names ledger-api.yaml) holds the
// same bytes, as compileSpec's documents are. A document from a URL, or naming one, is compiled every time.
const compiled = new Map<string, Promise<{ channels: CompiledChannels; files?: Fingerprints }>>();

export async function compileChannels(source: string, options: { name?: string; timeoutMs?: number } = {}): Promise<CompiledChannels> {
  const name = options.name ?? 'channels';
  if (isUrl(source)) return (await compileAnew(name, source, options.timeoutMs)).channels;
  const location = resolvePath(source);
  const key = `${name}\n${location}`;
  const earlier = await compiled.get(key)?.catch(() => undefined);
  if (earlier?.files && (await unchanged(earlier.files))) return earlier.channels;
  const done = compileAnew(name, location, options.timeoutMs);
  compiled.set(key, done);
  // A failure is not kept: the files it refers to may be mended before the next try.
  done.catch(() => compiled.delete(key));
  return (await done).channels;
}

/** The channels of the document at `location`, with the fingerprints of every local file it was read from (none where it names a URL). */
async function compileAnew(name: string, location: string, timeoutMs = 10_000): Promise<{ channels: CompiledChannels; files?: Fingerprints }> {
  const bytes = await readDocumentBytes(location, timeoutMs);
  const parsed = await parseChannels(location, bytes);
  const channels = build(name, location, parsed.sha256, bytes, parsed.document);
  if (isUrl(location)) return { channels };
  const read = await referencedFiles(location, bytes.toString('utf8'));
  const others = read.remote ? undefined : await fingerprints(read.files.slice(1)).catch(() => undefined);
  return others ? { channels, files: new Map([...others, [location, parsed.sha256]]) } : { channels };
}

interface Direction {
  operationId?: string;
  messages: JsonObject[];
}

interface RawChannel {
  path: string;
  request: Direction;
  answer: Direction;
  auth: string[];
}

type Unwritten = Omit<Branch, 'written'>;

function build(name: string, source: string, sha256: string, bytes: Buffer, document: JsonObject): CompiledChannels {
  const asyncapi = String(document.asyncapi);
  const raw = /^2\./.test(asyncapi) ? channelsV2(document) : /^3\./.test(asyncapi) ? channelsV3(document) : undefined;
  if (!raw) throw new SpecLoadError(source, '/asyncapi', `only AsyncAPI 2.x and 3.x documents are supported (found asyncapi ${asyncapi})`);
  if (raw.length === 0) throw new SpecLoadError(source, '/channels', 'the AsyncAPI document describes no channel');

  // Every schema written is known before the first is written, so that the shared ones get their names.
  const plans = raw.map((c) => ({ channel: c, request: c.request.messages.map(whole), answer: answerBranches(c.answer.messages) }));
  const graph = new SchemaGraph(plans.flatMap((p) => [...p.request, ...p.answer.branches].map((b) => b.resolved)));
  const keys = raw.map((c) => ({ request: graph.reserve(`${c.path} request`), message: graph.reserve(`${c.path} message`) }));
  const ambiguities = new Map<string, string[]>();
  const examples: ChannelExample[] = [];
  const write = (b: Unwritten): Branch => ({ ...b, written: graph.write(b.resolved) });
  const drafts = plans.map(({ channel: c, request, answer }, i): Omit<ChannelSpec, 'messageSchema' | 'requestSchema'> => {
    const pointers = { request: SCHEMA_PREFIX.slice(1) + keys[i]!.request, message: SCHEMA_PREFIX.slice(1) + keys[i]!.message };
    const requests = request.map(write);
    if (requests.length > 0) graph.schemas[keys[i]!.request] = requests.length === 1 ? requests[0]!.written : { anyOf: requests.map((b) => b.written) };
    else delete graph.schemas[keys[i]!.request];
    const reading = readMessages(answer.branches.map(write), answer.payloadOneOf, (line) => ambiguities.set(line, [...(ambiguities.get(line) ?? []), c.path]));
    graph.schemas[keys[i]!.message] = reading.schema;
    for (const [kind, direction, at] of [
      ['request', c.request, pointers.request],
      ['message', c.answer, pointers.message],
    ] as const)
      for (const m of direction.messages)
        for (const ex of examplesOf(m)) examples.push({ where: `${c.path} ${kind} example "${ex.name}"`, pointer: at, value: ex.value });
    return {
      path: c.path,
      ...(c.answer.operationId ? { subscribeOperationId: c.answer.operationId } : {}),
      ...(c.request.operationId ? { publishOperationId: c.request.operationId } : {}),
      ...(requests.length > 0 ? { requestPointer: pointers.request } : {}),
      messagePointer: pointers.message,
      ...(reading.errorRequired ? { errorRequired: reading.errorRequired } : {}),
      auth: c.auth,
    };
  });

  const info = isObject(document.info) ? document.info : {};
  const loaded: LoadedDocument = {
    name,
    source,
    version: '3.0',
    document: {
      openapi: '3.0.3',
      info: { title: String(info.title ?? name), version: String(info.version ?? '') },
      paths: {},
      components: { schemas: graph.schemas },
    },
    sha256,
    repairs: [],
  };
  let validators: SchemaValidators;
  try {
    validators = new SchemaValidators(loaded);
    validators.compileAll();
  } catch (error) {
    throw new SpecLoadError(source, undefined, `a message schema does not compile: ${(error as Error).message.split('\n')[0]}`);
  }
  const channels = drafts.map(
    (c): ChannelSpec => ({
      ...c,
      ...(c.requestPointer ? { requestSchema: validators.schemaAt(c.requestPointer) as object } : {}),
      messageSchema: validators.schemaAt(c.messagePointer) as object,
    }),
  );
  const repairs = [
    ...[...ambiguities].map(([line, paths]) => `channel${paths.length > 1 ? 's' : ''} ${paths.join(', ')}: ${line}`),
    ...[...graph.unresolved].map((ref) => `$ref '${ref}' closes a cycle through another file, which the AsyncAPI parser leaves unresolved: read as any value`),
  ];
  return {
    name,
    source,
    sha256,
    bytes,
    asyncapi,
    ...(typeof info.version === 'string' ? { documentVersion: info.version } : {}),
    channels,
    repairs,
    examples,
    validators,
  };
}

const messageName = (m: JsonObject) => (typeof m.name === 'string' ? m.name : undefined);

/** A message's payload, whole. */
const whole = (m: JsonObject): Unwritten => ({ resolved: m.payload ?? {}, name: nameOf(m.payload) ?? messageName(m) ?? 'message' });

// Keywords that may stand beside an Either's oneOf without being part of what it validates.
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'example', 'deprecated', '$schema']);

/**
 * What the node sends as branches: the messages of a message `oneOf` each whole; one message whose payload is
 * nothing but a union with an error branch (the official Either): that union's branches; else the payload whole.
 */
function answerBranches(messages: readonly JsonObject[]): { branches: Unwritten[]; payloadOneOf: boolean } {
  if (messages.length !== 1) return { branches: messages.map(whole), payloadOneOf: false };
  const payload = messages[0]!.payload;
  const union = isObject(payload) ? (['oneOf', 'anyOf'] as const).find((k) => Array.isArray(payload[k])) : undefined;
  const alone = isObject(payload) && union && Object.keys(payload).every((k) => k === union || ANNOTATIONS.has(k) || k.startsWith('x-'));
  if (!alone) return { branches: [whole(messages[0]!)], payloadOneOf: false };
  const branches = (payload[union] as unknown[]).map((b, i): Unwritten => ({ resolved: b, name: nameOf(b) ?? `branch ${i + 1}` }));
  // Any other union is the payload's own business: validated as written.
  if (branches.filter(isError).length !== 1 || branches.every(isError)) return { branches: [whole(messages[0]!)], payloadOneOf: false };
  return { branches, payloadOneOf: union === 'oneOf' };
}

function nameOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const id = schema['x-parser-schema-id'];
  if (typeof id === 'string' && !id.startsWith('<')) return id;
  return typeof schema.title === 'string' ? schema.title : undefined;
}

function examplesOf(message: JsonObject): Array<{ name: string; value: unknown }> {
  const list = Array.isArray(message.examples) ? message.examples : [];
  return list.flatMap((ex, i) => (isObject(ex) && 'payload' in ex ? [{ name: typeof ex.name === 'string' ? ex.name : String(i + 1), value: ex.payload }] : []));
}

const messagesOf = (message: unknown): JsonObject[] =>
  isObject(message) && Array.isArray(message.oneOf) ? message.oneOf.filter(isObject) : isObject(message) ? [message] : [];

/** The first of the lists of security requirements that states any. */
const firstStated = (...lists: unknown[]): unknown[] => lists.find((l): l is unknown[] => Array.isArray(l) && l.length > 0) ?? [];

/** The requirements of every server, or of the servers a channel names. */
const serversSecurity = (servers: unknown, named?: unknown): unknown[] =>
  Object.entries(isObject(servers) ? servers : {})
    .filter(([id, server]) => !Array.isArray(named) || named.includes(id) || named.includes(server))
    .flatMap(([, server]) => (isObject(server) && Array.isArray(server.security) ? server.security : []));

/** AsyncAPI 2.x: the client publishes the request; it subscribes to what the node sends. */
function channelsV2(document: JsonObject): RawChannel[] {
  const channels = isObject(document.channels) ? document.channels : {};
  return Object.entries(channels).flatMap(([path, item]) => {
    if (!isObject(item)) return [];
    const ops = [item.subscribe, item.publish].map((op) => (isObject(op) ? op.security : undefined));
    // 2.x requirements map scheme names to scopes: {subprotocolToken: []}.
    const auth = firstStated(...ops, serversSecurity(document.servers, item.servers)).map((r) => Object.keys(isObject(r) ? r : {}).join('+') || 'optional');
    const direction = (op: unknown): Direction => {
      const o = isObject(op) ? op : {};
      return { ...(typeof o.operationId === 'string' ? { operationId: o.operationId } : {}), messages: messagesOf(o.message) };
    };
    return [{ path, request: direction(item.publish), answer: direction(item.subscribe), auth: [...new Set(auth)] }];
  });
}

/**
 * AsyncAPI 3.x: operations name their channel; `receive` (the node receives) carries the request, `send` what
 * the node sends. A channel no operation names sends all its messages.
 */
function channelsV3(document: JsonObject): RawChannel[] {
  const channels = isObject(document.channels) ? document.channels : {};
  const operations = Object.entries(isObject(document.operations) ? document.operations : {}).filter((e): e is [string, JsonObject] => isObject(e[1]));
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return Object.entries(channels).flatMap(([id, channel]) => {
    if (!isObject(channel)) return [];
    const all = Object.values(isObject(channel.messages) ? channel.messages : {}).filter(isObject);
    const direction = (action: string): Direction => {
      const ops = operations.filter(([, op]) => op.channel === channel && op.action === action);
      const messages = ops.flatMap(([, op]) => (Array.isArray(op.messages) ? op.messages.filter(isObject) : all));
      return { ...(ops[0] ? { operationId: ops[0][0] } : {}), messages: [...new Set(messages)] };
    };
    const named = operations.some(([, op]) => op.channel === channel);
    const path = typeof channel.address === 'string' ? channel.address : id;
    // 3.x requirements are the schemes themselves (resolved): named by their key among the components.
    const auth = firstStated(
      ...operations.filter(([, op]) => op.channel === channel).map(([, op]) => op.security),
      serversSecurity(document.servers, channel.servers),
    ).map(
      (scheme) => Object.entries(schemes).find(([, s]) => s === scheme)?.[0] ?? (isObject(scheme) && typeof scheme.type === 'string' ? scheme.type : 'scheme'),
    );
    return [{ path, request: direction('receive'), answer: named ? direction('send') : { messages: all }, auth: [...new Set(auth)] }];
  });
}
