import { expect, test } from 'vitest';
import { pageTitle, parseHash, routeHref } from '../../../../src/app/state/route.ts';

test('hashes name pages and an optional parameter', () => {
  expect(parseHash('')).toEqual({ page: 'ask' });
  expect(parseHash('#/workers')).toEqual({ page: 'workers' });
  expect(parseHash('#/episodes/')).toEqual({ page: 'episodes' });
  expect(parseHash('#/episodes/ep%2F1')).toEqual({ page: 'episodes', param: 'ep/1' });
  expect(parseHash('#/nowhere')).toEqual({ page: 'ask' });
});

test("a query after '?' filters a page: the Episodes page by evaluation", () => {
  expect(parseHash('#/episodes?evaluation=ab12')).toEqual({ page: 'episodes', query: { evaluation: 'ab12' } });
  expect(parseHash('#/episodes/?evaluation=ab12')).toEqual({ page: 'episodes', query: { evaluation: 'ab12' } });
  expect(parseHash('#/episodes?')).toEqual({ page: 'episodes' });
  expect(routeHref({ page: 'episodes', query: { evaluation: 'a&b c' } })).toBe('#/episodes?evaluation=a%26b+c');
});

test('routeHref and parseHash round-trip', () => {
  for (const route of [
    { page: 'settings' as const },
    { page: 'episodes' as const, param: 'a b/c?' },
    { page: 'episodes' as const, query: { evaluation: 'x?y=z&w' } },
    { page: 'episodes' as const, param: 'ep/1', query: { evaluation: 'e' } },
  ]) {
    expect(parseHash(routeHref(route))).toEqual(route);
  }
});

test('each page has its own document title, an episode its own', () => {
  expect(['ask', 'workers', 'conductor', 'train', 'evaluate', 'episodes', 'settings'].map((page) => pageTitle(parseHash(`#/${page}`)))).toEqual([
    'Ask · Baton',
    'Workers · Baton',
    'Conductor · Baton',
    'Train · Baton',
    'Evaluate · Baton',
    'Episodes · Baton',
    'Settings · Baton',
  ]);
  expect(pageTitle({ page: 'episodes', param: 'ep-1' })).toBe('Episode · Baton');
});
