// The participant's packages and vetting on the reference node: DARs are read (zip, manifest, dalfs) and their
// packages taken, bytes that are no DAR refused; validation keeps nothing; vetting changes change what the
// listing shows, a dry run nothing; uploads and vetting changes are the administrator's.
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
import { readDar } from '../../reference-node/ledger/dar.ts';
import { buildDar, dalf, zip } from '../../requirements/ledger/dar-archive.ts';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

let node: InjectedNode;
beforeEach(async () => {
  node = await injectedNode({ defaultIdleTimeoutMs: 1 });
});
afterEach(() => node?.app.close());

const admin = () => ({ authorization: `Bearer ${node.creds.ledgerAdminToken}` });
const w = () => node.ctx.world;
const own = () => w().ledgerParticipant.id;
const sync = (i = 0) => w().synchronizers[i]!.id;

async function payloadOf(id: string): Promise<Buffer> {
  const res = await node.app.inject({ method: 'GET', url: `/v2/packages/${id}`, headers: admin() });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

const send = (url: string, bytes: Buffer, headers: Record<string, string> = admin()) =>
  node.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/octet-stream' }, payload: bytes });
const json = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  node.app.inject({
    method,
    url,
    headers: { ...admin(), 'content-type': 'application/json' },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });

/** The packages this participant vets on a synchronizer, as the listing shows them. */
async function vetted(synchronizerId = sync()): Promise<string[]> {
  const res = await json('GET', '/v2/package-vetting', { topologyStateFilter: { participantIds: [own()], synchronizerIds: [synchronizerId] } });
  expect(res.statusCode).toBe(200);
  return (res.json().vettedPackages as Json[]).flatMap((v) => v.packages.map((p: Json) => p.packageId));
}

const unvet = (packageId: string, extra: Json = {}) => ({
  changes: [{ operation: { Unvet: { value: { packages: [{ packageId, packageName: '', packageVersion: '' }] } } } }],
  synchronizerId: sync(),
  ...extra,
});
const ALLOW_UNVETTED_DEPENDENCIES = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

describe('reading a DAR', () => {
  const pkg = { id: 'a'.repeat(64), payload: Buffer.from('payload') };

  it('reads back what the suite builds: manifest (wrapped lines joined), main dalf first, hash and payload', () => {
    const other = { id: 'b'.repeat(64), payload: Buffer.from('other') };
    const dar = readDar(buildDar([pkg, other]));
    expect(dar.manifest.get('Format')).toBe('daml-lf');
    expect(dar.manifest.get('Main-Dalf')).toBe(dar.dalfs[0]!.path);
    expect(dar.dalfs.map((d) => [d.hash, d.payload.toString()])).toEqual([
      [pkg.id, 'payload'],
      [other.id, 'other'],
    ]);
  });

  it('reads deflated entries and refuses what breaks the format', () => {
    const manifest = Buffer.from('Manifest-Version: 1.0\r\nMain-Dalf: a.dalf\r\nDalfs: a.dalf\r\nFormat: daml-lf\r\n\r\n');
    const deflated = deflatedZip([
      ['META-INF/MANIFEST.MF', manifest],
      ['a.dalf', dalf(pkg)],
    ]);
    expect(readDar(deflated).dalfs[0]!.hash).toBe(pkg.id);
    const refused = (bytes: Buffer, why: RegExp) => expect(() => readDar(bytes)).toThrow(why);
    refused(Buffer.from('not a zip'), /not a zip archive/);
    refused(zip([{ name: 'a.dalf', data: dalf(pkg) }]), /no META-INF\/MANIFEST.MF/);
    refused(zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: b.dalf\r\n') }]), /does not hold/);
    refused(zip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: a.dalf\r\nFormat: jar\r\n') }]), /Format/);
    refused(
      zip([
        { name: 'META-INF/MANIFEST.MF', data: Buffer.from('Main-Dalf: a.dalf\r\n') },
        { name: 'a.dalf', data: Buffer.from('no protobuf at all, just text') },
      ]),
      /no Daml-LF archive|no package/,
    );
    // A flipped byte in a stored entry fails its CRC-32.
    const corrupt = buildDar([pkg]);
    const at = corrupt.indexOf('payload');
    corrupt.writeUInt8(corrupt.readUInt8(at) ^ 1, at);
    refused(corrupt, /CRC-32/);
  });
});

describe('uploads and validation', () => {
  it("take a DAR of the participant's own package, which stays listed and registered", async () => {
    const id = w().amuletPackage;
    const dar = buildDar([{ id, payload: await payloadOf(id) }]);
    expect((await send('/v2/dars/validate', dar)).statusCode).toBe(200);
    for (const url of ['/v2/dars?vetAllPackages=false', '/v2/packages']) {
      const res = await send(url, dar);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({});
    }
    expect((await json('GET', '/v2/packages')).json().packageIds).toContain(id);
    expect((await json('GET', `/v2/packages/${id}/status`)).json().packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
  });

  it('refuse bytes that are no DAR, and a dalf whose payload is not the package it names, alike on both upload paths', async () => {
    const id = w().amuletPackage;
    const wrong = buildDar([{ id, payload: Buffer.from('not that package') }]);
    for (const url of ['/v2/dars/validate', '/v2/dars', '/v2/packages']) {
      for (const bytes of [Buffer.from('PK\u0003\u0004 not really a dar'), wrong]) {
        const res = await send(url, bytes);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'INVALID_DAR', errorCategory: 8 });
      }
    }
  });

  it('a new package is taken on by its hash: validation keeps nothing, an upload lists it and vets it', async () => {
    const payload = Buffer.from('a package this participant never had');
    const id = createHash('sha256').update(payload).digest('hex');
    const dar = buildDar([{ id, payload }], 'new-thing');
    expect((await send('/v2/dars/validate', dar)).statusCode).toBe(200);
    expect((await json('GET', '/v2/packages')).json().packageIds).not.toContain(id);
    expect((await json('GET', `/v2/packages/${id}/status`)).json().packageStatus).toBe('PACKAGE_STATUS_UNSPECIFIED');
    expect((await send(`/v2/dars?synchronizerId=${encodeURIComponent(sync(1))}`, dar)).statusCode).toBe(200);
    expect((await json('GET', '/v2/packages')).json().packageIds).toContain(id);
    expect(await payloadOf(id)).toEqual(payload);
    // vetAllPackages (default true) vets it where the request says, and only there.
    expect(await vetted(sync(1))).toContain(id);
    expect(await vetted(sync(0))).not.toContain(id);
  });

  it("are the participant administrator's", async () => {
    const alice = { authorization: `Bearer ${node.creds.ledgerUserToken.token}` };
    for (const url of ['/v2/dars/validate', '/v2/dars', '/v2/packages']) expect((await send(url, Buffer.from('x'), alice)).statusCode).toBe(403);
  });
});

describe('vetting', () => {
  it('lists every participant per synchronizer, sorted, filtered and paged as asked', async () => {
    const all = (await json('GET', '/v2/package-vetting')).json();
    const keys = all.vettedPackages.map((v: Json) => `${v.synchronizerId} ${v.participantId}`);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toHaveLength(w().synchronizers.length * w().participants.length);
    expect(all.nextPageToken).toBe('');
    const first = (await json('GET', '/v2/package-vetting', { pageSize: 3 })).json();
    expect(first.vettedPackages).toEqual(all.vettedPackages.slice(0, 3));
    const second = (await json('GET', '/v2/package-vetting', { pageSize: 3, pageToken: first.nextPageToken })).json();
    expect(second.vettedPackages).toEqual(all.vettedPackages.slice(3, 6));
    const wallet = (await json('GET', '/v2/package-vetting', { packageMetadataFilter: { packageNamePrefixes: ['splice-wal'] } })).json();
    expect(wallet.vettedPackages[0].packages.map((p: Json) => p.packageName)).toEqual(['splice-wallet']);
  });

  it('a dry run answers the state after the change and changes nothing; the change itself does', async () => {
    const id = w().walletPackage;
    const dry = await json('POST', '/v2/package-vetting', unvet(id, { dryRun: true }));
    expect(dry.statusCode, dry.body).toBe(200);
    const { pastVettedPackages: past, newVettedPackages: next } = dry.json();
    expect(past.packages.map((p: Json) => p.packageId)).toContain(id);
    expect(next.packages.map((p: Json) => p.packageId)).not.toContain(id);
    expect([past.topologySerial, next.topologySerial]).toEqual([1, 2]);
    expect(await vetted()).toContain(id);

    expect((await json('POST', '/v2/package-vetting', unvet(id))).statusCode).toBe(200);
    expect(await vetted()).not.toContain(id);
    expect(await vetted(sync(1))).toContain(id);
    const back = await json('POST', '/v2/package-vetting', {
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'splice-wallet' }], newValidFromInclusive: '2026-01-01T00:00:00Z' } } } }],
      synchronizerId: sync(),
      expectedTopologySerial: { serial: { Prior: { value: 2 } } },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().newVettedPackages.packages.find((p: Json) => p.packageId === id)).toMatchObject({ validFromInclusive: '2026-01-01T00:00:00Z' });
    expect(back.json().newVettedPackages.topologySerial).toBe(3);
  });

  it('refuses to leave a vetted package without its dependencies unless forced, stale serials, unresolved references and guessing the synchronizer', async () => {
    const amulet = w().amuletPackage;
    const refused = async (body: Json, code: string) => {
      const res = await json('POST', '/v2/package-vetting', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(code);
    };
    await refused(unvet(amulet, { dryRun: true }), 'TOPOLOGY_DEPENDENCIES_NOT_VETTED');
    expect(
      (await json('POST', '/v2/package-vetting', unvet(amulet, { dryRun: true, updateVettedPackagesForceFlags: [ALLOW_UNVETTED_DEPENDENCIES] }))).statusCode,
    ).toBe(200);
    await refused(
      unvet(amulet, { expectedTopologySerial: { serial: { Prior: { value: 7 } } }, updateVettedPackagesForceFlags: [ALLOW_UNVETTED_DEPENDENCIES] }),
      'TOPOLOGY_SERIAL_MISMATCH',
    );
    await refused(unvet('c'.repeat(64)), 'VETTING_REFERENCE_UNRESOLVED');
    const { synchronizerId: _, ...anywhere } = unvet(w().walletPackage, { dryRun: true });
    await refused(anywhere, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
    expect(await vetted()).toEqual(expect.arrayContaining([amulet, w().walletPackage]));
  });

  it("changes are the administrator's, the listing anyone's; GET /v2/parties/participant-id names the participant", async () => {
    const alice = { authorization: `Bearer ${node.creds.ledgerUserToken.token}`, 'content-type': 'application/json' };
    const post = await node.app.inject({
      method: 'POST',
      url: '/v2/package-vetting',
      headers: alice,
      payload: JSON.stringify(unvet(w().walletPackage, { dryRun: true })),
    });
    expect(post.statusCode).toBe(403);
    expect((await node.app.inject({ method: 'GET', url: '/v2/package-vetting', headers: alice })).statusCode).toBe(200);
    const id = await node.app.inject({ method: 'GET', url: '/v2/parties/participant-id', headers: alice });
    expect(id.json()).toEqual({ participantId: own() });
  });
});

/** A zip of deflated entries (what real DAR tools write). */
function deflatedZip(entries: Array<[string, Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const packed = deflateRawSync(data);
    const n = Buffer.from(name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(data), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, n, packed);
    centrals.push(central, n);
    offset += 30 + n.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
