import { availabilityAt, type FamilyAvailability } from '@pago/domain/business-time';
import { describe, expect, it } from 'vitest';
import { closedFamilies, closedHoursMessage } from './availability';

const at = (family: FamilyAvailability['tipoFamiliaProducto'], disponible: boolean, apertura = '02:00'): FamilyAvailability => ({
  tipoFamiliaProducto: family,
  disponible,
  cierre: family === 'HI' ? '20:00' : '22:30',
  apertura,
});

describe('the closed-hours banner', () => {
  it('names only the member’s closed families, in their order, once each', () => {
    const availability = [at('PC', false), at('HI', false), at('AH', true), at('TC', false)];
    expect(closedFamilies(availability, ['AH', 'HI', 'PC']).map((a) => a.tipoFamiliaProducto)).toEqual(['HI', 'PC']);
    expect(closedFamilies(availability, ['AH'])).toEqual([]);
    // Nothing known yet (or the question failed): nothing is shown closed; the server still checks.
    expect(closedFamilies(null, ['HI'])).toEqual([]);
  });

  it('says the families and when they can be paid again, in one sentence each', () => {
    expect(closedHoursMessage([at('HI', false)])).toBe('A esta hora no se puede pagar Crédito Hipotecario. Podrás pagar desde las 02:00 hrs.');
    expect(closedHoursMessage([at('PC', false), at('HI', false), at('AH', false)])).toBe(
      'A esta hora no se puede pagar Crédito de Consumo, Crédito Hipotecario y Cuenta de Ahorro. Podrás pagar desde las 02:00 hrs.',
    );
    expect(closedHoursMessage([at('PC', false), at('HI', false, '06:00')])).toBe(
      'A esta hora no se puede pagar Crédito de Consumo y Crédito Hipotecario. Podrás pagar Crédito de Consumo desde las 02:00 hrs. ' +
        'Podrás pagar Crédito Hipotecario desde las 06:00 hrs.',
    );
  });

  it('reads the server’s answer, built from the hours the selection checks', () => {
    // 21:00 in Santiago (UTC-4 in June): the mortgage has closed, the rest have not.
    const evening = availabilityAt(new Date('2030-06-13T01:00:00Z'));
    expect(closedFamilies(evening, ['PC', 'HI', 'AH']).map((a) => a.tipoFamiliaProducto)).toEqual(['HI']);
    const night = availabilityAt(new Date('2030-06-13T03:00:00Z'));
    expect(closedFamilies(night, ['PC', 'HI', 'AH'])).toHaveLength(3);
  });
});
