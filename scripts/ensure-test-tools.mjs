// The end-to-end tests drive Debian's Chromium, the scale-out test puts nginx in front of two API processes, the
// Redis outage test starts and stops a Redis server of its own, the production-mode test runs the API under
// libfaketime (and signs an operator in at an identity provider over TLS, openssl), the high-availability test runs
// Patroni, etcd, HAProxy and pgBackRest, and the alert rules' tests run promtool (Debian's prometheus package):
// install them with apt when they are missing (root on these machines).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = [
  { path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', pkg: 'chromium', env: 'CHROMIUM_PATH' },
  { path: process.env.NGINX_PATH ?? '/usr/sbin/nginx', pkg: 'nginx-light', env: 'NGINX_PATH' },
  { path: process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server', pkg: 'redis-server', env: 'REDIS_SERVER_PATH' },
  { path: process.env.FAKETIME_LIB ?? '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', pkg: 'faketime', env: 'FAKETIME_LIB' },
  // The high-availability test: three PostgreSQL nodes under Patroni and etcd, HAProxy in front.
  { path: '/usr/bin/patroni', pkg: 'patroni', env: 'PATH' },
  { path: '/usr/bin/etcd', pkg: 'etcd-server', env: 'PATH' },
  { path: '/usr/sbin/haproxy', pkg: 'haproxy', env: 'PATH' },
  { path: '/usr/bin/pgbackrest', pkg: 'pgbackrest', env: 'PATH' },
  // The production-mode test's identity provider speaks TLS with a certificate made for the run.
  { path: '/usr/bin/openssl', pkg: 'openssl', env: 'PATH' },
  // The alert rules (ops/prometheus): promtool checks and tests them.
  { path: process.env.PROMTOOL_PATH ?? '/usr/bin/promtool', pkg: 'prometheus', env: 'PROMTOOL_PATH' },
];
const missing = tools.filter((t) => !existsSync(t.path));
if (missing.length > 0) {
  const pkgs = missing.map((t) => t.pkg).join(' ');
  console.log(`${missing.map((t) => t.path).join(', ')} not found: installing ${pkgs}`);
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkgs}`, { stdio: 'inherit' });
  } catch {
    console.error(`Could not install ${pkgs}. Install them with apt-get (or set ${missing.map((t) => t.env).join(', ')}).`);
    process.exit(1);
  }
}
