import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { LocationDisplay } from '../../test/location-display';
import { InactivityTimer } from './inactivity-timer';
import { givenPendingPayment } from './testing';

function renderTimer(timeoutMs?: number) {
  render(
    <MemoryRouter initialEntries={['/pagoexpress/PM/coopmethodpay']}>
      <Routes>
        <Route
          path="/pagoexpress/PM/coopmethodpay"
          element={
            <InactivityTimer timeoutMs={timeoutMs}>
              <h1>Paga con tu Cuenta Vista</h1>
            </InactivityTimer>
          }
        />
        <Route path="*" element={null} />
      </Routes>
      <LocationDisplay />
    </MemoryRouter>,
  );
  return { location: () => screen.getByTestId('location').textContent };
}

const modal = () => screen.queryByRole('dialog', { name: 'Tiempo de inactividad agotado' });

beforeEach(() => {
  vi.useFakeTimers();
  useAppStore.getState().reset();
  givenPendingPayment();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('inactivity timer (specification §4, §9)', () => {
  it('shows the modal after sessionTimeOut minutes without activity; Aceptar goes to /pagoexpress', () => {
    useAppStore.setState({ config: { parameters: { sessionTimeOut: '2' }, isAuthenticated: true } });
    const { location } = renderTimer();
    act(() => vi.advanceTimersByTime(119_000));
    expect(modal()).toBeNull();
    act(() => vi.advanceTimersByTime(1_000));
    expect(modal()).not.toBeNull();
    act(() => screen.getByRole('button', { name: 'Aceptar' }).click());
    expect(location()).toBe('/pagoexpress');
  });

  it('waits 5 minutes when the parameter is missing, and any activity starts the count again', () => {
    useAppStore.setState({ config: { parameters: {}, isAuthenticated: true } });
    renderTimer();
    act(() => vi.advanceTimersByTime(240_000));
    fireEvent.keyDown(window, { key: 'a' });
    act(() => vi.advanceTimersByTime(240_000));
    expect(modal()).toBeNull();
    act(() => vi.advanceTimersByTime(60_000));
    expect(modal()).not.toBeNull();
  });

  it('takes the delay from a prop', () => {
    renderTimer(1_000);
    act(() => vi.advanceTimersByTime(1_000));
    expect(modal()).not.toBeNull();
    expect(screen.getByRole('dialog').textContent).toContain('Por tu seguridad cerramos tu sesión de pago.');
  });
});
