import { describe, expect, it } from 'vitest';
import { COORDINATE_CELLS } from './coordinate-card';

describe('the coordinate card', () => {
  it('has 50 distinct cells from A1 to J5', () => {
    expect(COORDINATE_CELLS).toHaveLength(50);
    expect(new Set(COORDINATE_CELLS).size).toBe(50);
    expect(COORDINATE_CELLS[0]).toBe('A1');
    expect(COORDINATE_CELLS.at(-1)).toBe('J5');
  });
});
