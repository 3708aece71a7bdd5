import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs set-up script without types
import { isSupportedLts, pinnedNodeVersion } from '../../../../scripts/node-runtime.mjs';

describe('the Node.js runtime the two commands choose', () => {
  const day = new Date('2026-11-24T12:00:00Z');

  it('takes a maintained LTS line and refuses end-of-life or odd (non-LTS) lines', () => {
    expect(isSupportedLts('v24.11.0', day)).toBe(true);
    expect(isSupportedLts('22.20.0', day)).toBe(true);
    expect(isSupportedLts('v20.20.2', day)).toBe(false); // end of life on 2026-04-30
    expect(isSupportedLts('v25.1.0', day)).toBe(false);
    expect(isSupportedLts('v18.20.0', day)).toBe(false);
  });

  it('drops a line on its end-of-life day', () => {
    expect(isSupportedLts('v22.1.0', new Date('2027-04-29T23:00:00Z'))).toBe(true);
    expect(isSupportedLts('v22.1.0', new Date('2027-04-30T00:00:00Z'))).toBe(false);
  });

  it('pins a supported LTS, and the tests run on a supported one', () => {
    expect(isSupportedLts(pinnedNodeVersion, day)).toBe(true);
    expect(isSupportedLts(process.version)).toBe(true);
  });
});

describe('the Dockerfile', () => {
  it('uses the pinned Node.js version', async () => {
    const { readFileSync } = await import('node:fs');
    const dockerfile = readFileSync(new URL('../../../../Dockerfile', import.meta.url), 'utf8');
    expect(dockerfile).toMatch(new RegExp(`^FROM node:${pinnedNodeVersion.replace(/\./g, '\\.')}-bookworm`, 'm'));
  });
});
