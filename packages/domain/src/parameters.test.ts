import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FAMILIES } from './families';
import {
  PARAMETER_NAMES,
  debitCreditSwitchName,
  familySwitchName,
  graceDaysName,
  isParameterName,
  isSwitchOn,
  payButtonName,
  toParameterMap,
  webPaySwitchName,
} from './parameters';
import { parameterValueSchema } from './schemas/parameters';

const valid = (nombre: (typeof PARAMETER_NAMES)[number], valor: unknown) =>
  parameterValueSchema(nombre).safeParse(valor).success;

describe('PARAMETER_NAMES', () => {
  it('lists the parameters of spec §7.1 once each, and the card-deposit ceiling', () => {
    expect(new Set(PARAMETER_NAMES).size).toBe(PARAMETER_NAMES.length);
    expect([...PARAMETER_NAMES].sort()).toEqual(
      [
        'sessionTimeOut', 'CierreDiario', 'Mantencion',
        'PC', 'PM', 'TC', 'CP', 'HI', 'AH',
        'diasMoraPC', 'diasMoraPM', 'diasMoraTC', 'diasMoraCP', 'diasMoraHI', 'diasMoraAH',
        'pagoWebPayPC', 'pagoWebPayPM', 'pagoWebPayTC', 'pagoWebPayCP', 'pagoWebPayHI', 'pagoWebPayAH',
        'pagoWPDebitoCredito', 'pagoWPDebito', 'medioPagoWP',
        'btnPayPC', 'btnPayCP', 'btnPayHI', 'btnPayTC', 'btnPayPM',
        'pagoDebitoCreditoPC', 'pagoDebitoCreditoPM', 'pagoDebitoCreditoTC', 'pagoDebitoCreditoCP',
        'pagoDebitoCreditoHI', 'pagoDebitoCreditoAH',
        'cancelTrxMsg',
        'topeDepositoWebPayAH',
      ].sort(),
    );
  });

  it('takes a card-deposit ceiling of 1.000 pesos or more, as plain digits', () => {
    expect(parameterValueSchema('topeDepositoWebPayAH').safeParse('5000000').success).toBe(true);
    for (const bad of ['999', '-5000', '5.000', '', '1e6']) expect(parameterValueSchema('topeDepositoWebPayAH').safeParse(bad).success).toBe(false);
  });

  it('names the keys of each family', () => {
    for (const family of FAMILIES) {
      for (const name of [familySwitchName(family), graceDaysName(family), webPaySwitchName(family), debitCreditSwitchName(family)]) {
        expect(isParameterName(name)).toBe(true);
      }
    }
    expect(graceDaysName('AH')).toBe('diasMoraAH');
    expect(payButtonName('PC')).toBe('btnPayPC');
    expect(payButtonName('AH')).toBeNull();
    expect(isParameterName('diasMora')).toBe(false);
    expect(isParameterName(1)).toBe(false);
  });
});

describe('parameterValueSchema', () => {
  it('takes 0 or 1 for switches', () => {
    for (const nombre of ['CierreDiario', 'Mantencion', 'PC', 'AH', 'pagoWebPayTC', 'pagoDebitoCreditoHI'] as const) {
      expect(valid(nombre, '0')).toBe(true);
      expect(valid(nombre, '1')).toBe(true);
      for (const bad of ['', '2', 'true', ' 1', '01', 1]) expect(valid(nombre, bad)).toBe(false);
    }
  });

  it('takes whole minutes from 1 to 120 for sessionTimeOut', () => {
    for (const ok of ['1', '5', '120']) expect(valid('sessionTimeOut', ok)).toBe(true);
    for (const bad of ['0', '121', '05', '1.5', '-1', '', 'abc', ' 5']) expect(valid('sessionTimeOut', bad)).toBe(false);
  });

  it('takes 0 to 999 days for diasMora', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FAMILIES), fc.integer({ min: -50, max: 2000 }), (family, n) => {
        expect(valid(graceDaysName(family), String(n))).toBe(n >= 0 && n <= 999);
      }),
    );
  });

  it('takes 12-digit commerce codes', () => {
    expect(valid('pagoWPDebitoCredito', '597055555536')).toBe(true);
    expect(valid('pagoWPDebito', '597055555537')).toBe(true);
    for (const bad of ['59705555553', '5970555555360', '59705555553a', '']) expect(valid('pagoWPDebito', bad)).toBe(false);
  });

  it('takes non-empty texts up to 200 characters', () => {
    for (const nombre of ['btnPayPC', 'btnPayTC', 'cancelTrxMsg', 'medioPagoWP'] as const) {
      expect(valid(nombre, 'Pagar')).toBe(true);
      expect(valid(nombre, 'x'.repeat(200))).toBe(true);
      expect(valid(nombre, 'x'.repeat(201))).toBe(false);
      expect(valid(nombre, '')).toBe(false);
      expect(valid(nombre, '   ')).toBe(false);
    }
  });
});

describe('toParameterMap', () => {
  it('keeps known names, the last value winning', () => {
    expect(
      toParameterMap([
        { nombre: 'Mantencion', valor: '0' },
        { nombre: 'desconocido', valor: 'x' },
        { nombre: 'sessionTimeOut', valor: '5' },
        { nombre: 'Mantencion', valor: '1' },
        { nombre: '__proto__', valor: 'x' },
      ]),
    ).toEqual({ Mantencion: '1', sessionTimeOut: '5' });
  });

  it('never holds an unknown name', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ nombre: fc.oneof(fc.constantFrom(...PARAMETER_NAMES), fc.string()), valor: fc.string() })), (list) => {
        for (const key of Object.keys(toParameterMap(list))) expect(isParameterName(key)).toBe(true);
      }),
    );
  });

  it('reads switches', () => {
    expect(isSwitchOn('1')).toBe(true);
    expect(isSwitchOn('0')).toBe(false);
    expect(isSwitchOn(undefined)).toBe(false);
  });
});
