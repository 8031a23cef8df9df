/**
 * Preloaded (`node --import`) into every B2 import probe: records any attempt to open a network
 * connection or resolve a name while the bundle is imported. Nothing is blocked, only reported.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

const calls = [];
globalThis.__benchSocketCalls = calls;

function wrap(target, key, label) {
  const original = target[key];
  if (typeof original !== 'function') return;
  target[key] = function benchRecorded(...args) {
    const stack = (new Error().stack ?? '').split('\n').slice(2, 6).join(' | ');
    calls.push({ call: label, stack });
    return original.apply(this, args);
  };
}

wrap(net.Socket.prototype, 'connect', 'net.Socket#connect');
wrap(net, 'connect', 'net.connect');
wrap(net, 'createConnection', 'net.createConnection');
wrap(tls, 'connect', 'tls.connect');
wrap(dns, 'lookup', 'dns.lookup');
wrap(dns.promises, 'lookup', 'dns.promises.lookup');
// fetch connects through Node's internal undici, later than the import returns: count the call.
wrap(globalThis, 'fetch', 'fetch');
// ESM named imports of builtins (`import { connect } from 'node:net'`) see the patched functions too.
syncBuiltinESMExports();
