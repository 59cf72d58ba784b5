// The releases a reference node plays (ReferenceNodeOptions.releases): the scan's Splice release and the
// ledger's release line, read and checked once when the node is built.
import { SPLICE_RELEASE } from './splice-version.ts';

export type LedgerLine = '3.4' | '3.5';

export interface NodeRelease {
  /** The Splice release whose scan routes are served (`x.y.z`). */
  scan: string;
  /** What the scan's GET /version states; `scan` unless the node is to claim another release than it plays. */
  scanStated: string;
  /** The ledger's release line. */
  ledger: LedgerLine;
}

export interface ReleaseOptions {
  scan?: string;
  ledger?: string;
  scanStated?: string;
}

/** A release option of the wrong form; the command line names it by its flag (`--${option}-release`). */
export class ReleaseOptionError extends Error {
  constructor(
    readonly option: 'scan' | 'ledger',
    readonly form: string,
    readonly value: string,
  ) {
    super(`releases.${option} must be ${form}, got "${value}"`);
  }
}

/** The releases a node plays, defaults filled; a value of the wrong form throws a ReleaseOptionError. */
export function nodeRelease(options: ReleaseOptions = {}): NodeRelease {
  const scan = options.scan ?? SPLICE_RELEASE;
  if (!/^\d+\.\d+\.\d+$/.test(scan)) throw new ReleaseOptionError('scan', `a Splice release x.y.z (digits, e.g. ${SPLICE_RELEASE})`, scan);
  const ledger = options.ledger ?? '3.5';
  // 3.4.x: any release of the line (its patch number changes nothing the node plays).
  const line = /^3\.([45])(\.(\d+|x))?$/.exec(ledger);
  if (!line) throw new ReleaseOptionError('ledger', 'a ledger release line 3.4 or 3.5 (or 3.4.x, 3.5.x)', ledger);
  return { scan, scanStated: options.scanStated ?? scan, ledger: `3.${line[1]}` as LedgerLine };
}
