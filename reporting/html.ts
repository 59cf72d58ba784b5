// report.html: one self-contained page (no network): a chart by interface and level, filters, and every
// requirement with its rule and, when it failed, the evidence to reproduce it.
import { describeSource } from '../engine/discovery/discover.ts';
import { describeOrigin } from '../engine/discovery/provenance.ts';
import { type Counts, type ConformanceReport, type ReportExchanges, releasesLine } from './model.ts';
import type { RequirementResult } from '../engine/engine.ts';
import { EXCERPT_BYTES } from '../engine/transport/bounds.ts';
import { reproduce, type HttpExchangeSummary, type WebSocketExchangeSummary } from '../engine/transport/evidence.ts';
import { layoutJson } from './json-layout.ts';
import { dependentGroups, headline, notApplicableGroups, skipGroups, unsupportedGroups } from './verdict.ts';

const esc = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const COLORS = {
  passed: '#2e7d32',
  failed: '#c62828',
  error: '#6a1b9a',
  waived: '#ef6c00',
  unsupported: '#546e7a',
  'not-applicable': '#78909c',
  skipped: '#9e9e9e',
} as const;
const ORDER = ['failed', 'error', 'unsupported', 'waived', 'skipped', 'not-applicable', 'passed'] as const;
/** Green only for a run that judged everything it selected; amber says "not everything was judged". */
const VERDICT_COLORS = { conformant: COLORS.passed, incomplete: '#b26a00', 'not-conformant': COLORS.failed } as const;

function bar(label: string, c: Counts, width = 420): string {
  let x = 0;
  const n = (k: (typeof ORDER)[number]) => (k === 'not-applicable' ? c.notApplicable : c[k]);
  const parts = ORDER.filter((k) => n(k) > 0).map((k) => {
    const w = c.total ? (n(k) / c.total) * width : 0;
    const rect = `<rect x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="18" fill="${COLORS[k]}"><title>${k}: ${n(k)}</title></rect>`;
    x += w;
    return rect;
  });
  return (
    `<div class="bar"><span class="label">${esc(label)}</span><svg width="${width}" height="18" role="img" aria-label="${esc(label)}">${parts.join('')}</svg>` +
    `<span class="nums">${c.passed} passed · ${c.failed} failed · ${c.skipped} skipped${c.dependent ? ` (${c.dependent} after a failure)` : ''}${c.unsupported ? ` · ${c.unsupported} unsupported` : ''}${c.notApplicable ? ` · ${c.notApplicable} not applicable` : ''}${c.waived ? ` · ${c.waived} waived` : ''}${c.error ? ` · ${c.error} error` : ''}</span></div>`
  );
}

/** A laid-out JSON body longer than this many lines (a few screens) folds after its first HEAD_LINES. */
const FOLD_AT = 60;
const HEAD_LINES = 20;

/**
 * A body of the evidence: JSON laid out with 2-space indentation (an excerpt cut at its bound too, when it is
 * the start of a JSON value), a long one folded into a <details> whose summary says how many lines it holds;
 * the folded lines are in the page, only closed. Anything else is shown as it came.
 */
function bodyBlock(text: string): string {
  const laid = layoutJson(text, text.length >= EXCERPT_BYTES);
  if (laid === undefined) return `<pre>${esc(text)}</pre>`;
  const lines = laid.split('\n');
  if (lines.length <= FOLD_AT) return `<pre class="json">${esc(laid)}</pre>`;
  return (
    `<pre class="json head">${esc(lines.slice(0, HEAD_LINES).join('\n'))}</pre>` +
    `<details class="fold"><summary>${lines.length - HEAD_LINES} more lines (${lines.length} in all)</summary><pre class="json rest">${esc(lines.slice(HEAD_LINES).join('\n'))}</pre></details>`
  );
}

function evidence(r: RequirementResult): string {
  const e = r.evidence;
  if (!e) return '';
  const out: string[] = [];
  if (e.pointer) out.push(`<div><b>at</b> <code>${esc(e.pointer)}</code></div>`);
  if (e.property)
    out.push(
      `<div><b>fast-check</b> seed <code>${e.property.seed}</code> path <code>${esc(e.property.path ?? '-')}</code> after ${e.property.runs} runs; counterexample <code>${esc(e.property.counterexample)}</code></div>`,
    );
  if (e.exchange) {
    const x = e.exchange;
    out.push(...(x.transport === 'websocket' ? channelShown(x) : exchangeShown(x)));
    if (x.error) out.push(`<div><b>no answer</b> ${esc(x.error)}</div>`);
    out.push(`<div><b>reproduce</b></div><pre class="curl">${esc(reproduce(x))}</pre>`);
  }
  return `<div class="evidence">${out.join('')}</div>`;
}

/** What an HTTP exchange sent and got. */
function exchangeShown(x: HttpExchangeSummary): string[] {
  const out = [`<div><b>request</b> <code>${esc(x.request.method)} ${esc(x.request.url)}</code></div>`];
  if (x.request.body) out.push(bodyBlock(x.request.body));
  if (x.response)
    out.push(
      `<div><b>response</b> ${x.response.status} ${esc(x.response.headers['content-type'] ?? '')} (${x.response.bodyBytes} bytes)</div>${bodyBlock(x.response.bodyExcerpt)}`,
    );
  return out;
}

/** What a WebSocket channel sent and got, message by message. */
function channelShown(x: WebSocketExchangeSummary): string[] {
  const protocols = x.channel.subprotocols.length ? ` (subprotocols ${esc(x.channel.subprotocols.join(', '))})` : '';
  const out = [`<div><b>channel</b> <code>${esc(x.channel.url)}</code>${protocols}</div>`];
  for (const m of x.sent) out.push(`<div><b>sent</b></div>${bodyBlock(m)}`);
  x.received.forEach((m, i) => {
    if (x.omitted && i === x.received.length - 2) out.push(`<div>... ${x.omitted} more messages ...</div>`);
    out.push(`<div><b>received</b> (${m.bytes} bytes)</div>${bodyBlock(m.excerpt)}`);
  });
  if (x.close) out.push(`<div><b>closed</b> ${x.close.code} ${esc(x.close.reason)}</div>`);
  if (x.error) out.push(`<div><b>error</b> ${esc(x.error)}</div>`);
  return out;
}

/** Where the result's exchanges are in the run's HAR file (log.entries indices), linked to the file. */
function harLine(r: RequirementResult, exchanges: ReportExchanges | undefined): string {
  const link = exchanges?.links[r.id];
  if (!exchanges || !link) return '';
  const file = `<a href="${esc(encodeURI(exchanges.har))}">${esc(exchanges.har)}</a>`;
  const at = (i: number | undefined) => `<code>log.entries[${i}]</code>`;
  const parts = [
    ...(link.evidence !== undefined ? [`the evidence is ${at(link.evidence)}`] : []),
    ...(link.count > 0
      ? [
          `the check sent ${link.count} request${link.count === 1 ? '' : 's'} (${link.count === 1 ? at(link.first) : `the first ${at(link.first)}, the last ${at(link.last)}`})`,
        ]
      : []),
  ];
  return `<div class="har" id="har-${esc(r.id)}" data-har-entry="${link.evidence ?? link.first ?? ''}"><b>exchanges</b> in ${file}: ${parts.join('; ')}</div>`;
}

function row(r: RequirementResult, exchanges?: ReportExchanges): string {
  // A SHOULD failure is a finding: shown as a warning, never as a break of the run.
  const badge = r.status === 'failed' && r.level === 'SHOULD' ? 'warning' : r.status;
  return `<details class="req ${r.status}" data-status="${r.status}" data-text="${esc(`${r.id} ${r.sentence} ${r.operations.join(' ')}`.toLowerCase())}"${r.status === 'failed' ? ' open' : ''}>
<summary><span class="badge ${badge}">${badge}</span> <code>${esc(r.id)}</code> <span class="level">${r.level}</span> <span class="iface">${r.interface}</span>${r.mutates ? ' <span class="mut">changes target</span>' : ''}</summary>
<div class="body"><blockquote>${esc(r.sentence)}</blockquote><div class="meta">${esc(r.section)} · ${esc(r.operations.join(', '))} · ${r.durationMs} ms</div>${r.dependsOn ? `<div class="depends">not judged: depends on the failed <code>${esc(r.dependsOn.join(', '))}</code></div>` : ''}
${r.reason ? `<div class="reason">${esc(r.reason)}</div>` : ''}${evidence(r)}${harLine(r, exchanges)}${r.stack ? `<pre>${esc(r.stack)}</pre>` : ''}</div></details>`;
}

export function renderHtml(report: ConformanceReport): string {
  const s = report.summary;
  const j = report.judgement;
  const verdict = headline(report.verdict);
  const judged = `${j.judged} of ${j.selected} selected requirements judged${s.notApplicable ? ` · ${s.notApplicable} not applicable to the nodes' releases` : ''}${report.mode === 'certify' ? ' · certification run' : ''}`;
  const why = [...j.reasons, ...j.warnings, ...(report.judgedBy ?? []).flatMap((x) => (x.warning ? [x.warning] : []))]
    .map((x) => `<li>${esc(x)}</li>`)
    .join('');
  const groups = skipGroups(report.requirements);
  const skips = groups.length
    ? `<details class="skips"><summary>why ${s.skipped - s.dependent} ${s.dependent ? 'other ' : ''}requirement${s.skipped - s.dependent === 1 ? ' was' : 's were'} not judged (${groups.length} reason${groups.length === 1 ? '' : 's'})</summary><ul>${groups.map((g) => `<li><b>${g.ids.length}</b> ${esc(g.reason)} <span class="ids">${esc(g.ids.slice(0, 5).join(', '))}${g.ids.length > 5 ? ', …' : ''}</span></li>`).join('')}</ul></details>`
    : '';
  const dependent = dependentGroups(report.requirements);
  const depends = dependent.length
    ? `<details class="skips"><summary>${s.dependent} requirement${s.dependent === 1 ? '' : 's'} not judged: depend${s.dependent === 1 ? 's' : ''} on a failed requirement (skipped because of a failure, not for want of data)</summary><ul>${dependent.map((g) => `<li><b>${g.ids.length}</b> after <code>${esc(g.failed.join(', '))}</code> failed <span class="ids">${esc(g.ids.slice(0, 5).join(', '))}${g.ids.length > 5 ? ', …' : ''}</span></li>`).join('')}</ul></details>`
    : '';
  const unserved = unsupportedGroups(report.requirements);
  const unsupported = unserved.length
    ? `<details class="unserved"><summary>${s.unsupported} requirement${s.unsupported === 1 ? ' is' : 's are'} unsupported: the target does not serve ${unserved.length} operation${unserved.length === 1 ? '' : 's'} they need (not a failure, not judged)</summary><ul>${unserved.map((g) => `<li><b>${g.ids.length}</b> <code>${esc(g.operations)}</code>: ${esc(g.why)} <span class="ids">${esc(g.ids.slice(0, 5).join(', '))}${g.ids.length > 5 ? ', …' : ''}</span></li>`).join('')}</ul></details>`
    : '';
  const inapplicableGroups = notApplicableGroups(report.requirements);
  const inapplicable = inapplicableGroups.length
    ? `<details class="unserved"><summary>${s.notApplicable} requirement${s.notApplicable === 1 ? ' does' : 's do'} not apply to the releases the nodes state (not judged, and nothing of those releases left unjudged)</summary><ul>${inapplicableGroups.map((g) => `<li><b>${g.ids.length}</b> ${esc(g.reason)} <span class="ids">${esc(g.ids.slice(0, 5).join(', '))}${g.ids.length > 5 ? ', …' : ''}</span></li>`).join('')}</ul></details>`
    : '';
  const bars = [bar('all', s), ...Object.entries(s.byInterface).map(([k, c]) => bar(k, c)), ...Object.entries(s.byLevel).map(([k, c]) => bar(k, c))].join('\n');
  const specs = report.specs
    .map(
      (x) =>
        `<li><code>${esc(x.name)}</code> ${esc(x.source)}${x.documentVersion ? ` (info.version ${esc(x.documentVersion)})` : ''} ${x.sha256 ? `sha256 <code>${esc(x.sha256.slice(0, 16))}…</code>` : ''} ${x.loadError ? `<b>unusable</b>: ${esc(x.loadError)}` : ''}${x.warnings?.length ? `<ul>${x.warnings.map((w) => `<li>warning: ${esc(w)}</li>`).join('')}</ul>` : ''}</li>`,
    )
    .join('');
  const targets = Object.entries(report.targets)
    .map(([k, v]) => `<li>${esc(k)}: ${esc(v)}</li>`)
    .join('');
  const fixtureRows = (report.fixtures ?? [])
    .map((f) => `<tr><td><code>${esc(f.name)}</code></td><td>${esc(f.shown)}</td><td>${esc(describeOrigin(f.origin))}</td></tr>`)
    .join('');
  const sources = (report.discovery?.sources ?? [])
    .filter((x) => x.outcome !== 'not needed')
    .map((x) => `<li>${esc(describeSource(x))}</li>`)
    .join('');
  const fixtures = fixtureRows
    ? `<details class="fixtures"><summary>fixtures (${report.fixtures!.length}) and where they came from</summary><table><thead><tr><th>fixture</th><th>value</th><th>source</th></tr></thead><tbody>${fixtureRows}</tbody></table>${sources ? `<div>discovery${report.discovery ? ` (at most ${report.discovery.bounds.pages} pages and ${report.discovery.bounds.ms} ms per source)` : ''}:</div><ul>${sources}</ul>` : ''}</details>`
    : '';
  const ops = j.operations;
  const coverageRows = report.coverage
    .map(
      (c) =>
        `<tr class="${c.confirmed ? 'yes' : 'no'}"><td>${esc(c.spec)}</td><td><code>${esc(`${c.method} ${c.path}`)}</code>${c.served === false ? ' (not served)' : ''}</td><td>${c.confirmed ? `yes <span class="ids">${esc(c.confirmedBy ?? 'generic answer check')}</span>` : `no <span class="ids">${esc(c.unconfirmed ?? '')}</span>`}</td><td>${esc(c.positive)}</td><td>${esc(c.negative)}</td><td>${c.semantic}</td><td>${esc(c.statusesSeen.join(', ') || '-')}</td><td>${esc(c.statusesDocumented.join(', '))}</td></tr>`,
    )
    .join('');
  const coverage = coverageRows
    ? `<details class="coverage"${ops?.unconfirmed.length ? ' open' : ''}><summary>operations confirmed: ${ops ? `${ops.confirmed} of ${ops.total}` : '-'} (a valid request built from the target's data answered 2xx and judged)</summary><table><thead><tr><th>document</th><th>operation</th><th>confirmed</th><th>positive</th><th>negative</th><th>rule checks</th><th>statuses seen</th><th>documented</th></tr></thead><tbody>${coverageRows}</tbody></table></details>`
    : '';
  const channelRows = (report.channels ?? [])
    .map(
      (c) =>
        `<tr class="${c.judged > 0 && c.failed === 0 ? 'yes' : 'no'}"><td><code>${esc(c.channel)}</code></td><td>${c.requirements}</td><td>${c.judged}${c.notJudged ? ` <span class="ids">${esc(c.notJudged)}</span>` : ''}</td><td>${c.passed}</td><td>${c.failed}</td><td>${esc(c.statusesSeen.join(', ') || '-')}</td></tr>`,
    )
    .join('');
  const channels = channelRows
    ? `<details class="coverage"><summary>WebSocket channels: ${(report.channels ?? []).filter((c) => c.judged > 0).length} of ${report.channels!.length} judged</summary><table><thead><tr><th>channel</th><th>requirements</th><th>judged</th><th>passed</th><th>failed</th><th>upgrades seen</th></tr></thead><tbody>${channelRows}</tbody></table></details>`
    : '';
  const createdItems = report.requirements.flatMap((r) => (r.created ?? []).map((c) => `<li><code>${esc(r.id)}</code>: ${esc(c)}</li>`));
  const created = createdItems.length
    ? `<details class="created"><summary>what the run created on the target (${createdItems.length})</summary><ul>${createdItems.join('')}</ul></details>`
    : '';
  const sorted = [...report.requirements].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || a.id.localeCompare(b.id));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cn-conformance report: ${verdict}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{margin:0 0 4px;font-size:20px} .verdict{font-weight:700;color:${VERDICT_COLORS[report.verdict]}} .judged{font-weight:600} .ids{color:#666;font-size:12px}
main{padding:16px 24px;max-width:1200px} .bar{display:flex;align-items:center;gap:10px;margin:3px 0}
.bar .label{width:70px;text-align:right;font-weight:600} .bar svg{background:#eee;border-radius:3px} .nums{color:#555}
.filters{margin:16px 0;display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.filters button{border:1px solid #bbb;background:#fff;padding:4px 10px;border-radius:14px;cursor:pointer}
.filters button.on{background:#222;color:#fff;border-color:#222} .filters input{padding:4px 8px;min-width:260px}
details.req{background:#fff;border:1px solid #ddd;border-left:5px solid #999;margin:6px 0;border-radius:4px}
details.req.failed{border-left-color:${COLORS.failed}} details.req.passed{border-left-color:${COLORS.passed}}
details.req.waived{border-left-color:${COLORS.waived}} summary{padding:6px 10px;cursor:pointer}
.badge{display:inline-block;min-width:56px;text-align:center;color:#fff;border-radius:3px;padding:0 4px;font-size:12px}
.badge.passed{background:${COLORS.passed}} .badge.failed{background:${COLORS.failed}} .badge.skipped{background:${COLORS.skipped}} .badge.waived{background:${COLORS.waived}} .badge.error{background:${COLORS.error}}
details.req.error{border-left-color:${COLORS.error}} .badge.unsupported{background:${COLORS.unsupported}} details.req.unsupported{border-left-color:${COLORS.unsupported}} .badge.not-applicable{background:${COLORS['not-applicable']}} details.req.not-applicable{border-left-color:${COLORS['not-applicable']}} .badge.warning{background:#b26a00}
.level,.iface,.mut{font-size:12px;color:#555;border:1px solid #ccc;border-radius:3px;padding:0 4px} .mut{color:#8a4b00}
.body{padding:0 14px 10px} blockquote{margin:6px 0;padding-left:10px;border-left:3px solid #ccc;color:#333}
.meta{color:#666;font-size:12px} .reason{margin:6px 0;font-weight:600} .depends{margin:6px 0;color:${COLORS.failed}}
pre{background:#f4f4f4;padding:8px;overflow:auto;max-height:240px;white-space:pre-wrap;word-break:break-all} .curl{background:#1e1e1e;color:#eee}
pre.json{max-height:none} pre.head{margin-bottom:0} details.fold{margin:0 0 1em} details.fold summary{padding:2px 8px;font-size:12px;color:#555;background:#eee} details.fold pre{margin-top:0}
table{border-collapse:collapse;margin:4px 0} td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top;font-size:12px;word-break:break-all}
.hidden{display:none} ul{margin:4px 0 0 18px;padding:0} .coverage tr.no td:nth-child(3){color:${COLORS.failed}} .coverage tr.yes td:nth-child(3){color:${COLORS.passed}}
</style></head>
<body>
<header><h1>cn-conformance <span class="verdict">${verdict}</span></h1>
<div class="judged">${esc(judged)}</div>${why ? `<ul class="why">${why}</ul>` : ''}${depends}${skips}${unsupported}${inapplicable}
<div>${esc(report.tool.name)} ${esc(report.tool.version)} · ${esc(report.startedAt)} → ${esc(report.finishedAt)} · seed ${report.seed}</div>${
    report.releases?.length ? `\n<div class="releases">releases the nodes state: ${esc(releasesLine(report.releases))}</div>` : ''
  }${
    report.exchanges
      ? `\n<div class="har">every exchange of the run: <a href="${esc(encodeURI(report.exchanges.har))}">${esc(report.exchanges.har)}</a> (HAR 1.2, ${report.exchanges.entries} entries; opens in a browser's network panel)</div>`
      : ''
  }
${coverage}${channels}${created}${fixtures}
<details><summary>targets, documents and configuration</summary><ul>${targets}</ul><ul>${specs}</ul><pre>${esc(JSON.stringify(report.config, null, 2))}</pre></details>
</header>
<main>
<section aria-label="summary">${bars}</section>
<div class="filters" role="toolbar">
<button data-filter="all" class="on">all (${s.total})</button><button data-filter="failed">failed (${s.failed})</button>
<button data-filter="skipped">skipped (${s.skipped})</button>${s.unsupported ? `<button data-filter="unsupported">unsupported (${s.unsupported})</button>` : ''}${s.notApplicable ? `<button data-filter="not-applicable">not applicable (${s.notApplicable})</button>` : ''}${s.error ? `<button data-filter="error">error (${s.error})</button>` : ''}<button data-filter="waived">waived (${s.waived})</button><button data-filter="passed">passed (${s.passed})</button>
<input type="search" placeholder="filter by id, rule or operation" aria-label="search">
</div>
<section id="requirements">
${sorted.map((r) => row(r, report.exchanges)).join('\n')}
</section>
</main>
<script>
(function(){var f='all',q='';var rows=[].slice.call(document.querySelectorAll('details.req'));
function apply(){rows.forEach(function(r){var ok=(f==='all'||r.dataset.status===f)&&(!q||r.dataset.text.indexOf(q)>=0);r.classList.toggle('hidden',!ok);});}
[].slice.call(document.querySelectorAll('.filters button')).forEach(function(b){b.addEventListener('click',function(){f=b.dataset.filter;
[].slice.call(document.querySelectorAll('.filters button')).forEach(function(x){x.classList.toggle('on',x===b);});apply();});});
document.querySelector('.filters input').addEventListener('input',function(e){q=e.target.value.toLowerCase();apply();});})();
</script>
</body></html>
`;
}
