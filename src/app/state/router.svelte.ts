import { getContext, setContext } from 'svelte';
import { parseHash, routeHref, type Route } from './route.ts';

/** Hash routing: the URL hash is the source of truth, so back/forward and reload keep the page. */
export class Router {
  route = $state<Route>({ page: 'ask' });

  constructor(target: Window) {
    this.route = parseHash(target.location.hash);
    target.addEventListener('hashchange', () => {
      this.route = parseHash(target.location.hash);
    });
  }

  go(route: Route): void {
    location.hash = routeHref(route);
  }
}

const KEY = Symbol('router');
export const setRouter = (router: Router): Router => setContext(KEY, router);
export const useRouter = (): Router => getContext<Router>(KEY);
