/**
 * The page's second Content-Security-Policy, applied by the app's entry before the app starts: its
 * connect-src lists the fixed hosts and the origins the stored pool and settings name. index.html's own
 * policy sets every other directive and leaves connect-src to this one; a meta policy can only narrow
 * what is allowed, so the two together allow exactly this list.
 */
import { connectSrcDirective, DEV_CONNECT_SOURCES } from './state/index.ts';

export function applyConnectPolicy(allowed: readonly string[]): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  // import.meta.hot exists only under Vite's dev server (import.meta.env.DEV is also true in test builds).
  meta.content = connectSrcDirective(allowed, import.meta.hot ? DEV_CONNECT_SOURCES : []);
  document.head.append(meta);
}
