import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactUrl, Scrubber, urlSecrets } from '../../runner/redaction.ts';
import { secretWithSource as secret } from '../../cli/secrets.ts';
import { originFor } from '../../engine/target.ts';
import { curlLine, redactHeaders } from '../../engine/transport/redaction.ts';

describe('credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cn-secret-'));
  const file = join(dir, 'token');
  writeFileSync(file, '  file-token\n');

  it('come from the flag first, then the file, then the environment', () => {
    const env = { CN_X: 'env-token' };
    expect(secret({ value: 'flag-token', name: '--t' }, { path: file, name: '--t-file' }, 'CN_X', env)).toEqual({ value: 'flag-token', from: '--t' });
    expect(secret({ name: '--t' }, { path: file, name: '--t-file' }, 'CN_X', env)).toEqual({ value: 'file-token', from: `--t-file ${file}` });
    expect(secret({ name: '--t' }, { name: '--t-file' }, 'CN_X', env)).toEqual({ value: 'env-token', from: 'the environment variable CN_X' });
    expect(secret({ name: '--t' }, undefined, 'CN_X', {})).toBeUndefined();
  });

  it('an unreadable or empty token file is a usage error naming the flag', () => {
    expect(() => secret({ name: '--t' }, { path: join(dir, 'nope'), name: '--t-file' }, 'CN_X', {})).toThrow(/--t-file: cannot read .*nope/);
    writeFileSync(join(dir, 'empty'), '\n');
    expect(() => secret({ name: '--t' }, { path: join(dir, 'empty'), name: '--t-file' }, 'CN_X', {})).toThrow(/the file is empty/);
  });

  it('never appear in evidence: headers and curl lines are redacted', () => {
    const headers = { authorization: 'Bearer s3cr3t', 'sec-websocket-protocol': 'jwt.token.s3cr3t', 'content-type': 'application/json' };
    expect(JSON.stringify(redactHeaders(headers))).not.toContain('s3cr3t');
    expect(curlLine({ method: 'POST', url: 'http://x/v2/updates', requestHeaders: headers, requestBody: '{}' })).toBe(
      "curl -sS -X POST 'http://x/v2/updates' -H 'authorization: Bearer ***' -H 'sec-websocket-protocol: ***' -H 'content-type: application/json' --data-raw '{}'",
    );
  });
});

describe('base URLs', () => {
  it('are accepted with or without the interface prefix', () => {
    expect(originFor('scan', 'https://scan.example.com/api/scan')).toBe('https://scan.example.com');
    expect(originFor('scan', 'https://scan.example.com/api/scan/')).toBe('https://scan.example.com');
    expect(originFor('scan', 'https://scan.example.com')).toBe('https://scan.example.com');
    expect(originFor('wallet', 'http://node:5003/api/validator')).toBe('http://node:5003');
    expect(originFor('wallet', 'http://node:5003/base/api/validator')).toBe('http://node:5003/base');
    expect(originFor('ledger', 'http://node:7575/')).toBe('http://node:7575');
  });
});

describe('secrets in URLs', () => {
  it('are masked wherever a URL is shown: user info and query values whose names suggest a secret', () => {
    expect(redactUrl('https://user:password@scan.example.com/api/scan')).toBe('https://***:***@scan.example.com/api/scan');
    expect(redactUrl('https://tok3n@scan.example.com')).toBe('https://***@scan.example.com/');
    expect(redactUrl('https://scan.example.com/api/scan?apikey=abc&page=2&access_token=x&Signature=y')).toBe(
      'https://scan.example.com/api/scan?apikey=***&page=2&access_token=***&Signature=***',
    );
    // Nothing to hide: shown exactly as typed.
    expect(redactUrl('http://127.0.0.1:7575')).toBe('http://127.0.0.1:7575');
    expect(redactUrl('scan=https://u:p@host/scan.yaml')).toBe('scan=https://***@host/scan.yaml');
  });

  it('are scrubbed from any text, also as JSON and HTML quote them', () => {
    const s = new Scrubber([...urlSecrets('https://operator:pa"ss<word@h/?token=t0k3n-value'), 'eyJ.a.b-token', undefined, 'abc']);
    expect(s.scrub('pa"ss<word t0k3n-value eyJ.a.b-token abc operator')).toBe('*** *** *** abc operator');
    expect(s.scrub(JSON.stringify({ x: 'pa"ss<word' }))).toBe('{"x":"***"}');
    expect(s.scrub('pa&quot;ss&lt;word')).toBe('***');
  });
});
