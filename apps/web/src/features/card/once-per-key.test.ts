import { describe, expect, it, vi } from 'vitest';
import { oncePerKey } from './once-per-key';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('once per key (the double-submit guard)', () => {
  it('joins a second caller to the run under way for the same key', async () => {
    const once = oncePerKey<string>();
    const running = deferred<string>();
    const start = vi.fn(() => running.promise);
    const first = once('trx-1', start);
    const second = once('trx-1', start);
    expect(start).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    running.resolve('listo');
    expect(await Promise.all([first, second])).toEqual(['listo', 'listo']);
  });

  it('runs other keys on their own', () => {
    const once = oncePerKey<string>();
    const start = vi.fn(() => new Promise<string>(() => {}));
    void once('trx-1', start);
    void once('trx-2', start);
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('forgets a key once its run has settled, whether it succeeded or failed', async () => {
    const once = oncePerKey<string>();
    const start = vi.fn(async () => 'listo');
    await once('trx-1', start);
    await once('trx-1', start);
    expect(start).toHaveBeenCalledTimes(2);

    const failing = vi.fn(async () => {
      throw new Error('sin red');
    });
    await expect(once('trx-2', failing)).rejects.toThrow('sin red');
    await expect(once('trx-2', failing)).rejects.toThrow('sin red');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
