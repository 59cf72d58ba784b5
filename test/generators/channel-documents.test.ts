// The channel documents (AsyncAPI): the ledger's WebSocket channels, loaded once per document and process, and
// one received message judged against its channel the way an HTTP answer is judged against its operation. The
// fixture documents of our own reproduce what the official ones do (test/fixtures/channels/README.md).
import { createServer } from 'node:http';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { selectSpecs } from '../../cli/spec-options.ts';
import { BUILTIN_CHANNELS, compileChannels, judgeMessage, SpecLoadError } from '../../generators/index.ts';
import { loadDocuments, refuseUnusable } from '../../runner/documents.ts';
import { UsageError } from '../../runner/usage-error.ts';

const fixtures = fileURLToPath(new URL('../fixtures/channels/', import.meta.url));
const either = join(fixtures, 'either.yaml');
// The name runs give the ledger's channel document: each document below is parsed once for the whole file.
const compile = (source: string) => compileChannels(source, { name: 'ledger-channels' });

const checkpoint = {
  update: { OffsetCheckpoint: { value: { offset: 5, synchronizerTimes: [{ synchronizerId: 's::1', recordTime: '2024-01-01T00:00:00Z' }] } } },
};
const canton = { code: 'INVALID_ARGUMENT', cause: 'x', context: {}, errorCategory: 8 };

describe('the built-in channel document', () => {
  it('loads with the ledger interface, listing its four channels with their request and message schemas', async () => {
    const { checks, channels, specs } = await loadDocuments(new Map([['ledger-channels', BUILTIN_CHANNELS.ledger]]));
    expect(specs).toEqual({});
    expect(checks).toEqual([
      expect.objectContaining({ name: 'ledger-channels', builtin: true, asyncapi: '2.6.0', channels: 4, operations: 8, failures: [], warnings: [] }),
    ]);
    expect(checks[0]!.examplesChecked).toBeGreaterThan(0);
    const ledger = channels.ledger!;
    expect(ledger.channels.map((c) => c.path)).toEqual([
      '/v2/updates',
      '/v2/commands/completions',
      '/v2/commands/command-completions',
      '/v2/state/active-contracts',
    ]);
    for (const c of ledger.channels) {
      expect(c.requestSchema, c.path).toBeDefined();
      expect(c.messageSchema, c.path).toMatchObject({ if: { required: ['code', 'cause', 'context', 'errorCategory'] } });
      expect(c.auth).toEqual(['subprotocolToken']);
    }
    // The request is the HTTP body's record, reached across files in ledger-api.yaml.
    expect(ledger.validators.validate(ledger.channels[0]!.requestPointer!, { beginExclusive: -1 }).valid).toBe(false);
  });

  it('judges an update, an error and an active contract entry', async () => {
    const ledger = await compile(BUILTIN_CHANNELS.ledger);
    expect(judgeMessage(ledger, '/v2/updates', checkpoint)).toMatchObject({ problems: [], error: false });
    expect(judgeMessage(ledger, '/v2/updates', canton)).toMatchObject({ problems: [], error: true });
    expect(judgeMessage(ledger, '/v2/state/active-contracts', { contractEntry: { JsEmpty: {} } }).problems).toEqual([]);
    expect(judgeMessage(ledger, '/v2/updates', { update: {} }).problems).not.toEqual([]);
    expect(judgeMessage(ledger, '/v2/nowhere', checkpoint).problems).toEqual([expect.stringMatching(/^no channel \/v2\/nowhere in ledger-channels/)]);
  });
});

describe('a channel document written as the official ones are', () => {
  it('loads: cross-file $refs, required: [], the older release line channels; the ambiguous oneOf named among the repairs', async () => {
    const doc = await compile(either);
    expect(doc.asyncapi).toBe('2.6.0');
    expect(doc.documentVersion).toBe('3.4.0-FIXTURE');
    expect(doc.channels.map((c) => [c.path, c.publishOperationId, c.subscribeOperationId])).toEqual([
      ['/v2/updates', 'sendUpdates', 'onUpdates'],
      ['/v2/updates/flats', 'sendFlats', 'onFlats'],
      ['/v2/updates/trees', 'sendTrees', 'onTrees'],
    ]);
    expect(doc.repairs).toEqual([
      expect.stringMatching(
        /^channels \/v2\/updates, \/v2\/updates\/flats: oneOf \[Failure, UpdateItem\]: UpdateItem requires no property .* read as Failure when the message has code, cause, context, errorCategory, otherwise as UpdateItem$/,
      ),
      expect.stringMatching(/^channel \/v2\/updates\/trees: oneOf \[Failure, TreeItem\]/),
      "$ref '#/Node' closes a cycle through another file, which the AsyncAPI parser leaves unresolved: read as any value",
    ]);
  });

  it('accepts an update and an error (which the strict oneOf rejects), and tolerates null for an optional property apart', async () => {
    const doc = await compile(either);
    expect(judgeMessage(doc, '/v2/updates', { update: { Checkpoint: { offset: 5, times: ['t'] } } })).toEqual({
      problems: [],
      error: false,
      tolerated: [],
      nullForOptional: [],
      notApplicable: [],
    });
    const error = { ...canton, resources: [['party', 'alice']] };
    expect(judgeMessage(doc, '/v2/updates', error)).toMatchObject({ problems: [], error: true, tolerated: [] });
    expect(judgeMessage(doc, '/v2/updates/trees', { tree: { id: 'a', children: [{ id: 'b' }] } }).problems).toEqual([]);
    const nulls = judgeMessage(doc, '/v2/updates', { update: { Checkpoint: { offset: 5, times: null } } });
    expect(nulls).toMatchObject({ problems: [], nullForOptional: ['/update/Checkpoint/times'] });
    expect(nulls.tolerated).toEqual(['/update/Checkpoint/times is null where the property is optional']);
    expect(judgeMessage(doc, '/v2/updates', { update: { Checkpoint: { offset: 5, times: null } } }, { strict: true }).problems).toHaveLength(1);
  });

  it('rejects a value of the wrong type with its pointer, in an answer as in an error', async () => {
    const doc = await compile(either);
    const wrong = judgeMessage(doc, '/v2/updates', { update: { Checkpoint: { offset: 'five' } } });
    expect(wrong).toMatchObject({ error: false, pointer: '/update/Checkpoint/offset' });
    expect(wrong.problems).toEqual([expect.stringMatching(/^message on \/v2\/updates violates the schema: \/update\/Checkpoint\/offset must be integer/)]);
    const error = judgeMessage(doc, '/v2/updates', { ...canton, errorCategory: '8' });
    expect(error).toMatchObject({
      error: true,
      pointer: '/errorCategory',
      problems: ['error message on /v2/updates violates the schema: /errorCategory must be integer'],
    });
  });

  it('is read the same from a URL, its relative $refs fetched beside it', async () => {
    const server = createServer((req, res) => {
      readFile(join(fixtures, (req.url ?? '/').slice(1))).then(
        (bytes) => res.end(bytes),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const doc = await compile(`http://127.0.0.1:${(server.address() as AddressInfo).port}/either.yaml`);
      expect(doc.channels).toHaveLength(3);
      expect(judgeMessage(doc, '/v2/updates', canton)).toMatchObject({ problems: [], error: true });
    } finally {
      server.close();
    }
  });

  it('in AsyncAPI 3 form: operations that receive the request and send the messages', async () => {
    const doc = await compile(join(fixtures, 'v3.yaml'));
    expect(doc.channels).toEqual([
      expect.objectContaining({ path: '/v2/updates', publishOperationId: 'sendRequest', subscribeOperationId: 'receiveItems', auth: ['token'] }),
    ]);
    expect(doc.channels[0]).not.toHaveProperty('errorRequired');
    expect(judgeMessage(doc, '/v2/updates', { update: 1 })).toMatchObject({ pointer: '/update' });
  });
});

describe('a channel document compiled once per process', () => {
  it('is used again while every file it was read from holds the same bytes, and compiled again when one it refers to changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cn-channels-once-'));
    await cp(fixtures, dir, { recursive: true });
    const root = join(dir, 'either.yaml');
    const message = { update: { Checkpoint: { offset: 5, times: ['t'] } } };
    const first = await compile(root);
    expect(await compile(root)).toBe(first);
    expect(judgeMessage(first, '/v2/updates', message).problems).toEqual([]);

    // records.yaml, which either.yaml names in its $refs, now wants times to be numbers.
    const records = join(dir, 'records.yaml');
    await writeFile(records, (await readFile(records, 'utf8')).replace('items:\n        type: string', 'items:\n        type: integer'));
    const second = await compile(root);
    expect(second).not.toBe(first);
    expect(judgeMessage(second, '/v2/updates', message).problems).toEqual([expect.stringMatching(/\/update\/Checkpoint\/times\/0/)]);
    expect(await compile(root)).toBe(second);

    // The root changes: compiled again.
    await writeFile(root, (await readFile(root, 'utf8')).replace('3.4.0-FIXTURE', '3.4.1-FIXTURE'));
    expect((await compile(root)).documentVersion).toBe('3.4.1-FIXTURE');
  });
});

describe('a document that is no usable channel document', () => {
  it.each([
    ['not-asyncapi.yaml', /not-asyncapi\.yaml at #\/asyncapi: not an AsyncAPI document \(no top-level asyncapi field\)$/],
    ['no-channels.yaml', /no-channels\.yaml at #\/channels: the AsyncAPI document describes no channel$/],
    ['invalid.yaml', /invalid\.yaml at #\/channels\/~1v2~1updates\/subscribe: not a usable AsyncAPI document: "subscribe" property type must be object$/],
    ['unparsable.yaml', /unparsable\.yaml: not a usable AsyncAPI document: line 3: .* \(and \d+ more\)$/],
    ['missing.yaml', /missing\.yaml: cannot read the document: ENOENT/],
  ])('%s is a one-line load error, and an unusable check of the run', async (file, reason) => {
    const error = await compile(join(fixtures, file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecLoadError);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).not.toContain('\n');
    const { checks, channels } = await loadDocuments(new Map([['ledger-channels', join(fixtures, file)]]));
    expect(channels).toEqual({});
    expect(checks[0]!.loadError).toMatch(reason);
    expect(() => refuseUnusable(checks)).toThrow(/^the ledger-channels document .* is unusable: .*; fix it or drop --spec ledger-channels=\.\.\.$/);
  });
});

describe('--spec with an AsyncAPI document', () => {
  const openapi = join(fixtures, '../multi-file/api.yaml');

  it('given for the ledger, replaces its channel document and leaves its OpenAPI one; both can be given', async () => {
    const both = await selectSpecs([`ledger=${openapi}`, `ledger=${either}`]);
    expect(both.get('ledger')).toBe(openapi);
    expect(both.get('ledger-channels')).toBe(either);
    const alone = await selectSpecs([`ledger=${either}`]);
    expect(alone.get('ledger')).toMatch(/specs\/ledger-api\.yaml$/);
    expect(alone.get('ledger-channels')).toBe(either);
    expect((await selectSpecs([`ledger-channels=${either}`])).get('ledger-channels')).toBe(either);
    // No entry: the built-in channel document comes with the ledger's.
    expect((await selectSpecs([])).has('ledger-channels')).toBe(false);
  });

  it('replaces the built-in one when documents are loaded', async () => {
    const { checks, channels } = await loadDocuments(new Map([['ledger-channels', either]]));
    expect(checks).toEqual([expect.objectContaining({ name: 'ledger-channels', source: either, channels: 3, documentVersion: '3.4.0-FIXTURE' })]);
    expect(checks[0]).not.toHaveProperty('builtin');
    expect(checks[0]!.warnings).toHaveLength(3);
    expect(channels.ledger?.source).toBe(either);
  });

  it('given for an interface without channels is a usage error, before anything is loaded', async () => {
    // (The command line turns a UsageError into exit 2 with its message, test/cli/run-command.test.ts.)
    await expect(selectSpecs([`wallet=${either}`])).rejects.toThrow(UsageError);
    await expect(selectSpecs([`scan=${either}`], true)).rejects.toThrow(
      `--spec scan=${either}: an AsyncAPI document (WebSocket channels), but scan has no channels here and takes an OpenAPI document`,
    );
  });
});
