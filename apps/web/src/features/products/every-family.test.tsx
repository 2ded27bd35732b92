import { seleccionarProductoRequestSchema } from '@pago/domain/schemas/call-seleccionar';
import {
  FAMILIES,
  FAMILY_KINDS,
  FAMILY_NAMES,
  kindOf,
  STEP_TWO_TITLES,
  type Family,
  type FamilyKind,
} from '@pago/domain/families';
import { debitCreditSwitchName, graceDaysName, payButtonName, webPaySwitchName } from '@pago/domain/parameters';
import type { Producto } from '@pago/domain/products';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { jsonResponse, sentBody, stubFetch } from '../../test/fetch-stub';
import { LocationDisplay } from '../../test/location-display';
import { StepThreePage } from './step-three-page';
import { StepTwoPage } from './step-two-page';
import { detalle, product, SEED_PARAMETERS } from './test-builders';

// The screens' rules read a family's kind, never its code: every family goes through steps 2 and 3 to call 3, and
// the families of one kind go through them alike. A rule that names a family (or forgets a new one) fails here.

/** One product of a kind, and how a member chooses something to pay of it on step 2. */
const BY_KIND: Readonly<Record<FamilyKind, { product: (family: Family) => Producto; choose: (user: UserEvent) => Promise<void> }>> = {
  credit: {
    product: (family) => product(family, '410012345678', [detalle(21, '20300612'), detalle(22, '20300712')]),
    // The oldest instalment starts checked.
    choose: async () => {},
  },
  shares: {
    product: (family) =>
      product(family, '700011111111', [1, 2, 3].map((n) => detalle(n, `20300${n + 5}10`, { montoPendiente: 5_000, pagoMinimo: 5_000 }))),
    choose: (user) => user.type(screen.getByRole('textbox', { name: 'Cantidad de cuotas a pagar' }), '2'),
  },
  card: {
    product: (family) =>
      product(family, '5412751234567890', detalle(1, '20300627', { montoPendiente: 350_000, pagoMinimo: 35_000 }), { fechaFacturacion: '20300527' }),
    choose: (user) => user.click(screen.getByRole('radio', { name: /^Pago mínimo/ })),
  },
  savings: {
    product: (family) => product(family, '800012340001', detalle(0, '20300515', { montoPendiente: 0, pagoMinimo: 0 })),
    choose: async (user) => {
      await user.click(screen.getByRole('checkbox'));
      await user.type(screen.getByRole('textbox'), '25000');
    },
  },
};

/** The seed's parameters, with every family's own parameters the same, so that only the family's kind differs. */
const PARAMETERS: Record<string, string> = { ...SEED_PARAMETERS };
for (const family of FAMILIES) {
  PARAMETERS[graceDaysName(family)] = '30';
  PARAMETERS[webPaySwitchName(family)] = '1';
  PARAMETERS[debitCreditSwitchName(family)] = '1';
  const button = payButtonName(family);
  if (button) PARAMETERS[button] = 'Pagar ahora';
}

/** What a member of `family` sees and sends from step 2 to call 3, with the family's code and names made neutral. */
async function payOnStepsTwoAndThree(family: Family): Promise<string[]> {
  useAppStore.getState().reset();
  const item = BY_KIND[kindOf(family)].product(family);
  useAppStore.setState({ customer: { rut: '11111111-1', rememberMe: false, token: 'token-de-sesion' } });
  useAppStore.getState().setParameters(PARAMETERS);
  useAppStore.getState().setSession({ token: 'token-de-sesion', products: [item] });
  const fetch = stubFetch(jsonResponse({ seleccionarProductoResponse: { codigo: '200', idTransaccion: 'a1b2c3', montoTotal: 1 } }));
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/pagoexpress/steptwo/${family}`]}>
        <Routes>
          <Route path="/pagoexpress/steptwo/:category" element={<StepTwoPage />} />
          <Route path="/pagoexpress/stepthree/:category" element={<StepThreePage />} />
          <Route path="*" element={null} />
        </Routes>
        <LocationDisplay />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const location = () => screen.getByTestId('location').textContent;
  const neutral = (text: string | null) =>
    (text ?? '').replaceAll(STEP_TWO_TITLES[family], '{title}').replaceAll(FAMILY_NAMES[family], '{name}').replaceAll(`/${family}`, '/{family}');
  const user = userEvent.setup();

  expect(screen.getByRole('heading', { level: 1, name: STEP_TWO_TITLES[family] })).toBeVisible();
  await BY_KIND[kindOf(family)].choose(user);
  const stepTwo = neutral(document.body.textContent);
  const pay = screen.getAllByRole('button').filter((b) => ['Pagar ahora', 'Continuar'].includes(b.textContent ?? ''));
  expect(pay).toHaveLength(1);
  await user.click(pay[0]!);
  await waitFor(() => expect(location()).toBe(`/pagoexpress/stepthree/${family}`));
  expect(useAppStore.getState().selection.family).toBe(family);

  const stepThree = neutral(document.body.textContent);
  // The card provider: a card of credit warns first that it is paid with debit or prepaid cards.
  await user.click(screen.getByRole('radio', { name: 'Webpay' }));
  const warned = screen.queryByRole('dialog') !== null;
  if (warned) await user.click(screen.getByRole('button', { name: 'Cancelar' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await user.click(screen.getByRole('radio', { name: 'Cuenta Vista Cooperativa' }));
  await user.click(screen.getByRole('button', { name: 'Continuar' }));
  await waitFor(() => expect(location()).toBe(`/pagoexpress/${family}/coopmethodpay`));

  // Call 3's body passes the server's own schema, whose rules on a deposit and a card also read the kind.
  const request = seleccionarProductoRequestSchema.parse(sentBody(fetch));
  const products = request.seleccionarProductoRequest.producto;
  expect(products.map((p) => [p.tipoFamiliaProducto, p.nombreFamiliaProducto])).toEqual([[family, FAMILY_NAMES[family]]]);
  cleanup();
  return [stepTwo, stepThree, String(warned), neutral(JSON.stringify(products.map((p) => p.detalleProducto)))];
}

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('every family', () => {
  it.each(FAMILY_KINDS.map((kind) => [kind, FAMILIES.filter((f) => kindOf(f) === kind)] as const))(
    'of kind %s goes from step 2 to call 3, each family alike: %j',
    async (_kind, families) => {
      expect(families.length).toBeGreaterThan(0);
      const seen: string[][] = [];
      for (const family of families) seen.push(await payOnStepsTwoAndThree(family));
      for (const each of seen) expect(each).toEqual(seen[0]);
    },
  );
});
