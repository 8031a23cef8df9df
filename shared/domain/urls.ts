/** URLs as they may be shown. */

// Userinfo runs up to the last `@` before the path, query or fragment starts (as in WHATWG).
const userinfo = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/?#\\]*@/;

/** The url as the user wrote it, minus userinfo: for logs and entities, where credentials must not show. */
export function displayUrl(url: string): string {
  return url.replace(userinfo, '$1');
}
