// Words the suite, the reference node and the reports share, kept below all of them so that none has to
// import another for a name.

export const INTERFACES = ['ledger', 'wallet', 'scan'] as const;
export type InterfaceName = (typeof INTERFACES)[number];

/** Where each interface's paths begin on a node: the ledger's at its root, the wallet's and the scan's under their own prefix. */
export const INTERFACE_PREFIX: Record<InterfaceName, string> = { ledger: '', wallet: '/api/validator', scan: '/api/scan' };

/**
 * The checks derived from an OpenAPI document for each of its operations (requirements/generic): answers are
 * documented and schema-valid; invalid input is refused with a documented 4xx; a secured operation refuses
 * a request without credentials; every successful answer keeps the relations to its request the document
 * states (x-cn-echo, x-cn-key, ...). A fault of the reference node names the ones its break shows in.
 */
export const GENERIC_CHECKS = ['responses', 'invalid-input', 'credentials-required', 'relations'] as const;
export type GenericCheck = (typeof GENERIC_CHECKS)[number];

/** rule: a record of the description; generic: derived from an OpenAPI document. */
export type RequirementKind = 'rule' | 'generic';

/**
 * "POST /api/validator/v0/wallet/transfer-offers/{tracking_id}/status": an operation of `iface` as provenance
 * names it, under that interface's own prefix whichever source names it (a wallet source may name what the
 * ledger's stream showed). The path is the template of the interface's document: a concrete path (encoded
 * ids) or a query would name one request, not the operation, so it is refused as a slip of the source.
 */
export function endpointOf(iface: InterfaceName, method: 'GET' | 'POST', path: string): string {
  if (!path.startsWith('/') || /[%?#]/.test(path))
    throw new Error(`discovery names ${method} ${path} of the ${iface}: give the path template, without a query`);
  return `${method} ${INTERFACE_PREFIX[iface]}${path}`;
}
