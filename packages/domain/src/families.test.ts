import { describe, expect, it } from 'vitest';
import { FAMILIES, FAMILY_NAMES, STEP_TWO_TITLES, isFamily } from './families';
import { familySchema } from './wire-schemas';

describe('families', () => {
  it('are the six of the spec', () => {
    expect(FAMILIES).toEqual(['PC', 'CP', 'HI', 'TC', 'PM', 'AH']);
  });

  it('carry the Spanish names of the product list and of step 2', () => {
    expect(FAMILY_NAMES).toEqual({
      PC: 'Crédito de Consumo',
      CP: 'Cuotas de Participación',
      HI: 'Crédito Hipotecario',
      TC: 'Tarjeta de Crédito',
      PM: 'Crédito MYPE',
      AH: 'Cuenta de Ahorro',
    });
    expect(STEP_TWO_TITLES.TC).toBe('Tarjetas de Crédito');
    for (const family of FAMILIES.filter((f) => f !== 'TC')) {
      expect(STEP_TWO_TITLES[family]).toBe(FAMILY_NAMES[family]);
    }
  });

  it('recognise a family code and nothing else', () => {
    for (const family of FAMILIES) {
      expect(isFamily(family)).toBe(true);
      expect(familySchema.parse(family)).toBe(family);
    }
    for (const other of ['pc', 'XX', '', 'toString', 1, null, undefined]) {
      expect(isFamily(other)).toBe(false);
      expect(familySchema.safeParse(other).success).toBe(false);
    }
  });
});
