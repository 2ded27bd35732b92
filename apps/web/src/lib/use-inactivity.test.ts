import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inactivityDelayMs, useInactivity } from './use-inactivity';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('inactivityDelayMs', () => {
  it('is sessionTimeOut minutes in milliseconds, 5 minutes when missing or unusable', () => {
    expect(inactivityDelayMs('1')).toBe(60_000);
    expect(inactivityDelayMs('5')).toBe(300_000);
    expect(inactivityDelayMs(undefined)).toBe(300_000);
    expect(inactivityDelayMs('')).toBe(300_000);
    expect(inactivityDelayMs('0')).toBe(300_000);
    expect(inactivityDelayMs('-3')).toBe(300_000);
    expect(inactivityDelayMs('cinco')).toBe(300_000);
  });
});

describe('useInactivity', () => {
  it('expires once the delay passes without activity', () => {
    const { result } = renderHook(() => useInactivity(10_000));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(9_999));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it.each(['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'])(
    'starts counting again on %s',
    (event) => {
      const { result } = renderHook(() => useInactivity(10_000));
      act(() => vi.advanceTimersByTime(8_000));
      act(() => {
        window.dispatchEvent(new Event(event));
      });
      act(() => vi.advanceTimersByTime(8_000));
      expect(result.current).toBe(false);
      act(() => vi.advanceTimersByTime(2_000));
      expect(result.current).toBe(true);
    },
  );

  it('counts activity inside the page too (capture phase), e.g. scrolling a box', () => {
    const box = document.createElement('div');
    document.body.append(box);
    const { result } = renderHook(() => useInactivity(10_000));
    act(() => vi.advanceTimersByTime(9_000));
    act(() => {
      box.dispatchEvent(new Event('scroll'));
    });
    act(() => vi.advanceTimersByTime(9_000));
    expect(result.current).toBe(false);
    box.remove();
  });

  it('stays expired: activity after the modal is up does not bring the session back', () => {
    const { result } = renderHook(() => useInactivity(1_000));
    act(() => vi.advanceTimersByTime(1_000));
    act(() => {
      window.dispatchEvent(new Event('keydown'));
    });
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(true);
  });

  it('stops its timer and listeners on unmount', () => {
    const remove = vi.spyOn(window, 'removeEventListener');
    const { unmount } = renderHook(() => useInactivity(1_000));
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    expect(remove.mock.calls.map(([name]) => name)).toEqual(
      expect.arrayContaining(['pointerdown', 'keydown', 'touchstart', 'scroll']),
    );
    remove.mockRestore();
  });

  it('a new delay starts a new watch', () => {
    const { result, rerender } = renderHook(({ delay }) => useInactivity(delay), { initialProps: { delay: 1_000 } });
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(true);
    rerender({ delay: 60_000 });
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(true);
  });
});
