import { describe, expect, it } from 'vitest';
import { buildPath, matchRoute, ROUTES } from '../../src/register/contract/routes';
import { isLatin1Text } from '../../src/register/contract/rules';

describe('foundation', () => {
  it('runs on Node 26 LTS, as the README says', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(26);
  });

  it('keeps reference-list slashes in the URL and matches them back', () => {
    const path = buildPath(ROUTES.referenceList, { path: 'lr/application/deed/type' });
    expect(path).toBe('/ref/lr/application/deed/type');
    const m = matchRoute('GET', path);
    expect(m.route?.name).toBe('referenceList');
  });

  it('fills every route’s parameters URL-encoded, in their places, and each path matches its route again', () => {
    for (const route of Object.values(ROUTES)) {
      const keys = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
      const params = Object.fromEntries(keys.map((k, i) => [k, `v${i} ?#%`]));
      const path = buildPath(route, params);
      expect(path).toBe(route.path.replace(/\{(\w+)\+?\}/g, (_, k: string) => encodeURIComponent(params[k]!)));
      expect(matchRoute(route.method, path).route?.name).toBe(route.name);
      if (keys.length > 0) expect(() => buildPath(route, {})).toThrow(`missing path parameter ${keys[0]} for route ${route.name}`);
    }
  });

  it('applies exactly the three Latin-1 ranges of the spec', () => {
    for (const ok of ['\u00A1', '\u00AC', '\u00AE', '\u00FF', 'a|b', ' ~']) expect(isLatin1Text(ok)).toBe(true);
    for (const bad of ['\u00A0', '\u00AD', '\u0100', '\u001F', '\u007F']) expect(isLatin1Text(bad)).toBe(false);
  });
});
