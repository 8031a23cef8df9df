/**
 * SHA-1 for isomorphic-git inside the function bundles, from node:crypto: the bundles substitute
 * it for `sha.js/sha1.js` (lib/bundling.ts). isomorphic-git only does `new Hash()`, `update(data)`
 * and `digest()` / `digest('hex')`, which node:crypto's Hash does alike; sha.js would bring a chain
 * of polyfills (to-buffer, get-intrinsic, …) whose evaluation costs every git worker's cold start.
 */
import { createHash, type Hash } from 'node:crypto';

export default function Sha1(): Hash {
  return createHash('sha1');
}
