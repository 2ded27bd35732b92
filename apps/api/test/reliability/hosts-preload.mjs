// Test harness only (NODE_OPTIONS=--import): resolves the names in PAGO_TEST_HOSTS ("name=address,…") to those
// addresses, as an /etc/hosts line would, so that a production-mode process reaches a simulator under a name of
// its own instead of a loopback address, which production refuses.
import dns from 'node:dns';

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
  process.nextTick(() => (all ? done(null, [{ address, family: 4 }]) : done(null, address, 4)));
  return {};
};
