import type { Producto } from '@pago/domain/products';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../lib/app-store';
import { stubFetch } from '../../../test/fetch-stub';
import { LocationDisplay } from '../../../test/location-display';
import { StepTwoPage } from '../step-two-page';
import { cpShares, creditCard, hiOverdue, pcConvenio, pcWithAbono, producto, cuota, savingsAccount } from './test-products';

const PARAMETERS = {
  diasMoraPC: '30',
  diasMoraHI: '30',
  diasMoraCP: '30',
  diasMoraTC: '30',
  btnPayPC: 'Pagar cuotas',
  btnPayHI: 'Pagar dividendos',
  btnPayCP: 'Pagar cuotas',
  btnPayTC: 'Pagar tarjeta',
};

function renderStepTwo(family: string, products: Producto[]) {
  // The store as step 1 leaves it: the parameters, then the session with the product list.
  useAppStore.getState().setParameters(PARAMETERS);
  useAppStore.getState().setSession({ token: 'token-de-sesion', products });
  render(
    <MemoryRouter initialEntries={[`/pagoexpress/steptwo/${family}`]}>
      <Routes>
        <Route path="/pagoexpress/steptwo/:category" element={<StepTwoPage />} />
        <Route path="*" element={null} />
      </Routes>
      <LocationDisplay />
    </MemoryRouter>,
  );
  return {
    user: userEvent.setup(),
    location: () => screen.getByTestId('location').textContent,
    summary: () => screen.getByRole('region', { name: 'Resumen' }),
  };
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) }) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const textbox = (name: RegExp | string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

beforeEach(() => {
  useAppStore.getState().reset();
  // The server answers only the steps' questions on availability: every family open.
  stubFetch();
});

describe('step 2 for credits', () => {
  it('shows each credit with its masked number, badge and instalments, the oldest checked', () => {
    const { summary } = renderStepTwo('PC', [pcWithAbono(), pcConvenio(), savingsAccount('800012340001')]);
    expect(screen.getByRole('heading', { level: 1, name: 'Crédito de Consumo' })).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('Selecciona las cuotas a pagar de cada producto')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Crédito Nº ****5678' })).toBeVisible();
    const convenio = screen.getByRole('region', { name: 'Crédito Nº ****4321' });
    expect(within(convenio).getByText('Descuento por planilla')).toBeVisible();
    expect(screen.getAllByText('Descuento por planilla')).toHaveLength(1);

    expect(checkbox('Cuota 21').checked).toBe(true);
    expect(checkbox('Cuota 22').checked).toBe(false);
    expect(checkbox('Cuota 11').checked).toBe(true);
    expect(checkbox('Cuota 21').labels?.[0]?.textContent).toContain('$85.430');
    expect(checkbox('Cuota 21').labels?.[0]?.textContent).toContain('Vence 12/06/2025');

    expect(within(summary()).getByText('Total a pagar')).toBeVisible();
    expect(within(summary()).getByText('$147.580')).toBeVisible();
    expect(within(summary()).getByText('Seleccionado para pagar 2 cuotas')).toBeVisible();
    expect(button('Pagar cuotas').disabled).toBe(false);
    expect(screen.getByRole('link', { name: 'Volver' }).getAttribute('href')).toBe('/pagoexpress/stepone');
  });

  it('refuses an instalment out of order with the modal, and leaves the box unchecked', async () => {
    const { user } = renderStepTwo('PC', [pcWithAbono()]);
    await user.click(button('Ver más'));
    await user.click(checkbox('Cuota 23'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Debes seleccionar desde la cuota más antigua a la más nueva')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(checkbox('Cuota 23').checked).toBe(false);

    await user.click(checkbox('Cuota 22'));
    await user.click(checkbox('Cuota 21'));
    expect(screen.getByRole('dialog')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Aceptar' }));
    expect(checkbox('Cuota 21').checked).toBe(true);
    expect(checkbox('Cuota 22').checked).toBe(true);
  });

  it("folds a credit of 3 or more instalments to its first 2 ('Ver más' / 'Ver menos')", async () => {
    const { user } = renderStepTwo('PC', [pcWithAbono(), pcConvenio()]);
    expect(screen.queryByRole('checkbox', { name: /^Cuota 23\b/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Ver más' })).toHaveLength(1);
    await user.click(button('Ver más'));
    expect(button('Ver menos').getAttribute('aria-expanded')).toBe('true');
    expect(checkbox('Cuota 24')).toBeVisible();
    await user.click(button('Ver menos'));
    expect(screen.queryByRole('checkbox', { name: /^Cuota 24\b/ })).toBeNull();
  });

  it('pays part of the newest selected instalment with the switch, within the limits', async () => {
    const { user, summary } = renderStepTwo('PC', [pcWithAbono()]);
    const partialSwitch = () => screen.getByRole('switch', { name: /^Monto a abonar/ });
    expect(screen.getAllByRole('switch')).toHaveLength(1);
    await user.click(partialSwitch());
    expect(partialSwitch().getAttribute('aria-checked')).toBe('true');
    const field = textbox(/^Ingresa el monto a abonar/);
    expect(field.value).toBe('20.000');
    expect(field.maxLength).toBe(6);
    expect(screen.getByText('Monto mínimo $10.000')).toBeVisible();
    expect(within(summary()).getByText('$20.000', { selector: 'p span' })).toBeVisible();

    await user.clear(field);
    await user.type(field, '9999');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Monto mínimo $10.000').id).toBe(field.getAttribute('aria-describedby'));
    expect(button('Pagar cuotas').disabled).toBe(true);

    await user.clear(field);
    await user.type(field, '90000');
    expect(field.value).toBe('90.000');
    expect(screen.getByText('Excede monto pendiente')).toBeVisible();
    expect(button('Pagar cuotas').disabled).toBe(true);

    await user.clear(field);
    await user.type(field, '40000');
    expect(field.value).toBe('40.000');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(button('Pagar cuotas').disabled).toBe(false);

    // A newer instalment takes the switch, off: the older one is paid in full again.
    await user.click(checkbox('Cuota 22'));
    expect(screen.getAllByRole('switch')).toHaveLength(1);
    expect(partialSwitch().getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: /a la cuota 22/ })).toBeVisible();
    expect(within(summary()).getByText('$170.860')).toBeVisible();
  });

  it('disables the pay button when nothing is selected', async () => {
    const { user, summary } = renderStepTwo('PC', [pcWithAbono()]);
    await user.click(checkbox('Cuota 21'));
    expect(button('Pagar cuotas').disabled).toBe(true);
    expect(within(summary()).getByText('Seleccionado para pagar 0 cuotas')).toBeVisible();
  });

  it('asks before paying an instalment registered for payroll deduction, then goes to step 3', async () => {
    const { user, location } = renderStepTwo('PC', [pcWithAbono(), pcConvenio()]);
    await user.click(button('Pagar cuotas'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'Atención: Pagarás una cuota de tu crédito de consumo originalmente registrada con la modalidad descuento por planilla.',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location()).toBe('/pagoexpress/steptwo/PC');

    await user.click(button('Pagar cuotas'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Pagar' }));
    // Once the server's clock has said the family is open (features/products/availability.tsx).
    await waitFor(() => expect(location()).toBe('/pagoexpress/stepthree/PC'));
    expect(useAppStore.getState().selection).toEqual({
      family: 'PC',
      productsToPay: [
        { productNumber: '410012345678', installment: ['21|85430|20250612|A|0'] },
        { productNumber: '410087654321', installment: ['11|62150|20250616|A|0'] },
      ],
      amount: 147_580,
    });
  });

  it('goes straight to step 3 without a payroll instalment selected', async () => {
    const { user, location } = renderStepTwo('PC', [pcWithAbono(), pcConvenio()]);
    await user.click(checkbox('Cuota 11'));
    await user.click(button('Pagar cuotas'));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Once the server's clock has said the family is open (features/products/availability.tsx).
    await waitFor(() => expect(location()).toBe('/pagoexpress/stepthree/PC'));
    expect(useAppStore.getState().selection.amount).toBe(85_430);
  });

  it('shows only the instalments past the grace days, with the notice', () => {
    renderStepTwo('HI', [hiOverdue(), producto('PC', '410098765431', [cuota(7, '20250601')])]);
    expect(screen.getByRole('heading', { level: 1, name: 'Crédito Hipotecario' })).toBeVisible();
    expect(
      screen.getByText('Tienes cuotas pendientes: Una vez cancelada tu cuota pendiente, podrás visualizar el resto de ellas'),
    ).toBeVisible();
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(checkbox('Cuota 61').checked).toBe(true);
    expect(checkbox('Cuota 62').checked).toBe(false);
    expect(screen.queryByRole('checkbox', { name: /^Cuota 63\b/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ver más' })).toBeNull();
    expect(button('Pagar dividendos')).toBeVisible();
  });

  it("goes back to the home when the member has a single family", () => {
    renderStepTwo('PC', [pcWithAbono()]);
    expect(screen.queryByText(/Tienes cuotas pendientes/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Volver' }).getAttribute('href')).toBe('/pagoexpress');
  });
});

describe('step 2 for participation shares', () => {
  it('takes a count between 1 and the accumulated instalments', async () => {
    const { user, location, summary } = renderStepTwo('CP', [cpShares(6), savingsAccount('800012340001')]);
    expect(screen.getByRole('heading', { level: 1, name: 'Cuotas de Participación' })).toBeVisible();
    expect(screen.getByText('Valor cuota').nextSibling?.textContent).toBe('$5.000');
    expect(screen.getByText('Cuotas acumuladas').nextSibling?.textContent).toBe('6');
    const field = textbox('Cantidad de cuotas a pagar');
    expect(field.maxLength).toBe(13);
    expect(button('Pagar cuotas').disabled).toBe(true);

    await user.type(field, '7');
    expect(screen.getByText('Excedes el máximo de cuotas')).toBeVisible();
    expect(button('Pagar cuotas').disabled).toBe(true);

    await user.clear(field);
    await user.type(field, 'x3');
    expect(field.value).toBe('3');
    expect(within(summary()).getByText('$15.000', { selector: 'p span' })).toBeVisible();
    expect(within(summary()).getByText('Seleccionado para pagar 3 cuotas')).toBeVisible();
    await user.click(button('Pagar cuotas'));
    // Once the server's clock has said the family is open (features/products/availability.tsx).
    await waitFor(() => expect(location()).toBe('/pagoexpress/stepthree/CP'));
    expect(useAppStore.getState().selection.productsToPay[0]?.installment).toHaveLength(3);
    expect(useAppStore.getState().selection.amount).toBe(15_000);
  });
});

describe('step 2 for savings', () => {
  it('enables the amount of a checked account and checks its limits', async () => {
    const { user, location, summary } = renderStepTwo('AH', [savingsAccount('800012340001'), savingsAccount('800012340002')]);
    expect(screen.getByRole('heading', { level: 1, name: 'Cuenta de Ahorro' })).toBeVisible();
    expect(screen.getByText('Selecciona la cuenta y el monto que quieres depositar')).toBeVisible();
    const account = checkbox('Cuenta de ahorro Nº \\*\\*\\*\\*0001');
    const amount = textbox(/^Monto que quieres depositar en la cuenta Nº \*\*\*\*0001/);
    expect(amount.disabled).toBe(true);
    expect(button('Continuar').disabled).toBe(true);

    await user.click(account);
    expect(amount.disabled).toBe(false);
    expect(button('Continuar').disabled).toBe(true);
    await user.type(amount, '999');
    expect(screen.getByText('El monto a abonar tiene que ser mayor $1000')).toBeVisible();
    await user.clear(amount);
    await user.type(amount, '5.000.000');
    expect(amount.value).toBe('5.000.000');
    expect(screen.getByText('El monto a abonar tiene que ser menor a $5.000.000')).toBeVisible();
    expect(button('Continuar').disabled).toBe(true);

    await user.click(account);
    expect(amount.value).toBe('');
    expect(screen.queryByText('El monto a abonar tiene que ser menor a $5.000.000')).toBeNull();

    await user.click(account);
    await user.type(amount, '25a000');
    expect(amount.value).toBe('25.000');
    expect(within(summary()).getByText('Total a depositar')).toBeVisible();
    expect(within(summary()).getByText('$25.000', { selector: 'p span' })).toBeVisible();
    await user.click(button('Continuar'));
    // Once the server's clock has said the family is open (features/products/availability.tsx).
    await waitFor(() => expect(location()).toBe('/pagoexpress/stepthree/AH'));
    expect(useAppStore.getState().selection).toEqual({
      family: 'AH',
      productsToPay: [{ productNumber: '800012340001', installment: ['0|25000|A|0'] }],
      amount: 25_000,
    });
  });
});

describe('step 2 for credit cards', () => {
  it('pays the minimum, the total or an amount in between', async () => {
    const { user, location, summary } = renderStepTwo('TC', [creditCard(), savingsAccount('800012340001')]);
    expect(screen.getByRole('heading', { level: 1, name: 'Tarjetas de Crédito' })).toBeVisible();
    expect(screen.getByText('Selecciona una opción de pago de tus monto(s) facturados')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'MasterCard Internacional Nº ****7890' })).toBeVisible();
    expect(screen.getByText('27/05/2025')).toBeVisible();
    expect(screen.getByText('27/04/2025')).toBeVisible();
    expect(button('Pagar tarjeta').disabled).toBe(true);
    const amount = textbox('Monto a abonar');
    expect(amount.disabled).toBe(true);

    await user.click(screen.getByRole('radio', { name: /^Pago mínimo/ }));
    expect(within(summary()).getByText('$35.000', { selector: 'p span' })).toBeVisible();
    expect(within(summary()).getByText('Seleccionado para pagar 1 monto(s) facturado(s)')).toBeVisible();
    expect(button('Pagar tarjeta').disabled).toBe(false);

    await user.click(screen.getByRole('radio', { name: /^Abonar/ }));
    expect(amount.disabled).toBe(false);
    expect(amount.maxLength).toBe(13);
    expect(button('Pagar tarjeta').disabled).toBe(true);
    await user.type(amount, '34999');
    expect(screen.getByText('Monto debe superar pago mínimo')).toBeVisible();
    await user.clear(amount);
    await user.type(amount, '350001');
    expect(screen.getByText('Monto supera deuda facturada')).toBeVisible();
    expect(button('Pagar tarjeta').disabled).toBe(true);

    await user.click(screen.getByRole('radio', { name: /^Total facturado/ }));
    expect(amount.value).toBe('');
    expect(amount.disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: /^Abonar/ }));
    await user.type(amount, '100000');
    await user.click(button('Pagar tarjeta'));
    // Once the server's clock has said the family is open (features/products/availability.tsx).
    await waitFor(() => expect(location()).toBe('/pagoexpress/stepthree/TC'));
    expect(useAppStore.getState().selection).toEqual({
      family: 'TC',
      productsToPay: [{ productNumber: '5412751234567890', installment: ['1|100000|20250527|A|0'] }],
      amount: 100_000,
    });
  });

  it('disables the options of a card without billed debt and says so', () => {
    renderStepTwo('TC', [creditCard(0, 0)]);
    expect(screen.getByText('Estimado(a), te informamos que tu tarjeta no registra deuda facturada.')).toBeVisible();
    for (const radio of screen.getAllByRole('radio')) expect((radio as HTMLButtonElement).disabled).toBe(true);
    expect(button('Pagar tarjeta').disabled).toBe(true);
  });
});

describe('step 2 after a reload or coming back from step 3', () => {
  it("shows the member's previous choice", () => {
    useAppStore.getState().setSelection({
      family: 'PC',
      productsToPay: [{ productNumber: '410012345678', installment: ['21|85430|20250612|A|0', '22|85430|20250712|A|0'] }],
      amount: 170_860,
    });
    renderStepTwo('PC', [pcWithAbono()]);
    expect(checkbox('Cuota 21').checked).toBe(true);
    expect(checkbox('Cuota 22').checked).toBe(true);
  });

  it('tells the member the session ended after sessionTimeOut idle minutes, before anything is filled in', () => {
    vi.useFakeTimers();
    try {
      useAppStore.getState().setParameters({ ...PARAMETERS, sessionTimeOut: '5' });
      useAppStore.getState().setSession({ token: 'token-de-sesion', products: [pcWithAbono()] });
      render(
        <MemoryRouter initialEntries={['/pagoexpress/steptwo/PC']}>
          <Routes>
            <Route path="/pagoexpress/steptwo/:category" element={<StepTwoPage />} />
            <Route path="*" element={null} />
          </Routes>
        </MemoryRouter>,
      );
      act(() => vi.advanceTimersByTime(299_000));
      expect(screen.queryByRole('dialog', { name: 'Tiempo de inactividad agotado' })).toBeNull();
      act(() => vi.advanceTimersByTime(1_000));
      expect(screen.getByRole('dialog', { name: 'Tiempo de inactividad agotado' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
