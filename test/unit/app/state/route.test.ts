import { expect, test } from 'vitest';
import { pageTitle, parseHash, routeHref } from '../../../../src/app/state/route.ts';

test('hashes name pages and an optional parameter', () => {
  expect(parseHash('')).toEqual({ page: 'ask' });
  expect(parseHash('#/workers')).toEqual({ page: 'workers' });
  expect(parseHash('#/episodes/')).toEqual({ page: 'episodes' });
  expect(parseHash('#/episodes/ep%2F1')).toEqual({ page: 'episodes', param: 'ep/1' });
  expect(parseHash('#/nowhere')).toEqual({ page: 'ask' });
});

test('routeHref and parseHash round-trip', () => {
  for (const route of [{ page: 'settings' as const }, { page: 'episodes' as const, param: 'a b/c?' }]) {
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
