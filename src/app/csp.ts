/**
 * Runs before the app (index.html loads it first; its module graph is evaluated before main.ts's): adds
 * the Content-Security-Policy's connect-src, built from the fixed hosts and the origins the stored pool
 * and settings name. index.html's own policy sets every other directive and leaves connect-src to this
 * one; a meta policy can only narrow what is allowed, so the two together allow exactly this list. If
 * this module fails, the app's entry fails with it: the app never runs without the policy.
 */
import { chosenUrls, connectSrcDirective, DEV_CONNECT_SOURCES, extraOrigins, loadPool, loadSettings } from './state/index.ts';

/** The origins beyond the fixed hosts that this page load may reach; another needs a reload. */
export const allowedAtLoad: readonly string[] = Object.freeze(extraOrigins(chosenUrls(loadPool(), loadSettings().conductor)));

const meta = document.createElement('meta');
meta.httpEquiv = 'Content-Security-Policy';
// import.meta.hot exists only under Vite's dev server (import.meta.env.DEV is also true in test builds).
meta.content = connectSrcDirective(allowedAtLoad, import.meta.hot ? DEV_CONNECT_SOURCES : []);
document.head.append(meta);
