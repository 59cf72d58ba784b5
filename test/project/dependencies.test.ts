// The Node version the project promises (package.json engines, the README) is one every installed package
// accepts: `npm ci` on that version must not warn about an engine.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

describe('dependencies', () => {
  const promised = semver.minVersion(read('package.json').engines.node)!.version;

  it('the README promises the Node version package.json declares', () => {
    const [major, minor] = promised.split('.');
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain(`Node ${major}.${minor} or newer`);
  });

  it(`every package of the lock file accepts Node ${'>='} the promised version`, () => {
    const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string }; optional?: boolean; os?: string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && typeof p.engines?.node === 'string' && !semver.satisfies(promised, p.engines.node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} wants node ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
