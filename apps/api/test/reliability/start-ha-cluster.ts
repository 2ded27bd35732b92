// npm run ha:cluster: the three-node cluster of the high-availability test (Patroni, etcd, HAProxy, pgBackRest) in a
// private directory, until Ctrl-C; the API runs on it with DATABASE_URL set to the address it prints.
import { haMissing, startHaCluster } from './ha-cluster';

const missing = haMissing();
if (missing) {
  console.error(`cannot start the cluster: ${missing}`);
  process.exit(1);
}
const cluster = await startHaCluster();
console.log(`PostgreSQL through HAProxy: ${cluster.url}`);
console.log(`nodes: ${cluster.nodes.map((n) => `${n.name} (PostgreSQL ${n.pgPort}, Patroni ${n.restPort})`).join(', ')}`);
console.log(`roles: ${JSON.stringify(await cluster.roles())}; Ctrl-C stops it and deletes its files`);
const stop = () => void cluster.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
