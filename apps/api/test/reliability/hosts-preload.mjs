// Test harness only (NODE_OPTIONS=--import): resolves the names in PAGO_TEST_HOSTS ("name=address,…") to those
// addresses, as an /etc/hosts line would, so that a production-mode process reaches a simulator under a name of
// its own instead of a loopback address, which production refuses. Both lookups are answered: the callback one
// (connections) and the promise one (the boot's check of where the core's name leads).
import dns from 'node:dns';
import { isIP } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

const hosts = new Map(
  (process.env.PAGO_TEST_HOSTS ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => entry.split('=')),
);
const realLookup = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const address = hosts.get(hostname);
  if (address === undefined) return realLookup.call(this, hostname, options, callback);
  const done = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options !== null && options.all === true;
  const family = isIP(address);
  process.nextTick(() => (all ? done(null, [{ address, family }]) : done(null, address, family)));
  return {};
};
const realPromiseLookup = dns.promises.lookup;
dns.promises.lookup = async function lookup(hostname, options) {
  const address = hosts.get(hostname);
  if (address === undefined) return realPromiseLookup.call(this, hostname, options);
  const family = isIP(address);
  return typeof options === 'object' && options !== null && options.all === true ? [{ address, family }] : { address, family };
};
// `import { lookup } from 'node:dns/promises'` reads the patched function only once the named exports are synced.
syncBuiltinESMExports();
