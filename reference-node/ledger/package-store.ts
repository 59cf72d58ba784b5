// What the participant knows of packages, and who vets which: the packages it was provisioned with (the
// world's amulet and wallet packages), those DAR uploads bring, and per synchronizer and participant the
// vetted set with its topology serial. The only ledger state besides submitted commands that changes while
// the node runs; one store per world (so per node).
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { World } from '../world/world.ts';
import { type Dar, DarError, payloadHash } from './dar.ts';
import { LedgerHttpError } from './errors.ts';

export interface StoredPackage {
  id: string;
  name: string;
  version: string;
  payload: Buffer;
  /** Packages it depends on (among the store's). */
  dependencies: string[];
  /** The node started with it (not brought by an upload through the interface). */
  provisioned: boolean;
  /** A DAR upload through the interface brought it, or brought it again. */
  uploaded: boolean;
}

/** Bounds of a vetted package (absent: unbounded). */
interface Bounds {
  validFromInclusive?: string;
  validUntilExclusive?: string;
}

interface VettedState {
  serial: number;
  packages: Map<string, Bounds>;
}

export const FORCE_FLAG = {
  allowUnvettedDependencies: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
  allowIncompatibleUpgrades: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
} as const;

const PACKAGE_VERSION = '0.1.0';

export class PackageStore {
  readonly packages = new Map<string, StoredPackage>();
  /** synchronizer id -> participant id -> what it vets there. */
  private readonly vetting = new Map<string, Map<string, VettedState>>();
  /** Packages GET /v2/packages leaves out (ledger-dar-upload-forgets-packages). */
  readonly forgotten = new Set<string>();

  constructor(private readonly world: World) {
    const provisioned = (id: string, name: string, dependencies: string[]) =>
      this.packages.set(id, { id, name, version: PACKAGE_VERSION, payload: standInArchive(id, name), dependencies, provisioned: true, uploaded: false });
    provisioned(world.amuletPackage, 'splice-amulet', []);
    // The wallet's templates use the amulet's types.
    provisioned(world.walletPackage, 'splice-wallet', [world.amuletPackage]);
    for (const s of world.synchronizers) {
      const byParticipant = new Map<string, VettedState>();
      for (const p of world.participants) byParticipant.set(p.id, { serial: 1, packages: new Map([...this.packages.keys()].map((id) => [id, {}])) });
      this.vetting.set(s.id, byParticipant);
    }
  }

  get participantId(): string {
    return this.world.ledgerParticipant.id;
  }

  isConnected(synchronizerId: string): boolean {
    return this.vetting.has(synchronizerId);
  }

  /**
   * The packages of a DAR as this participant would take them: a dalf of a known package must carry its very
   * bytes, any other must be what its hash says (the hash of its payload).
   */
  packagesOf(dar: Dar): StoredPackage[] {
    return dar.dalfs.map((d, i) => {
      const known = this.packages.get(d.hash);
      if (known) {
        if (!known.payload.equals(d.payload)) throw new DarError(`${d.path} states package ${d.hash}, but its payload is not that package's`);
        return known;
      }
      if (payloadHash(d.payload) !== d.hash) throw new DarError(`${d.path} states package ${d.hash}, but its payload hashes to ${payloadHash(d.payload)}`);
      const name = i === 0 ? (dar.manifest.get('Name') ?? nameOf(d.path)) : nameOf(d.path);
      const version = (i === 0 ? dar.manifest.get('Version') : undefined) ?? PACKAGE_VERSION;
      return { id: d.hash, name, version, payload: d.payload, dependencies: [], provisioned: false, uploaded: false };
    });
  }

  /** Takes the DAR's packages; with `vetOn`, vets them there for this participant. */
  upload(dar: Dar, vetOn: readonly string[]): StoredPackage[] {
    const taken = this.packagesOf(dar);
    for (const p of taken) {
      const stored = this.packages.get(p.id) ?? p;
      stored.uploaded = true;
      this.packages.set(p.id, stored);
    }
    for (const s of vetOn) {
      const own = this.own(s);
      const next = new Map(own?.packages ?? []);
      for (const p of taken) if (!next.has(p.id)) next.set(p.id, {});
      this.commit(s, own, next);
    }
    return taken;
  }

  /** Every participant's vetted packages on every synchronizer, sorted by synchronizer then participant id. */
  listing(): Array<{ synchronizerId: string; participantId: string; serial: number; packages: Map<string, Bounds> }> {
    const out = [...this.vetting].flatMap(([synchronizerId, byParticipant]) =>
      [...byParticipant].map(([participantId, v]) => ({ synchronizerId, participantId, serial: v.serial, packages: v.packages })),
    );
    return out.sort((a, b) => a.synchronizerId.localeCompare(b.synchronizerId) || a.participantId.localeCompare(b.participantId));
  }

  /** The VettedPackages record of a state, packages sorted by name, version and id (those `keep` selects). */
  record(
    synchronizerId: string,
    participantId: string,
    serial: number,
    packages: Map<string, Bounds>,
    keep: (p: StoredPackage | undefined, id: string) => boolean = () => true,
  ): JsonObject {
    const rows = [...packages]
      .filter(([id]) => keep(this.packages.get(id), id))
      .map(([id, bounds]) => {
        const p = this.packages.get(id);
        return { packageId: id, ...bounds, ...(p ? { packageName: p.name, packageVersion: p.version } : {}) };
      })
      .sort(
        (a, b) =>
          (a.packageName ?? '').localeCompare(b.packageName ?? '') ||
          (a.packageVersion ?? '').localeCompare(b.packageVersion ?? '') ||
          a.packageId.localeCompare(b.packageId),
      );
    return { participantId, synchronizerId, topologySerial: serial, packages: rows };
  }

  /**
   * Applies the changes of an UpdateVettedPackagesRequest (already checked against the document's shape) to this
   * participant's vetting on `synchronizerId`, in order; a dry run only computes the result. The state before
   * and after, as the document's UpdateVettedPackagesResponse shapes them.
   */
  updateVetting(ctx: NodeContext, synchronizerId: string, request: JsonObject): { pastVettedPackages?: JsonObject; newVettedPackages: JsonObject } {
    const own = this.own(synchronizerId);
    const expected = isObject(request.expectedTopologySerial) ? request.expectedTopologySerial.serial : undefined;
    if (isObject(expected) && isObject(expected.Prior) && expected.Prior.value !== own?.serial)
      throw new LedgerHttpError(
        400,
        'failedPrecondition',
        `The vetting state's topology serial is ${own?.serial ?? 'none'}, not ${expected.Prior.value}.`,
        'TOPOLOGY_SERIAL_MISMATCH',
      );
    if (isObject(expected) && isObject(expected.NoPrior) && own)
      throw new LedgerHttpError(
        400,
        'failedPrecondition',
        `The participant already vets packages on ${synchronizerId} (serial ${own.serial}).`,
        'TOPOLOGY_SERIAL_MISMATCH',
      );
    const flags = new Set(Array.isArray(request.updateVettedPackagesForceFlags) ? request.updateVettedPackagesForceFlags : []);
    const next = new Map(own?.packages ?? []);
    for (const change of request.changes as JsonObject[]) {
      const op = isObject(change.operation) ? change.operation : {};
      if (isObject(op.Vet)) {
        const v = op.Vet.value as JsonObject;
        for (const ref of v.packages as JsonObject[]) {
          const matches = this.resolve(ref);
          if (matches.length !== 1)
            throw new LedgerHttpError(
              400,
              'invalidArgument',
              `The package reference ${JSON.stringify(ref)} matches ${matches.length} packages; a vetted one must match exactly one.`,
              matches.length ? 'VETTING_REFERENCE_AMBIGUOUS' : 'VETTING_REFERENCE_UNRESOLVED',
            );
          const bounds: Bounds = {};
          if (typeof v.newValidFromInclusive === 'string' && v.newValidFromInclusive !== '') bounds.validFromInclusive = v.newValidFromInclusive;
          if (typeof v.newValidUntilExclusive === 'string' && v.newValidUntilExclusive !== '') bounds.validUntilExclusive = v.newValidUntilExclusive;
          next.set(matches[0]!.id, bounds);
        }
      } else if (isObject(op.Unvet)) {
        for (const ref of (op.Unvet.value as JsonObject).packages as JsonObject[]) {
          const matches = this.resolve(ref);
          if (matches.length === 0)
            throw new LedgerHttpError(
              400,
              'invalidArgument',
              `The package reference ${JSON.stringify(ref)} matches no package.`,
              'VETTING_REFERENCE_UNRESOLVED',
            );
          for (const p of matches) next.delete(p.id);
        }
      }
    }
    if (!flags.has(FORCE_FLAG.allowUnvettedDependencies)) {
      for (const id of next.keys()) {
        const missing = (this.packages.get(id)?.dependencies ?? []).filter((d) => !next.has(d));
        if (missing.length > 0)
          throw new LedgerHttpError(
            400,
            'failedPrecondition',
            `Package ${id} would stay vetted without its dependencies ${missing.join(', ')}.`,
            'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
          );
      }
    }
    const changed = !sameVetting(own?.packages ?? new Map(), next);
    const serial = (own?.serial ?? 0) + (changed ? 1 : 0);
    const past = own ? this.record(synchronizerId, this.participantId, own.serial, own.packages) : undefined;
    // ledger-vetting-new-state-stale: the answer's new state is the state before the changes.
    const after = ctx.faults.has('ledger-vetting-new-state-stale') && own ? past! : this.record(synchronizerId, this.participantId, serial, next);
    // ledger-vetting-dry-run-applied: a dry run changes the state as the real request would.
    if (request.dryRun !== true || ctx.faults.has('ledger-vetting-dry-run-applied')) this.commit(synchronizerId, own, next);
    return { ...(past ? { pastVettedPackages: past } : {}), newVettedPackages: after };
  }

  /** Packages a VettedPackagesRef names: each attribute it gives must match, an empty one matches all. */
  private resolve(ref: JsonObject): StoredPackage[] {
    const given = (k: string) => (typeof ref[k] === 'string' && ref[k] !== '' ? (ref[k] as string) : undefined);
    const [id, name, version] = [given('packageId'), given('packageName'), given('packageVersion')];
    if (id === undefined && name === undefined)
      throw new LedgerHttpError(400, 'invalidArgument', 'A package reference must give a packageId or a packageName.');
    return [...this.packages.values()].filter(
      (p) => (id === undefined || p.id === id) && (name === undefined || p.name === name) && (version === undefined || p.version === version),
    );
  }

  private own(synchronizerId: string): VettedState | undefined {
    return this.vetting.get(synchronizerId)?.get(this.participantId);
  }

  private commit(synchronizerId: string, before: VettedState | undefined, next: Map<string, Bounds>): void {
    if (before && sameVetting(before.packages, next)) return;
    this.vetting.get(synchronizerId)?.set(this.participantId, { serial: (before?.serial ?? 0) + 1, packages: next });
  }
}

function sameVetting(a: Map<string, Bounds>, b: Map<string, Bounds>): boolean {
  return a.size === b.size && [...a].every(([id, bounds]) => b.has(id) && JSON.stringify(b.get(id)) === JSON.stringify(bounds));
}

/** `splice-util-0.1.0-<hash>.dalf` or `<dir>/splice-util-<hash>.dalf` -> `splice-util-0.1.0` (what a dalf's name tells). */
function nameOf(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1).replace(/\.dalf$/, '');
  return file.replace(/-[0-9a-f]{64}$/, '') || file;
}

/**
 * Deterministic stand-in for a provisioned package's archive payload (the world's package ids are not hashes of
 * real Daml-LF): what GET /v2/packages/{id} answers and a DAR of that package must carry.
 */
function standInArchive(id: string, name: string): Buffer {
  return Buffer.concat([Buffer.from([0x0a, 0x40]), Buffer.from(id), Buffer.from(`\n${name} (simulated DAML-LF archive)\n`)]);
}

const stores = new WeakMap<World, PackageStore>();

/** The package store of a node (made on first use). */
export function packageStore(ctx: NodeContext): PackageStore {
  let s = stores.get(ctx.world);
  if (!s) stores.set(ctx.world, (s = new PackageStore(ctx.world)));
  return s;
}
