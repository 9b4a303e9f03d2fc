/**
 * Whether a link in a reply is a path in this app (followed by the router, in the same tab):
 * one leading slash, and not `//host` or `/\host`, which browsers read as another host.
 */
export function isAppPath(href: string): boolean {
  return /^\/(?![/\\])/.test(href);
}
