/**
 * Whether a route belongs to the API: decided once, when the route is declared (its path as
 * declared, prefix included), so that a request pays nothing to know it.
 */
export function isApiRoute(url: string): boolean {
  return url === '/api' || url.startsWith('/api/');
}

/** An absolute-form request target's scheme and authority (`http://host:port`), as the router skips them. */
const ORIGIN = /^https?:\/\/[^/?#]*/i;

/**
 * Whether a request that matched no route was meant for the API, read as the router reads its
 * path: an absolute-form target's origin skipped (`GET http://x/api/user`), the query and fragment
 * cut off, percent-encodings decoded (`/%61pi/user`). Only for requests no route answered; a
 * routed request knows from its route (`isApiRoute`).
 */
export function isApiPath(rawUrl: string): boolean {
  let path = rawUrl;
  if (path.charCodeAt(0) !== 47 /* '/' */) {
    const origin = ORIGIN.exec(path);
    if (origin) path = path.slice(origin[0].length);
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape decodes to nothing: the path is judged as written.
  }
  return isApiRoute(path);
}
