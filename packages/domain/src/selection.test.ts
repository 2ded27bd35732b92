import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_ABOVE_BILLED_MESSAGE,
  CARD_BELOW_MINIMUM_MESSAGE,
  cardAmountError,
  cardAmountFloor,
  cardOptionsOffered,
  cpCountError,
  decodeInstallment,
  encodeInstallment,
  encodeSavingsDeposit,
  EXCEEDS_PENDING_MESSAGE,
  isOldestFirstPrefix,
  isValidCpCount,
  MAX_INSTALMENTS_MESSAGE,
  partialAmountError,
  partialInputMaxLength,
  SAVINGS_TOO_HIGH_MESSAGE,
  SAVINGS_TOO_LOW_MESSAGE,
  savingsAmountError,
  toggleInstalment,
} from './selection';

const orderedList = fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 });

describe('oldest-to-newest rule', () => {
  it('any sequence of accepted toggles keeps the selection a gap-free prefix', () => {
    fc.assert(
      fc.property(orderedList, fc.array(fc.nat(), { maxLength: 40 }), (ordered, clicks) => {
        let selected: number[] = [];
        for (const c of clicks) {
          const cuota = ordered[c % ordered.length]!;
          const result = toggleInstalment(ordered, selected, cuota);
          if (result.ok) selected = result.selected;
          expect(isOldestFirstPrefix(ordered, selected)).toBe(true);
        }
      }),
    );
  });

  it('refuses checking anything but the next oldest and unchecking anything but the newest selected', () => {
    const ordered = [21, 22, 23, 24];
    expect(toggleInstalment(ordered, [], 21)).toEqual({ ok: true, selected: [21] });
    expect(toggleInstalment(ordered, [], 22)).toEqual({ ok: false });
    expect(toggleInstalment(ordered, [21], 23)).toEqual({ ok: false });
    expect(toggleInstalment(ordered, [21, 22], 21)).toEqual({ ok: false });
    expect(toggleInstalment(ordered, [21, 22], 22)).toEqual({ ok: true, selected: [21] });
    expect(toggleInstalment(ordered, [21, 22, 23, 24], 25)).toEqual({ ok: false });
  });

  it('isOldestFirstPrefix rejects gaps, strangers and wrong order', () => {
    expect(isOldestFirstPrefix([1, 2, 3], [1, 2])).toBe(true);
    expect(isOldestFirstPrefix([1, 2, 3], [])).toBe(true);
    expect(isOldestFirstPrefix([1, 2, 3], [2])).toBe(false);
    expect(isOldestFirstPrefix([1, 2, 3], [1, 3])).toBe(false);
    expect(isOldestFirstPrefix([1, 2, 3], [2, 1])).toBe(false);
    expect(isOldestFirstPrefix([1, 2, 3], [1, 2, 3, 4])).toBe(false);
  });
});

describe('amount rules', () => {
  it('credit partial amount: above pending, below minimum, or fine', () => {
    expect(partialAmountError(85_431, 85_430, 10_000)).toBe(EXCEEDS_PENDING_MESSAGE);
    expect(partialAmountError(9_999, 85_430, 10_000)).toBe('Monto mínimo $10.000');
    expect(partialAmountError(10_000, 85_430, 10_000)).toBeNull();
    expect(partialAmountError(85_430, 85_430, 10_000)).toBeNull();
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), fc.nat(10_000_000), (amount, pending, min) => {
        const error = partialAmountError(amount, pending, min);
        expect(error === null).toBe(amount <= pending && amount >= min);
      }),
    );
  });

  it('limits the partial amount field so that the pending amount itself still fits, dots included', () => {
    expect(partialInputMaxLength(85_430)).toBe('85.430'.length);
    expect(partialInputMaxLength(1_250_000)).toBe('1.250.000'.length);
  });

  it('savings deposit: 1.000 up to, not including, 5.000.000', () => {
    expect(savingsAmountError(999)).toBe(SAVINGS_TOO_LOW_MESSAGE);
    expect(savingsAmountError(1_000)).toBeNull();
    expect(savingsAmountError(4_999_999)).toBeNull();
    expect(savingsAmountError(5_000_000)).toBe(SAVINGS_TOO_HIGH_MESSAGE);
    fc.assert(
      fc.property(fc.nat(20_000_000), (amount) => {
        expect(savingsAmountError(amount) === null).toBe(amount >= 1_000 && amount < 5_000_000);
      }),
    );
  });

  it('card abonar: between minimum and billed, both included', () => {
    expect(cardAmountError(350_001, 35_000, 350_000)).toBe(CARD_ABOVE_BILLED_MESSAGE);
    expect(cardAmountError(34_999, 35_000, 350_000)).toBe(CARD_BELOW_MINIMUM_MESSAGE);
    expect(cardAmountError(35_000, 35_000, 350_000)).toBeNull();
    expect(cardAmountError(350_000, 35_000, 350_000)).toBeNull();
  });

  it('card: once the minimum is paid, no minimum option and nothing below $1', () => {
    expect(cardOptionsOffered(35_000)).toEqual(['minimo', 'total', 'abonar']);
    expect(cardOptionsOffered(0)).toEqual(['total', 'abonar']);
    expect(cardAmountError(0, 0, 300_000)).toBe(CARD_BELOW_MINIMUM_MESSAGE);
    expect(cardAmountError(1, 0, 300_000)).toBeNull();
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(2_000_000), (minimo, facturado, amount) => {
        if (cardAmountError(amount, minimo, facturado) === null) expect(amount).toBeGreaterThan(0);
        expect(cardAmountFloor(minimo)).toBeGreaterThan(0);
      }),
    );
  });

  it('CP count: 1 to the accumulated instalments', () => {
    expect(cpCountError(7, 6)).toBe(MAX_INSTALMENTS_MESSAGE);
    expect(cpCountError(6, 6)).toBeNull();
    expect(isValidCpCount(0, 6)).toBe(false);
    expect(isValidCpCount(1, 6)).toBe(true);
    expect(isValidCpCount(6, 6)).toBe(true);
    expect(isValidCpCount(7, 6)).toBe(false);
    expect(isValidCpCount(1.5, 6)).toBe(false);
  });
});

describe('installment strings', () => {
  it('round-trip the five-part entry', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,3}$/),
        fc.nat(1_000_000_000),
        fc.stringMatching(/^\d{8}$/),
        fc.constantFrom('V', 'A'),
        fc.nat(999),
        (numero, monto, fecha, estado, diasMora) => {
          const entry = { numero, monto, fecha, estado, diasMora };
          expect(decodeInstallment(encodeInstallment(entry))).toEqual(entry);
        },
      ),
    );
  });

  it('reads the savings form number|amount|state|0', () => {
    expect(encodeSavingsDeposit('0', 25_000)).toBe('0|25000|A|0');
    expect(decodeInstallment('0|25000|A|0')).toEqual({ numero: '0', monto: 25_000, fecha: '0', estado: 'A', diasMora: 0 });
    expect(decodeInstallment('1|x|20260101|A|0')).toBeNull();
    expect(decodeInstallment('nonsense')).toBeNull();
  });
});
