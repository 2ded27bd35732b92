import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollEvery } from './poll-every';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pollEvery', () => {
  it('runs at once, then one interval after each answer, while the step says so', async () => {
    const answers = [true, true, false];
    const step = vi.fn(async () => answers.shift() ?? false);
    pollEvery(1_000, step);
    await vi.advanceTimersByTimeAsync(0);
    expect(step).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(step).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(step).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(step).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(step).toHaveBeenCalledTimes(3);
  });

  it('never has two calls in flight: the interval counts from the answer', async () => {
    let inFlight = 0;
    let most = 0;
    const step = vi.fn(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      inFlight -= 1;
      return true;
    });
    const stop = pollEvery(1_000, step);
    await vi.advanceTimersByTimeAsync(7_000);
    stop();
    expect(most).toBe(1);
    // 0–2.5 s, 3.5–6 s, then the third starts at 7 s.
    expect(step).toHaveBeenCalledTimes(3);
  });

  it('stop() ends it, and active() tells a late answer it is no longer wanted', async () => {
    let release: (value: boolean) => void = () => undefined;
    const seen: boolean[] = [];
    const step = vi.fn(
      (active: () => boolean) =>
        new Promise<boolean>((resolve) => {
          release = (value) => {
            seen.push(active());
            resolve(value);
          };
        }),
    );
    const stop = pollEvery(1_000, step);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    release(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(seen).toEqual([false]);
    expect(step).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a step that throws ends the polling', async () => {
    const step = vi.fn(async () => {
      throw new Error('boom');
    });
    pollEvery(1_000, step);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(step).toHaveBeenCalledTimes(1);
  });
});
