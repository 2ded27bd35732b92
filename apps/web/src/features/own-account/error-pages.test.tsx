import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { BlockedUserPage } from './blocked-user-page';
import { ErrorLoginPage } from './error-login-page';
import { InsufficientFundsPage } from './insufficient-funds-page';
import { givenPendingPayment } from './testing';
import { cuota, producto } from '../products/step-two/test-products';
import { takeTypedBeforeStart } from '../../lib/typed-before-start';

const renderPage = (page: ReactNode) => render(<MemoryRouter>{page}</MemoryRouter>);

beforeEach(() => {
  useAppStore.getState().reset();
  givenPendingPayment();
});

describe('own-account error pages', () => {
  it('blocked user: the message, a link to recover the password and Ir al Home', () => {
    renderPage(<BlockedUserPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Tu clave ha sido bloqueada' })).toBeVisible();
    expect(screen.getByText('Por seguridad tu clave de internet ha sido bloqueada.')).toBeVisible();
    const recover = screen.getByRole('link', { name: 'Recuperar clave' }).getAttribute('href');
    expect(recover).toBeTruthy();
    expect(recover).not.toBe('#');
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
  });

  it('insufficient funds: the message, back to step 3 of the category, and Ir al Home', () => {
    renderPage(<InsufficientFundsPage />);
    expect(
      screen.getByText('Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Seleccionar otro medio de pago' }).getAttribute('href')).toBe(
      '/pagoexpress/stepthree/PM',
    );
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
    // The selection stays for step 3.
    expect(useAppStore.getState().selection.family).toBe('PM');
  });

  it('insufficient funds without a selection offers only the home', () => {
    useAppStore.getState().reset();
    renderPage(<InsufficientFundsPage />);
    expect(screen.queryByRole('link', { name: 'Seleccionar otro medio de pago' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ir al Home' })).toBeVisible();
  });

  it("ErrorLogin: a deposit into another member's savings account is not possible; the state is cleared", () => {
    renderPage(<ErrorLoginPage />);
    expect(screen.getByText('No es posible realizar un depósito en la cuenta de ahorro de otro socio.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir al Home' }).getAttribute('href')).toBe('/');
    expect(useAppStore.getState().config.isAuthenticated).toBe(false);
    expect(useAppStore.getState().payment.idTrx).toBe('');
  });

  describe('another way to pay, when the card is offered for the selection', () => {
    function givenCardOffered(pagoWebPayPM: string) {
      takeTypedBeforeStart();
      useAppStore.setState({
        products: [producto('PM', '630055667788', [cuota(9, '20261210', { montoPendiente: 156_300, pagoMinimo: 156_300 })])],
        config: { parameters: { sessionTimeOut: '5', pagoWebPayPM, medioPagoWP: 'Webpay' }, isAuthenticated: true },
      });
    }

    it.each([
      ['blocked password', <BlockedUserPage key="b" />],
      ["another member's savings", <ErrorLoginPage key="e" />],
    ])('%s: offers a new payment by card from the home with the RUT typed, the state cleared as on every error page', (_name, page) => {
      givenCardOffered('1');
      renderPage(page);
      const link = screen.getByRole('link', { name: 'Pagar con Webpay' });
      expect(link.getAttribute('href')).toBe('/');
      expect(useAppStore.getState().selection.family).toBeNull();
      expect(useAppStore.getState().customer.rut).toBe('');
      fireEvent.click(link);
      expect(takeTypedBeforeStart()).toEqual({ rut: '11111111-1', rememberMe: false });
    });

    it.each([
      ['blocked password', <BlockedUserPage key="b" />],
      ["another member's savings", <ErrorLoginPage key="e" />],
    ])('%s: offers nothing more when the card is not offered for the selection', (_name, page) => {
      givenCardOffered('0');
      renderPage(page);
      expect(screen.queryByRole('link', { name: /Pagar con/ })).toBeNull();
    });
  });
});
