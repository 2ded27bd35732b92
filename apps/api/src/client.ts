import type { FastifyInstance } from 'fastify';
import { Address6 } from 'ip-address';
import { isIPv6 } from 'node:net';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, as every guard and limit counts them (clientOf of the address behind TRUST_PROXY). */
    readonly client: string;
  }
}

/**
 * The one notion of a client: an IPv4 address, or the IPv6 network of `ipv6Prefix` bits around an IPv6 address (a
 * home or a phone gets a whole /64, so one address each would let a single subscriber be a thousand clients). An
 * IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 address.
 */
export function clientOf(ip: string, ipv6Prefix: number): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const address = new Address6(ip);
  if (address.isMapped4()) return address.to4().correctForm();
  if (ipv6Prefix >= 128) return address.correctForm();
  return `${new Address6(`${address.correctForm()}/${ipv6Prefix}`).startAddress().correctForm()}/${ipv6Prefix}`;
}

/** Gives every request its `client`, read from the address Fastify resolved behind the trusted proxies. */
export function registerClient(app: FastifyInstance, ipv6Prefix: number): void {
  app.decorateRequest('client', {
    getter(this: { ip: string }) {
      return clientOf(this.ip, ipv6Prefix);
    },
  });
}
