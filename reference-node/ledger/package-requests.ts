// Reads the requests of the package endpoints as the official ledger document shapes them (the description
// shows their purpose only). A request that breaks the shape is an InvalidStreamRequest: the plain-text 400 of
// the interface's HTTP layer.
import { isObject, type JsonObject } from '../../common/json.ts';
import { checkShape, obj, type RequestShape } from './request-shape.ts';
import { InvalidStreamRequest } from './stream-request.ts';

const flags = (names: string[]) => names.map((f) => `UPDATE_VETTED_PACKAGES_FORCE_FLAG_${f}`);
const FORCE_FLAGS = flags(['UNSPECIFIED', 'ALLOW_VET_INCOMPATIBLE_UPGRADES', 'ALLOW_UNVETTED_DEPENDENCIES']);
/** Release line 3.4's force flags (ledger-pre-3-5). */
const FORCE_FLAGS_3_4 = flags(['UNSPECIFIED', 'ALLOW_UNVET_PACKAGE_WITH_ACTIVE_CONTRACTS']);
/** The most of a GET body read (a listing request is small). */
const MAX_GET_BODY_BYTES = 64 * 1024;

function fail(message: string): never {
  throw new InvalidStreamRequest(`Invalid value for: ${message}`);
}

/** An upload's optional `vetAllPackages` query parameter (undefined when absent); one that is no boolean is refused. */
export function checkVetAllPackages(query: unknown): boolean | undefined {
  const raw = isObject(query) ? query.vetAllPackages : undefined;
  if (raw !== undefined && raw !== 'true' && raw !== 'false') fail(`query parameter vetAllPackages (expected true or false, but got: ${JSON.stringify(raw)})`);
  return raw === undefined ? undefined : raw === 'true';
}

/**
 * The JSON body of a GET, which the document gives the listing and the HTTP framework leaves unread; an absent
 * body is undefined.
 */
export async function getBody(raw: AsyncIterable<Buffer | string>): Promise<unknown> {
  let text = '';
  for await (const chunk of raw) {
    text += chunk;
    if (text.length > MAX_GET_BODY_BYTES) fail(`body (more than ${MAX_GET_BODY_BYTES} bytes)`);
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return fail('body (not JSON)');
  }
}

const strings: RequestShape = { array: 'string' };
const packageRefs: RequestShape = { array: obj({ packageId: 'string', packageName: 'string', packageVersion: 'string' }) };

const LIST_VETTED_PACKAGES = obj({
  packageMetadataFilter: obj({ packageIds: strings, packageNamePrefixes: strings }),
  topologyStateFilter: obj({ participantIds: strings, synchronizerIds: strings }),
  pageToken: 'string',
  pageSize: 'int32',
});

const updateVettedPackages = (forceFlags: readonly string[]) =>
  obj(
    {
      changes: {
        array: obj({
          operation: {
            oneOf: {
              Empty: obj(),
              Vet: obj({ value: obj({ packages: packageRefs, newValidFromInclusive: 'string', newValidUntilExclusive: 'string' }, ['packages']) }, ['value']),
              Unvet: obj({ value: obj({ packages: packageRefs }, ['packages']) }, ['value']),
            },
          },
        }),
      },
      dryRun: 'boolean',
      synchronizerId: 'string',
      expectedTopologySerial: obj({ serial: { oneOf: { Empty: obj(), NoPrior: obj(), Prior: obj({ value: 'int32' }, ['value']) } } }),
      updateVettedPackagesForceFlags: { array: { enum: forceFlags } },
    },
    ['changes'],
  );
const UPDATE_VETTED_PACKAGES = updateVettedPackages(FORCE_FLAGS);
const UPDATE_VETTED_PACKAGES_3_4 = updateVettedPackages(FORCE_FLAGS_3_4);

/** The body of a vetted-packages listing; an absent body is the empty request. */
export function checkListVettedPackages(raw: unknown): JsonObject {
  if (raw === undefined) return {};
  checkShape(raw, LIST_VETTED_PACKAGES);
  return raw as JsonObject;
}

/** The body of a vetting change: `changes` is required and non-empty; `pre35`: a node of release line 3.4 reads its flags. */
export function checkUpdateVettedPackages(raw: unknown, pre35 = false): JsonObject {
  checkShape(raw, pre35 ? UPDATE_VETTED_PACKAGES_3_4 : UPDATE_VETTED_PACKAGES);
  const o = raw as JsonObject;
  if ((o.changes as unknown[]).length === 0) fail('body (changes must be non-empty)');
  return o;
}
