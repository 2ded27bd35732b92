import { render, screen } from '@testing-library/react';
import { StrictMode, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { useAppStore } from '../../lib/app-store';

// Test helpers of the card screens: a router around one screen, and where it went.

export const ID = '0123456789abcdef0123456789abcdef';
export const RUT = '11111111-1';
export const SESSION = 'sesion-123';
export const PARAMETERS: Record<string, string> = {
  medioPagoWP: 'Webpay',
  pagoDebitoCreditoPM: '1',
  pagoDebitoCreditoTC: '0',
  pagoWPDebitoCredito: '597055555536',
  pagoWPDebito: '597055555537',
  cancelTrxMsg: 'Tu pago fue anulado y no se realizó ningún cargo.',
};

/** The state a card payment of one PM instalment has when step 3 hands over to the card screen. */
export function cardPaymentState(): void {
  useAppStore.setState({
    customer: { rut: RUT, rememberMe: false, token: SESSION },
    config: { parameters: PARAMETERS, isAuthenticated: true },
    selection: {
      family: 'PM',
      productsToPay: [{ productNumber: '630055667788', installment: ['9|156300|20300605|A|0'] }],
      amount: 156_300,
    },
    payment: { idTrx: ID, amount: 156_300 },
    methodPay: 'webpaymethodpay',
  });
}

function Where() {
  const { pathname, search } = useLocation();
  const type = useNavigationType();
  return (
    <>
      <div data-testid="location">{`${pathname}${search}`}</div>
      <div data-testid="navigation">{type}</div>
    </>
  );
}

/** Renders `element` at `url` (strict mode, as in development), with every other path empty. */
export function renderAt(url: string, routePath: string, element: ReactElement) {
  render(
    <StrictMode>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={routePath} element={element} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </StrictMode>,
  );
  return {
    /** pathname and search. */
    location: () => screen.getByTestId('location').textContent,
    /** 'REPLACE' when the last navigation replaced the entry. */
    navigation: () => screen.getByTestId('navigation').textContent,
  };
}
