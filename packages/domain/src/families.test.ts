import { describe, expect, it } from 'vitest';
import { FAMILIES, isFamily } from './families';
import { familySchema } from './schemas/wire';

describe('families', () => {
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
