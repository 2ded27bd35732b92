import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, secondsUntil, useCountdown } from './use-countdown';

describe('formatCountdown', () => {
  it.each([
    [120, '2:00'],
    [119, '1:59'],
    [60, '1:00'],
    [59, '0:59'],
    [5, '0:05'],
    [0, '0:00'],
    [-3, '0:00'],
    [0.2, '0:01'],
    [600, '10:00'],
  ])('%d s is %s', (seconds, shown) => {
    expect(formatCountdown(seconds)).toBe(shown);
  });
});

describe('secondsUntil', () => {
  it('rounds up, so the last second shows until the deadline', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 1)).toBe(10);
    expect(secondsUntil(10_000, 9_001)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 20_000)).toBe(0);
  });
});

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down every second and calls onExpire once at the deadline', () => {
    const onExpire = vi.fn();
    const deadline = Date.now() + 120_000;
    const { result } = renderHook(() => useCountdown(deadline, onExpire));
    expect(result.current).toBe(120);
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(119);
    act(() => vi.advanceTimersByTime(58_000));
    expect(result.current).toBe(61);
    act(() => vi.advanceTimersByTime(60_999));
    expect(result.current).toBe(1);
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(0);
    expect(onExpire).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(10_000));
    expect(onExpire).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is null without a deadline and stops when the deadline goes away', () => {
    const onExpire = vi.fn();
    const { result, rerender } = renderHook(({ deadline }) => useCountdown(deadline, onExpire), {
      initialProps: { deadline: Date.now() + 5_000 as number | null },
    });
    expect(result.current).toBe(5);
    rerender({ deadline: null });
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(10_000));
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('keeps to the clock when ticks come late (a throttled background tab)', () => {
    const deadline = Date.now() + 120_000;
    const { result } = renderHook(() => useCountdown(deadline, () => undefined));
    // The clock moves 30 s while no timer fires.
    vi.setSystemTime(Date.now() + 30_000);
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(89);
  });
});
