import { describe, expect, it } from 'vitest';
import type { Selection } from '../../../lib/app-store';
import {
  canPayCredits,
  creditLines,
  creditSelection,
  creditView,
  defaultChoices,
  initialChoices,
  needsConvenioNotice,
  partialTarget,
  setPartial,
  setPartialText,
  toggleChoice,
  type CreditChoices,
  type CreditView,
} from './credits';
import { cuota, hiOverdue, pcConvenio, pcWithAbono, producto } from './test-products';

const NO_SELECTION: Selection = { family: null, productsToPay: [], amount: 0 };

function setup(products = [pcWithAbono(), pcConvenio()], graceDays = 30) {
  const view = creditView(products, graceDays);
  return { view, choices: defaultChoices(view) };
}

const productOf = (view: CreditView, numero: string) => view.products.find((p) => p.numeroProducto === numero)!;

/** Applies a toggle and fails the test if it was refused. */
function toggled(view: CreditView, choices: CreditChoices, numero: string, cuotaN: number): CreditChoices {
  const next = toggleChoice(productOf(view, numero), choices[numero]!, cuotaN);
  if (!next) throw new Error(`toggle of ${cuotaN} refused`);
  return { ...choices, [numero]: next };
}

describe('credits: view and defaults', () => {
  it('orders each credit oldest first and checks its oldest instalment', () => {
    const { view, choices } = setup();
    expect(productOf(view, '410012345678').instalments.map((d) => d.numeroCuota)).toEqual([21, 22, 23, 24]);
    expect(choices['410012345678']!.selected).toEqual([21]);
    expect(choices['410087654321']!.selected).toEqual([11]);
    expect(creditLines(view, choices).map((l) => l.monto)).toEqual([85_430, 62_150]);
  });

  it('marks a credit paid by payroll deduction for its badge', () => {
    const { view } = setup();
    expect(productOf(view, '410087654321').convenio).toBe(true);
    expect(productOf(view, '410012345678').convenio).toBe(false);
  });

  it('shows only the instalments past the grace days, and says others are hidden', () => {
    const other = producto('HI', '520000000001', [cuota(1, '20250601')]);
    const { view, choices } = setup([hiOverdue(), other], 30);
    expect(view.hiddenInstalments).toBe(true);
    expect(view.products.map((p) => p.numeroProducto)).toEqual(['520098765432']);
    expect(view.products[0]!.instalments.map((d) => d.numeroCuota)).toEqual([61, 62]);
    expect(choices['520098765432']!.selected).toEqual([61]);
  });

  it('shows everything, without the notice, when nothing is past the grace days', () => {
    const { view } = setup([hiOverdue()], 90);
    expect(view.hiddenInstalments).toBe(false);
    expect(view.products[0]!.instalments).toHaveLength(4);
  });
});

describe('credits: oldest to newest', () => {
  it('takes the next oldest and gives back the newest', () => {
    const { view, choices } = setup();
    const two = toggled(view, choices, '410012345678', 22);
    expect(two['410012345678']!.selected).toEqual([21, 22]);
    expect(toggled(view, two, '410012345678', 22)['410012345678']!.selected).toEqual([21]);
  });

  it('refuses to skip an instalment or to leave a gap', () => {
    const { view, choices } = setup();
    const pc = productOf(view, '410012345678');
    expect(toggleChoice(pc, choices['410012345678']!, 23)).toBeNull();
    const two = toggled(view, choices, '410012345678', 22);
    expect(toggleChoice(pc, two['410012345678']!, 21)).toBeNull();
  });

  it('lets the member uncheck everything, and then the pay button is disabled', () => {
    const { view } = setup([pcWithAbono()]);
    let choices = defaultChoices(view);
    choices = toggled(view, choices, '410012345678', 21);
    const lines = creditLines(view, choices);
    expect(lines).toEqual([]);
    expect(canPayCredits(lines)).toBe(false);
  });
});

describe('credits: partial payment', () => {
  it('belongs to the newest selected instalment, only when the credit allows it', () => {
    const { view, choices } = setup();
    const pc = productOf(view, '410012345678');
    expect(partialTarget(pc, choices['410012345678']!)?.numeroCuota).toBe(21);
    const two = toggled(view, choices, '410012345678', 22);
    expect(partialTarget(pc, two['410012345678']!)?.numeroCuota).toBe(22);
    expect(partialTarget(productOf(view, '410087654321'), choices['410087654321']!)).toBeNull();
  });

  it('proposes the minimum payment when switched on, and pays in full when switched off', () => {
    const { view, choices } = setup([pcWithAbono()]);
    const pc = view.products[0]!;
    const on = setPartial(pc, choices['410012345678']!, true);
    expect(on).toMatchObject({ partial: true, partialText: '20.000' });
    expect(creditLines(view, { '410012345678': on })[0]).toMatchObject({ monto: 20_000, partial: true, error: null });
    const off = setPartial(pc, on, false);
    expect(creditLines(view, { '410012345678': off })[0]).toMatchObject({ monto: 85_430, partial: false });
  });

  it('pays the minimum when the credit has no free amount', () => {
    const pc = producto('PC', '1', [cuota(1, '20250601', { pagoMinimo: 15_000 })], { permiteAbono: true });
    const view = creditView([pc], 30);
    const on = setPartial(view.products[0]!, defaultChoices(view)['1']!, true);
    expect(creditLines(view, { '1': on })[0]).toMatchObject({ monto: 15_000, partial: true, error: null });
  });

  it('goes off, and the older instalment is paid in full again, when a newer one is selected', () => {
    const { view, choices } = setup([pcWithAbono()]);
    const pc = view.products[0]!;
    const on = { '410012345678': setPartial(pc, choices['410012345678']!, true) };
    const next = toggled(view, on, '410012345678', 22);
    expect(next['410012345678']!.partial).toBe(false);
    expect(creditLines(view, next).map((l) => l.monto)).toEqual([85_430, 85_430]);
  });

  it('takes a free amount between the minimum and the pending amount', () => {
    const { view, choices } = setup([pcWithAbono()]);
    const pc = view.products[0]!;
    const on = setPartial(pc, choices['410012345678']!, true);
    const line = (text: string) => creditLines(view, { '410012345678': setPartialText(on, text) })[0]!;

    expect(setPartialText(on, '45a00.0').partialText).toBe('45.000');
    expect(line('9999')).toMatchObject({ monto: 9_999, error: 'Monto mínimo $10.000' });
    expect(line('10000')).toMatchObject({ monto: 10_000, error: null });
    expect(line('85430')).toMatchObject({ monto: 85_430, error: null });
    expect(line('85431')).toMatchObject({ error: 'Excede monto pendiente' });
    expect(line('')).toMatchObject({ monto: 0 });
    for (const text of ['9999', '85431', '']) expect(canPayCredits([line(text)])).toBe(false);
    expect(canPayCredits([line('50000')])).toBe(true);
  });

  it('accepts the minimum payment even below the minimum of a free amount, as the server does', () => {
    const pc = producto('PC', '1', [cuota(1, '20250601', { pagoMinimo: 5_000 })], {
      permiteAbono: true,
      permiteMultipleAbono: true,
      montoMinimoAbonoMultiple: 10_000,
    });
    const view = creditView([pc], 30);
    const on = setPartial(view.products[0]!, defaultChoices(view)['1']!, true);
    expect(creditLines(view, { '1': on })[0]).toMatchObject({ monto: 5_000, error: null });
    expect(creditLines(view, { '1': setPartialText(on, '6000') })[0]!.error).toBe('Monto mínimo $10.000');
  });

  it('is not offered when the credit does not allow it', () => {
    const { view, choices } = setup([pcConvenio()]);
    const pc = view.products[0]!;
    expect(setPartial(pc, choices['410087654321']!, true).partial).toBe(false);
  });
});

describe('credits: paying', () => {
  it('asks to confirm when a selected instalment is paid by payroll deduction', () => {
    const { view, choices } = setup();
    expect(needsConvenioNotice(creditLines(view, choices))).toBe(true);
    const withoutConvenio = toggled(view, choices, '410087654321', 11);
    expect(needsConvenioNotice(creditLines(view, withoutConvenio))).toBe(false);
  });

  it('hands step 3 one installment string per selected instalment, oldest first', () => {
    const { view, choices } = setup();
    let next = toggled(view, choices, '410012345678', 22);
    next = { ...next, '410012345678': setPartialText(setPartial(view.products[0]!, next['410012345678']!, true), '30000') };
    expect(creditSelection('PC', creditLines(view, next))).toEqual({
      family: 'PC',
      productsToPay: [
        { productNumber: '410012345678', installment: ['21|85430|20250612|A|0', '22|30000|20250712|A|0'] },
        { productNumber: '410087654321', installment: ['11|62150|20250616|A|0'] },
      ],
      amount: 85_430 + 30_000 + 62_150,
    });
  });

  it('carries the overdue state and days of each instalment', () => {
    const { view, choices } = setup([hiOverdue()]);
    expect(creditSelection('HI', creditLines(view, choices)).productsToPay[0]!.installment).toEqual([
      '61|398200|20250301|V|75',
    ]);
  });

  it("restores the member's previous choice when they come back from step 3", () => {
    const { view } = setup();
    const previous: Selection = {
      family: 'PC',
      productsToPay: [{ productNumber: '410012345678', installment: ['21|85430|20250612|A|0', '22|30000|20250712|A|0'] }],
      amount: 115_430,
    };
    const restored = initialChoices(view, previous, 'PC');
    expect(restored['410012345678']).toEqual({ selected: [21, 22], partial: true, partialText: '30.000' });
    expect(restored['410087654321']!.selected).toEqual([]);
    expect(initialChoices(view, previous, 'HI')).toEqual(defaultChoices(view));
    expect(initialChoices(view, NO_SELECTION, 'PC')).toEqual(defaultChoices(view));
  });

  it('falls back to the default when the previous choice no longer fits the instalments', () => {
    const { view } = setup([pcWithAbono()]);
    const previous: Selection = {
      family: 'PC',
      productsToPay: [{ productNumber: '410012345678', installment: ['22|85430|20250712|A|0'] }],
      amount: 85_430,
    };
    expect(initialChoices(view, previous, 'PC')['410012345678']!.selected).toEqual([21]);
  });
});
