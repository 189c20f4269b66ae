/** The app's pages and how a URL hash names one. Pure; tested by test/unit/app/state/route.test.ts. */

/** In nav order. */
export const PAGES = [
  { id: 'ask', title: 'Ask' },
  { id: 'workers', title: 'Workers' },
  { id: 'conductor', title: 'Conductor' },
  { id: 'train', title: 'Train' },
  { id: 'evaluate', title: 'Evaluate' },
  { id: 'episodes', title: 'Episodes' },
  { id: 'settings', title: 'Settings' },
] as const;

type PageId = (typeof PAGES)[number]['id'];

export interface Route {
  page: PageId;
  /** What follows the page in the hash, e.g. an episode id in `#/episodes/<id>`. */
  param?: string;
  /** What follows a `?`, e.g. the Episodes page's filter by evaluation in `#/episodes?evaluation=<id>`. */
  query?: Record<string, string>;
}

/** `#/episodes/abc` -> { page: 'episodes', param: 'abc' }; anything unknown is the Ask page. */
export function parseHash(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const mark = text.indexOf('?');
  const [page, ...rest] = (mark < 0 ? text : text.slice(0, mark)).split('/');
  const known = PAGES.find((p) => p.id === page);
  if (!known) return { page: 'ask' };
  const param = rest.length > 0 && rest[0] !== '' ? decodeURIComponent(rest.join('/')) : undefined;
  const query = mark < 0 ? {} : Object.fromEntries(new URLSearchParams(text.slice(mark + 1)));
  return { page: known.id, ...(param === undefined ? {} : { param }), ...(Object.keys(query).length ? { query } : {}) };
}

export function routeHref(route: Route): string {
  const query = route.query && Object.keys(route.query).length ? `?${new URLSearchParams(route.query)}` : '';
  return `#/${route.page}${route.param === undefined ? '' : `/${encodeURIComponent(route.param)}`}${query}`;
}

/** The document title for a route: the page first, so tabs and history tell pages apart. */
export function pageTitle(route: Route): string {
  const page = route.page === 'episodes' && route.param !== undefined ? 'Episode' : PAGES.find((p) => p.id === route.page)!.title;
  return `${page} · Baton`;
}
