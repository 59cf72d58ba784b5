// One scale measurement in its own process, against a reference node of the given scale in another:
// - holdings: the requirement SCAN-HOLDINGS-PAGING-COMPLETE itself (its walks over every holding of the
//   fixture's owners, each version compared with the large-page walk), with a page bound just large enough
//   for the whole set;
// - ledger: the whole update stream read in consecutive offset windows with the suite's readWindow, every
//   update key collected to check that no update comes twice and that the reads reach the ledger end.
// Prints one JSON line: items, units (pages or updates) and milliseconds of the measured part, requests, peak
// RSS of this process and of the node process; or the reason the size could not be measured.
import { ledgerEndOffset } from '../reference-node/ledger/offsets.ts';
import { makeCheckContext } from '../engine/check-context.ts';
import { readWindow, updateFormat, updateKeys, readParties } from '../interfaces/ledger/updates.ts';
import { runRequirement } from '../engine/engine.ts';
import { SCAN_REQUIREMENTS } from '../requirements/scan/index.ts';
import { LARGE_PAGE } from '../requirements/scan/holdings/walk.ts';
import { contextParts } from '../engine/target.ts';
import { startNodeProcess, type NodeInfo } from './node-process.ts';
import { benchTarget } from './target.ts';

/** Offsets per window: 1000 updates (two offsets each); the node's list limit is raised to LIST_LIMIT so that
 *  every window fits (the first holds the dense base segment; later ones about 330 elements). */
export const WINDOW_OFFSETS = 2000;
export const LIST_LIMIT = 1000;

const [kind, scaleText] = process.argv.slice(2);
if ((kind !== 'holdings' && kind !== 'ledger') || !scaleText) throw new Error('usage: scale-sample.ts holdings|ledger SCALE');

async function holdings(info: NodeInfo) {
  const requirement = SCAN_REQUIREMENTS.find((r) => r.id === 'SCAN-HOLDINGS-PAGING-COMPLETE')!;
  // A page bound whose half holds a walk with about half of LARGE_PAGE: the drawn walks then use page sizes
  // between that and LARGE_PAGE, so each is compared with the reference walk (with page_size LARGE_PAGE they
  // would be the reference walk itself and the comparison would be skipped). Same plan at every size.
  const maxPages = 4 * Math.ceil(info.holdings / LARGE_PAGE);
  const parts = contextParts(benchTarget(info, { maxPages, maxRequests: Number.MAX_SAFE_INTEGER }), {});
  const started = performance.now();
  const result = await runRequirement(requirement, parts);
  const ms = performance.now() - started;
  if (result.status !== 'passed') throw new Error(`${requirement.id} ${result.status}: ${result.reason}`);
  return { items: info.holdings, units: parts.seen!.length, ms, requests: parts.seen!.length };
}

async function ledger(info: NodeInfo) {
  const parts = contextParts(benchTarget(info, { maxRequests: Number.MAX_SAFE_INTEGER }), {});
  const ctx = makeCheckContext(parts);
  const format = updateFormat(readParties(ctx));
  const keys = new Set<string>();
  let elements = 0;
  let begin = 0;
  const started = performance.now();
  for (; ; begin += WINDOW_OFFSETS) {
    const w = { beginExclusive: begin, endInclusive: begin + WINDOW_OFFSETS };
    const { els } = await readWindow(ctx, w, format);
    if (els.length === 0) break;
    elements += els.length;
    for (const k of updateKeys(els, w)) {
      if (keys.has(k)) throw new Error(`update ${k} read twice`);
      keys.add(k);
    }
  }
  const ms = performance.now() - started;
  // The first empty window must lie past the ledger end: the reads covered the whole history.
  if (begin < ledgerEndOffset(info.updates))
    throw new Error(`the window reads stopped at offset ${begin}, before the ledger end ${ledgerEndOffset(info.updates)}`);
  return { items: info.updates, units: info.updates, ms, requests: parts.seen!.length, elements, updatesRead: keys.size };
}

const node = await startNodeProcess({ seed: 1, scale: Number(scaleText), listLimit: kind === 'ledger' ? LIST_LIMIT : undefined });
let measured: Record<string, number | string>;
try {
  measured = kind === 'holdings' ? await holdings(node.info) : await ledger(node.info);
} catch (e) {
  measured = { items: kind === 'holdings' ? node.info.holdings : node.info.updates, error: (e as Error).message };
}
const nodeRssKb = await node.stop();
console.log(JSON.stringify({ kind, scale: Number(scaleText), ...measured, rssKb: process.resourceUsage().maxRSS, nodeRssKb }));
