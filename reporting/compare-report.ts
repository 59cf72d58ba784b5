// The files of a comparison's report directory: compare.json (the result, its differences grouped by cause),
// junit.xml (one test case per read, failed when the nodes' answers differ) and compare.html (the causes,
// then the differences read by read). Every file passes the run's scrubber: no token a node echoed is written.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompareResult } from '../runner/compare/compare.ts';
import { answerLines, causeTitle, differenceLines, firstRead, occurrenceLines, readLine, shownValue } from './compare-causes.ts';
import { esc } from './junit.ts';
import { ReportWriteError } from './write-reports.ts';

export function renderCompareJunit(r: CompareResult): string {
  const cases = r.reads.map((o) => {
    const name = esc(`${readLine(o)}${o.read.body === undefined ? '' : ` ${JSON.stringify(o.read.body)}`}`);
    const failure = !o.compared
      ? `<skipped message="${esc(o.note ?? 'not compared')}"/>`
      : o.equal
        ? ''
        : `<failure message="${esc(`${o.differences.length} difference(s)`)}">${esc([...differenceLines(o), ...answerLines(o)].join('\n'))}</failure>`;
    return `  <testcase classname="compare.${o.read.interface}" name="${name}">${failure}${o.note ? `<system-out>${esc([o.note, ...(o.compared ? [] : answerLines(o))].join('\n'))}</system-out>` : ''}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cn-conformance compare" tests="${r.summary.reads}" failures="${r.summary.divergent}" skipped="${r.summary.notCompared}">`,
    `<testsuite name="compare" tests="${r.summary.reads}" failures="${r.summary.divergent}" skipped="${r.summary.notCompared}">`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function renderCompareHtml(r: CompareResult): string {
  const nodes = (['a', 'b'] as const).map((k) => `<li>${k.toUpperCase()}: ${esc(Object.values(r.nodes[k]).join(', '))}</li>`).join('');
  const reads = [...r.reads]
    .sort((x, y) => Number(x.equal) - Number(y.equal))
    .map((o) => {
      const rows = o.differences
        .map(
          (d) =>
            `<tr><td><code>${esc(d.pointer || '(whole answer)')}</code></td><td>${esc(d.kind)}</td><td><code>${esc(shownValue(d.a))}</code></td><td><code>${esc(shownValue(d.b))}</code></td></tr>`,
        )
        .join('');
      const body = o.read.body === undefined ? '' : `<pre>${esc(JSON.stringify(o.read.body, null, 1))}</pre>`;
      const answers = o.answers ? `<pre class="answers">${esc(answerLines(o).join('\n'))}</pre>` : '';
      const table = rows ? `<table><thead><tr><th>pointer</th><th>kind</th><th>A</th><th>B</th></tr></thead><tbody>${rows}</tbody></table>` : '';
      const state = !o.compared ? 'not compared' : o.equal ? 'equal' : `${o.differences.length} difference(s)`;
      return `<details class="${!o.compared ? 'unread' : o.equal ? 'equal' : 'divergent'}"${o.equal ? '' : ' open'}><summary><b>${state}</b> <code>${esc(readLine(o))}</code> ${esc(o.read.what)} (HTTP ${o.status.a}/${o.status.b}, pages ${o.pages.a}/${o.pages.b})</summary>${body}${o.note ? `<p>${esc(o.note)}</p>` : ''}${answers}${table}${o.truncated ? '<p>more differences not listed</p>' : ''}</details>`;
    })
    .join('\n');
  const causes = r.causes
    .map((c) => {
      const first = firstRead(r, c);
      const answers = c.kind === 'status' && first?.answers ? `<pre class="answers">${esc(answerLines(first).join('\n'))}</pre>` : '';
      const where = occurrenceLines(r, c)
        .map((l) => `<li><code>${esc(l)}</code></li>`)
        .join('');
      return `<details class="divergent" open><summary>${esc(causeTitle(c))}</summary>${answers}<ul>${where}</ul></details>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cn-conformance compare: ${r.verdict}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222} details{border:1px solid #ddd;border-left:5px solid #2e7d32;margin:6px 0;padding:4px 8px}
details.divergent{border-left-color:#c62828} table{border-collapse:collapse} td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top} code{word-break:break-all}
pre.answers{background:#f4f4f4;padding:6px;white-space:pre-wrap;word-break:break-all}</style></head>
<body><h1>Nodes ${r.verdict}</h1><p>${r.summary.equal} of ${r.summary.reads} reads equal, ${r.summary.divergent} divergent, ${r.summary.notCompared} not compared, ${r.summary.differences} difference(s) listed, of ${r.summary.causes} cause(s). Offsets, page tokens and download URLs are each node's own and never compared.</p>
<ul>${nodes}</ul>
${causes ? `<h2>Causes (${r.causes.length})</h2>\n${causes}\n<h2>Reads</h2>\n` : ''}${reads}
</body></html>
`;
}

/** Writes compare.json, junit.xml and compare.html, each through `scrub`; returns the JSON file. */
export async function writeCompareReports(dir: string, r: CompareResult, scrub: (text: string) => string = (t) => t): Promise<string> {
  const file = join(dir, 'compare.json');
  try {
    await writeFile(file, `${scrub(JSON.stringify(r, null, 2))}\n`);
    await writeFile(join(dir, 'junit.xml'), scrub(renderCompareJunit(r)));
    await writeFile(join(dir, 'compare.html'), scrub(renderCompareHtml(r)));
  } catch (error) {
    throw new ReportWriteError(`cannot write the reports to ${dir}: ${(error as Error).message}`);
  }
  return file;
}
