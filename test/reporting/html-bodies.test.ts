// report.html shows JSON bodies of the evidence laid out (2-space indentation), every token as the node sent
// it; a long one folds after its first lines into a <details> that says how many lines it holds, with all
// of them still in the page; a body that is not JSON is shown as it came; and escaping holds throughout.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../reporting/html.ts';
import { EXCERPT_BYTES } from '../../engine/transport/bounds.ts';
import type { ExchangeSummary } from '../../engine/transport/evidence.ts';
import { sampleReport } from '../support/sample-report.ts';

/** The page for one failed requirement whose evidence sent `request` and got `response` (JSON unless said). */
function page(response: string, request?: string, contentType = 'application/json'): string {
  const report = sampleReport();
  const failed = report.requirements.find((r) => r.status === 'failed')!;
  const exchange: ExchangeSummary = {
    request: { method: 'POST', url: 'http://127.0.0.1:1/api/scan/v0/events', headers: {}, ...(request === undefined ? {} : { body: request }) },
    response: { status: 200, headers: { 'content-type': contentType }, bodyExcerpt: response, bodyBytes: Buffer.byteLength(response) + 1 },
    curl: "curl -sS -X POST 'http://127.0.0.1:1/api/scan/v0/events'",
    durationMs: 1,
  };
  failed.evidence = { exchange };
  // Only this requirement's evidence is in the page.
  return renderHtml({ ...report, requirements: [failed] });
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The text of every <pre> of the evidence with `cls` in its class, unescaped. */
const pres = (html: string, cls: string) =>
  [...html.matchAll(new RegExp(`<pre class="[^"]*\\b${cls}\\b[^"]*">([\\s\\S]*?)</pre>`, 'g'))].map((m) => unescapeHtml(m[1]!));

describe('JSON bodies in report.html', () => {
  it('are laid out with 2-space indentation, every token as sent, and escaped (</script>, <, &)', () => {
    const body = '{"note":"</script><script>alert(1)</script> a < b & c","big":9007199254740993,"e":"\\u00e9","list":[1,{"k":null}],"none":{}}';
    const html = page(body, '{"page_size":10,"after":{"after_migration_id":0}}');
    expect(pres(html, 'json')).toEqual([
      '{\n  "page_size": 10,\n  "after": {\n    "after_migration_id": 0\n  }\n}',
      '{\n  "note": "</script><script>alert(1)</script> a < b & c",\n  "big": 9007199254740993,\n  "e": "\\u00e9",\n  "list": [\n    1,\n    {\n      "k": null\n    }\n  ],\n  "none": {}\n}',
    ]);
    // The body's markup is text: the page's only script is its own.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).not.toContain('</script><script>alert');
    expect(html).toContain('&quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; a &lt; b &amp; c&quot;');
  });

  it('fold beyond a few screens: the first lines shown, the summary saying how many, every line in the page', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ id: `item-${i}`, amount: `${i}.5`, flag: i % 2 === 0 }));
    const body = JSON.stringify({ items, next_page_token: 40 });
    const html = page(body);
    const laid = JSON.stringify(JSON.parse(body), null, 2);
    const lines = laid.split('\n').length;
    expect(lines).toBeGreaterThan(60);
    const [head] = pres(html, 'head');
    const [rest] = pres(html, 'rest');
    expect(head!.split('\n')).toHaveLength(20);
    expect(html).toContain(`<summary>${lines - 20} more lines (${lines} in all)</summary>`);
    expect(html).toMatch(/<\/pre><details class="fold"><summary>/);
    // Nothing lost: the two parts are the whole body, laid out.
    expect(`${head}\n${rest}`).toBe(laid);
  });

  it('a short one is shown whole, unfolded', () => {
    const html = page(JSON.stringify({ items: Array.from({ length: 10 }, (_, i) => i) }));
    expect(html).not.toContain('class="fold"');
    expect(pres(html, 'json')[0]!.split('\n')).toHaveLength(14);
  });

  it('an excerpt cut at its bound is laid out as far as it goes, nothing added', () => {
    const full = JSON.stringify({ transactions: Array.from({ length: 200 }, (_, i) => ({ update_id: `1220${i}`, record_time: '2025-01-06T09:00:01Z' })) });
    const cut = full.slice(0, EXCERPT_BYTES);
    const html = page(cut);
    const shown = [...pres(html, 'head'), ...pres(html, 'rest')].join('\n');
    expect(shown.startsWith('{\n  "transactions": [\n    {\n      "update_id": "12200",')).toBe(true);
    // Only whitespace between tokens differs from the excerpt.
    expect(shown.replace(/\n */g, '').replace(/": /g, '":')).toBe(cut);
  });

  it('that are not JSON stay as they came: text, HTML, JSON with an error, a lone scalar', () => {
    for (const body of [
      '<html><body>Service <b>unavailable</b></body></html>',
      '{"entries":[{},{}',
      '{"a":1}}',
      '{"a":01}',
      '"just a string"',
      '  spaced\n  text  ',
    ]) {
      const html = page(body, undefined, 'text/plain');
      expect(html, body).toContain(
        `(${Buffer.byteLength(body) + 1} bytes)</div><pre>${body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</pre>`,
      );
      expect(html, body).not.toContain('class="json');
    }
  });
});
