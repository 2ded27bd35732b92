import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientOf } from './client';

describe('clientOf: one client per IPv4 address or IPv6 network', () => {
  it('keeps an IPv4 address, also written as IPv6', () => {
    expect(clientOf('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(clientOf('::ffff:cb00:7107', 64)).toBe('203.0.113.7');
  });

  it('makes every address of one /64 the same client, and another /64 another', () => {
    expect(clientOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64)).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
    expect(clientOf('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1');
    expect(clientOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    const group = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(group, group, (a, b) => {
        const prefix = '2001:db8:aa:bb';
        const of = (host: number[]) => clientOf(`${prefix}:${host.map((n) => n.toString(16)).join(':')}`, 64);
        expect(of(a)).toBe(of(b));
      }),
    );
  });
});
