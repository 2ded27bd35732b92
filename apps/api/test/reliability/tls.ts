import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';

export interface Certificate {
  keyFile: string;
  /** Self-signed: also the authority a client trusts it by (NODE_EXTRA_CA_CERTS). */
  certFile: string;
}

/**
 * A certificate for `host`, made for this run with openssl in `dir`. With `preload` (libfaketime, the API's clock),
 * openssl runs a day back, so the certificate is valid from a day ago for three days: the API's faked clock (today's
 * business noon) may be earlier than now, and the harness checks at the real one.
 */
export function makeCertificate(host: string, dir: string, preload?: string): Certificate {
  const keyFile = join(dir, `${host}.key.pem`);
  const certFile = join(dir, `${host}.cert.pem`);
  const dayBack = preload ? { LD_PRELOAD: preload, FAKETIME: '-1d', FAKETIME_DONT_FAKE_MONOTONIC: '1' } : {};
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '3', '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`], {
    stdio: 'ignore',
    env: { ...process.env, ...dayBack },
  });
  return { keyFile, certFile };
}

/**
 * This machine's first IPv4 address on a network (not loopback, not link-local): production refuses a core on
 * either, so the harness's core answers here. Undefined on a machine with no network.
 */
export function machineAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return addresses.find((a) => a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.'))?.address;
}

export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

/**
 * TLS in front of a plain-HTTP server, as a reverse proxy before a real core terminates it: listens on `address`
 * with the certificate and passes each connection's bytes to the target.
 */
export async function startTlsFront(options: { address: string; certificate: Certificate; target: { host: string; port: number } }): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer({ key: readFileSync(options.certificate.keyFile), cert: readFileSync(options.certificate.certFile) }, (client) => {
    const upstream = connect(options.target.port, options.target.host);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.address, () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
