// The shipped documents against the interface description: every endpoint, its security, deprecations,
// statuses and error bodies, exactly as described.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS, findResponse, type OperationSpec } from '../../generators/index.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';

// Every endpoint of the description, as "METHOD full path" (a "GET, POST" row is two operations).
const DESCRIBED = {
  ledger: [
    'POST /v2/updates',
    'POST /v2/commands/submit-and-wait',
    'POST /v2/commands/submit-and-wait-for-transaction',
    'POST /v2/commands/submit-and-wait-for-reassignment',
    'POST /v2/commands/submit-and-wait-for-transaction-tree',
    'POST /v2/commands/async/submit',
    'POST /v2/commands/async/submit-reassignment',
    'POST /v2/commands/completions',
    'POST /v2/commands/command-completions',
    'POST /v2/events/events-by-contract-id',
    'GET /v2/version',
    'POST /v2/dars/validate',
    'POST /v2/dars',
    'GET /v2/packages',
    'POST /v2/packages',
    'GET /v2/packages/{package-id}',
    'GET /v2/packages/{package-id}/status',
    'GET /v2/package-vetting',
    'POST /v2/package-vetting',
  ],
  wallet: [
    'POST /api/validator/v0/wallet/buy-traffic-requests',
    'POST /api/validator/v0/wallet/transfer-offers/{tracking_id}/status',
    'GET /api/validator/v0/scan-proxy/dso-party-id',
  ],
  scan: [
    'POST /api/scan/v0/holdings/state',
    'POST /api/scan/v1/holdings/state',
    'POST /api/scan/v2/holdings/state',
    'GET /api/scan/v0/updates/{update_id}',
    'GET /api/scan/v2/updates/{update_id}',
    'GET /api/scan/v0/events/{update_id}',
    'POST /api/scan/v0/history/bulk/updates',
    'GET /api/scan/v0/history/bulk/download/{object_key}',
    'GET /api/scan/v0/transfer-preapprovals/by-party/{party}',
    'GET /api/scan/v0/domains/{domain_id}/members/{member_id}/traffic-status',
    'GET /api/scan/v0/validators/validator-faucets',
    'GET /api/scan/v1/domains/{domain_id}/parties/{party_id}/participant-id',
    'GET /api/scan/v0/unclaimed-development-fund-coupons',
    'POST /api/scan/v0/admin/sv/previous-sv-reward-weight',
    'GET /api/scan/v0/synchronizer-identities/{domain_id_prefix}',
    'GET /api/scan/v0/feature-support',
    'GET /api/scan/v0/ans-entries',
    'POST /api/scan/v0/state/acs/force',
    'GET /api/scan/v0/backfilling/status',
    'GET /api/scan/v0/internal/reward-accounting-process/rounds/{round_number}/root-hash',
  ],
} as const;

const DEPRECATED = new Set([
  'POST /v2/commands/submit-and-wait-for-transaction-tree',
  'POST /v2/commands/completions',
  'GET /v2/package-vetting',
  'POST /v2/package-vetting',
  'POST /api/scan/v0/holdings/state',
  'POST /api/scan/v1/holdings/state',
  'GET /api/scan/v0/updates/{update_id}',
]);

const key = (op: OperationSpec) => `${op.method.toUpperCase()} ${op.fullPath}`;
const all = async () => (await Promise.all(BUILTIN_NAMES.map((n) => builtinSpec(n)))).flatMap((s) => s.catalog.operations);
const op = async (name: keyof typeof DESCRIBED, k: string) => (await builtinSpec(name)).catalog.operations.find((o) => key(o) === k)!;

describe('the three documents cover the description', () => {
  it.each(BUILTIN_NAMES)('%s is a valid OpenAPI 3.0.3 document (swagger-parser)', async (name) => {
    const spec = await builtinSpec(name);
    expect(spec.loaded.document.openapi).toBe('3.0.3');
    expect(spec.catalog.operations.length).toBeGreaterThan(0);
  });

  it.each(BUILTIN_NAMES)('%s has exactly the operations of the description', async (name) => {
    const ops = (await builtinSpec(name)).catalog.operations.map(key).sort();
    expect(ops).toEqual([...DESCRIBED[name]].sort());
  });

  it('has 41 operations or more in all, each with a unique operationId and a source section', async () => {
    const ops = await all();
    expect(ops.length).toBe(42);
    expect(new Set(ops.map((o) => o.id)).size).toBe(ops.length);
    for (const o of ops) expect(o.extensions['x-cn-source'], o.id).toEqual(expect.any(String));
  });

  it('marks the operations that change a target with x-cn-mutates', async () => {
    const mutating = (await all())
      .filter((o) => o.extensions['x-cn-mutates'] === true)
      .map(key)
      .sort();
    expect(mutating).toEqual([
      'POST /api/scan/v0/state/acs/force',
      'POST /api/validator/v0/wallet/buy-traffic-requests',
      'POST /v2/commands/async/submit',
      'POST /v2/commands/async/submit-reassignment',
      'POST /v2/commands/submit-and-wait',
      'POST /v2/commands/submit-and-wait-for-reassignment',
      'POST /v2/commands/submit-and-wait-for-transaction',
      'POST /v2/commands/submit-and-wait-for-transaction-tree',
      'POST /v2/dars',
      'POST /v2/package-vetting',
      'POST /v2/packages',
    ]);
  });

  it('marks deprecated exactly what the description deprecates', async () => {
    for (const o of await all()) expect(o.deprecated, key(o)).toBe(DEPRECATED.has(key(o)));
  });

  it('carries the path prefixes /api/validator and /api/scan in servers', async () => {
    expect((await builtinSpec('wallet')).catalog.operations.every((o) => o.serverPrefix === '/api/validator')).toBe(true);
    expect((await builtinSpec('scan')).catalog.operations.every((o) => o.serverPrefix === '/api/scan')).toBe(true);
    expect((await builtinSpec('ledger')).catalog.operations.every((o) => o.serverPrefix === '' && o.path.startsWith('/v2/'))).toBe(true);
  });
});

describe('security schemes', () => {
  it('the ledger stream accepts either httpAuth (bearer) or apiKeyAuth', async () => {
    const spec = await builtinSpec('ledger');
    const stream = await op('ledger', 'POST /v2/updates');
    expect(stream.security).toEqual([{ httpAuth: [] }, { apiKeyAuth: [] }]);
    expect(stream.authOptional).toBe(false);
    const schemes = spec.loaded.document.components!.securitySchemes as Record<string, Record<string, string>>;
    expect(schemes.httpAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header' });
  });

  it('wallet endpoints need a bearer JWT; dso-party-id and scan need none', async () => {
    const wallet = await builtinSpec('wallet');
    const schemes = wallet.loaded.document.components!.securitySchemes as Record<string, Record<string, string>>;
    expect(schemes.walletAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect((await op('wallet', 'POST /api/validator/v0/wallet/buy-traffic-requests')).security).toEqual([{ walletAuth: [] }]);
    expect((await op('wallet', 'POST /api/validator/v0/wallet/transfer-offers/{tracking_id}/status')).security).toEqual([{ walletAuth: [] }]);
    expect((await op('wallet', 'GET /api/validator/v0/scan-proxy/dso-party-id')).security).toEqual([]);
    for (const o of (await builtinSpec('scan')).catalog.operations) expect(o.security, o.id).toEqual([]);
  });
});

describe('statuses and error bodies', () => {
  it('the ledger stream: 200 array, 400 text/plain, 413 and every other status JsCantonError', async () => {
    const stream = await op('ledger', 'POST /v2/updates');
    expect(stream.responses.map((r) => r.status).sort()).toEqual(['200', '400', '413', 'default']);
    expect(findResponse(stream, 400)!.content.map((m) => m.contentType)).toEqual(['text/plain']);
    const spec = await builtinSpec('ledger');
    for (const status of [413, 401, 403, 500]) {
      const media = findResponse(stream, status)!.content.find((m) => m.contentType === 'application/json')!;
      expect(spec.validators.validate(media.schemaPointer!, { code: 'X', cause: 'y', context: {}, errorCategory: 1 }).valid, String(status)).toBe(true);
      expect(spec.validators.validate(media.schemaPointer!, { code: 'X', cause: 'y', context: {} }).valid, String(status)).toBe(false);
    }
  });

  it('the other ledger operations answer errors with JsCantonError', async () => {
    const spec = await builtinSpec('ledger');
    for (const o of spec.catalog.operations) {
      const media = findResponse(o, 500)!.content.find((m) => m.contentType === 'application/json')!;
      expect(spec.validators.validate(media.schemaPointer!, { error: 'x' }).valid, o.id).toBe(false);
      expect(
        spec.validators.validate(media.schemaPointer!, { code: 'C', cause: 'c', context: { a: 'b' }, errorCategory: 2, resources: [['k', 'v']] }).valid,
        o.id,
      ).toBe(true);
    }
  });

  it('wallet buy-traffic documents 200, 400, 409, 429 and 500; transfer status 200 and 404', async () => {
    expect((await op('wallet', 'POST /api/validator/v0/wallet/buy-traffic-requests')).responses.map((r) => r.status).sort()).toEqual([
      '200',
      '400',
      '409',
      '429',
      '500',
    ]);
    expect((await op('wallet', 'POST /api/validator/v0/wallet/transfer-offers/{tracking_id}/status')).responses.map((r) => r.status).sort()).toEqual([
      '200',
      '404',
    ]);
  });

  it('wallet and scan errors are {error: string}', async () => {
    for (const name of ['wallet', 'scan'] as const) {
      const spec = await builtinSpec(name);
      for (const o of spec.catalog.operations) {
        for (const r of o.responses.filter((x) => /^[45]/.test(x.status))) {
          const media = r.content.find((m) => m.contentType === 'application/json')!;
          expect(media, `${o.id} ${r.status}`).toBeDefined();
          expect(spec.validators.validate(media.schemaPointer!, { error: 'bad' }).valid).toBe(true);
          expect(spec.validators.validate(media.schemaPointer!, { message: 'bad' }).valid).toBe(false);
        }
      }
    }
  });

  it('scan operations document 400, 404 and 500; bulk updates also 501', async () => {
    for (const o of (await builtinSpec('scan')).catalog.operations) {
      const statuses = o.responses.map((r) => r.status);
      expect(statuses, o.id).toEqual(expect.arrayContaining(['200', '400', '404', '500']));
    }
    expect((await op('scan', 'POST /api/scan/v0/history/bulk/updates')).responses.map((r) => r.status)).toContain('501');
    const download = await op('scan', 'GET /api/scan/v0/history/bulk/download/{object_key}');
    expect(findResponse(download, 200)!.content.map((m) => m.contentType)).toEqual(['application/octet-stream']);
  });
});

describe('examples', () => {
  it.each(BUILTIN_NAMES)('%s: every response media type has an example, and every example validates', async (name) => {
    const spec = await builtinSpec(name);
    let checked = 0;
    for (const o of spec.catalog.operations) {
      const media = [
        ...o.responses.flatMap((r) => r.content.map((m) => ({ where: `${o.id} ${r.status} ${m.contentType}`, m }))),
        ...(o.requestBody?.content ?? []).map((m) => ({ where: `${o.id} request ${m.contentType}`, m })),
      ];
      for (const { where, m } of media) {
        if (!where.includes('request')) expect(m.examples.length, `${where} has no example`).toBeGreaterThan(0);
        for (const ex of m.examples) {
          if (/json/.test(m.contentType)) {
            const r = spec.validators.validate(m.schemaPointer!, ex.value);
            expect(r.issues, where).toEqual([]);
          } else {
            expect(typeof ex.value, where).toBe('string');
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(spec.catalog.operations.length);
  });
});

describe('open where the description says "not shown"', () => {
  it('no schema forbids extra properties', async () => {
    for (const path of Object.values(BUILTIN_SPECS)) expect(await readFile(path, 'utf8')).not.toMatch(/additionalProperties:\s*false/);
  });

  it('overview ledger payloads, the v2 update and v2 holdings tokens accept any JSON', async () => {
    const ledger = await builtinSpec('ledger');
    const version = findResponse(await op('ledger', 'GET /v2/version'), 200)!.content[0]!;
    for (const v of [{ version: '3.5.14' }, 'x', 1, [], null]) expect(ledger.validators.validate(version.schemaPointer!, v).valid).toBe(true);
    const scan = await builtinSpec('scan');
    const v2 = findResponse(await op('scan', 'GET /api/scan/v2/updates/{update_id}'), 200)!.content[0]!;
    expect(scan.validators.validate(v2.schemaPointer!, { anything: [1, 2] }).valid).toBe(true);
    const base = { migration_id: 1, record_time: '2025-01-01T00:00:00Z', page_size: 10, owner_party_ids: ['p'] };
    for (const after of ['opaque', 7, { k: 1 }])
      expect(scan.validators.validate('/components/schemas/HoldingsStateV2Request', { ...base, after }).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/HoldingsStateRequest', { ...base, after: 'opaque' }).valid).toBe(false);
  });

  it('enumerations the description does not give stay free strings', async () => {
    const scan = await builtinSpec('scan');
    const verdict = { verdict_result: 'VERDICT_RESULT_ACCEPTED_SOMEHOW', mediator_group: 0 };
    expect(scan.validators.validate('/components/schemas/EventHistoryVerdict', verdict).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/RewardAccountingRootHashResponse', { status: 'anything-new' }).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/TreeEvent', { event_type: 'some_future_kind', event_id: 'e' }).valid).toBe(true);
  });
});

describe('required vs optional, exactly as described', () => {
  const contract = {
    contract_id: '00ab',
    template_id: 'pkg:M:T',
    package_name: 'amulet',
    create_arguments: {},
    created_at: '2025-01-01T00:00:00Z',
    signatories: ['a::1'],
    observers: [],
  };

  it('ActiveContract: created_in_update_id optional, the rest required', async () => {
    const scan = await builtinSpec('scan');
    expect(scan.validators.validate('/components/schemas/ActiveContract', contract).valid).toBe(true);
    for (const k of Object.keys(contract)) {
      const { [k]: _dropped, ...rest } = contract as Record<string, unknown>;
      expect(scan.validators.validate('/components/schemas/ActiveContract', rest).valid, k).toBe(false);
    }
  });

  it('CreatedEvent requires event_type and event_id besides the contract fields', async () => {
    const scan = await builtinSpec('scan');
    expect(scan.validators.validate('/components/schemas/CreatedEvent', { ...contract, event_type: 'created_event', event_id: '#1:0' }).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/CreatedEvent', { ...contract, event_type: 'created_event' }).valid).toBe(false);
  });

  it('external_transaction_hash is optional and, when present, a string (omitted rather than null)', async () => {
    const scan = await builtinSpec('scan');
    const tx = {
      update_id: 'u',
      migration_id: 0,
      workflow_id: '',
      record_time: '2025-01-01T00:00:00.000001Z',
      synchronizer_id: 's',
      effective_at: '2025-01-01T00:00:00Z',
      offset: '000001',
      root_event_ids: [],
      events_by_id: {},
    };
    expect(scan.validators.validate('/components/schemas/UpdateHistoryTransaction', tx).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/UpdateHistoryTransaction', { ...tx, external_transaction_hash: null }).valid).toBe(false);
    const { offset: _o, ...v2 } = tx;
    expect(scan.validators.validate('/components/schemas/UpdateHistoryTransactionV2', v2).valid).toBe(true);
  });

  it('AnsEntry: contract_id optional, expires_at optional or null', async () => {
    const scan = await builtinSpec('scan');
    const entry = { user: 'u::1', name: 'n.ans', url: '', description: '' };
    expect(scan.validators.validate('/components/schemas/AnsEntry', entry).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/AnsEntry', { ...entry, expires_at: null }).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/AnsEntry', { ...entry, expires_at: 'soon' }).valid).toBe(false);
  });

  it('limits: owner_party_ids at least 1, bulk page_size 1..1000, holdings page_size unbounded', async () => {
    const scan = await builtinSpec('scan');
    const holdings = { migration_id: 1, record_time: '2025-01-01T00:00:00Z', page_size: 5000, owner_party_ids: ['p'] };
    expect(scan.validators.validate('/components/schemas/HoldingsStateRequest', holdings).valid).toBe(true);
    expect(scan.validators.validate('/components/schemas/HoldingsStateRequest', { ...holdings, owner_party_ids: [] }).valid).toBe(false);
    const bulk = { start_record_time: '2025-01-01T00:00:00Z', end_record_time: '2025-01-02T00:00:00Z' };
    for (const [size, ok] of [
      [1, true],
      [1000, true],
      [0, false],
      [1001, false],
    ] as const) {
      expect(scan.validators.validate('/components/schemas/BulkHistoryUpdatesRequest', { ...bulk, page_size: size }).valid, String(size)).toBe(ok);
    }
  });

  it('transfer offer status: exactly the fields of each state', async () => {
    const wallet = await builtinSpec('wallet');
    const ptr = '/components/schemas/TransferOfferStatus';
    for (const status of ['created', 'accepted', 'completed']) {
      expect(wallet.validators.validate(ptr, { status, transaction_id: 't', contract_id: 'c' }).valid, status).toBe(true);
      expect(wallet.validators.validate(ptr, { status, transaction_id: 't' }).valid, status).toBe(false);
    }
    for (const failure_kind of ['expired', 'rejected', 'withdrawn'])
      expect(wallet.validators.validate(ptr, { status: 'failed', failure_kind }).valid).toBe(true);
    expect(wallet.validators.validate(ptr, { status: 'failed', failure_kind: 'withdrawn', withdrawn_reason: 'funds' }).valid).toBe(true);
    expect(wallet.validators.validate(ptr, { status: 'failed', failure_kind: 'lost' }).valid).toBe(false);
    expect(wallet.validators.validate(ptr, { status: 'pending' }).valid).toBe(false);
  });

  it('the ledger stream: an update has exactly one of the four keys, records are open', async () => {
    const ledger = await builtinSpec('ledger');
    const ptr = '/components/schemas/JsGetUpdatesResponse';
    const checkpoint = { OffsetCheckpoint: { value: { offset: 5, synchronizerTimes: [] } } };
    expect(ledger.validators.validate(ptr, { update: checkpoint }).valid).toBe(true);
    expect(ledger.validators.validate(ptr, { update: { OffsetCheckpoint: { value: { offset: 5, futureField: true } } } }).valid).toBe(true);
    expect(ledger.validators.validate(ptr, { update: {} }).valid).toBe(false);
    const tx = {
      Transaction: {
        value: {
          updateId: 'u',
          effectiveAt: '2025-01-01T00:00:00Z',
          events: [{ ArchivedEvent: { offset: 5, nodeId: 0, contractId: 'c', templateId: 't', witnessParties: ['a'], packageName: 'p' } }],
          offset: 5,
          synchronizerId: 's',
          recordTime: '2025-01-01T00:00:00Z',
        },
      },
    };
    expect(ledger.validators.validate(ptr, { update: tx }).valid).toBe(true);
    expect(ledger.validators.validate(ptr, { update: { ...checkpoint, ...tx } }).valid).toBe(false);
  });
});
