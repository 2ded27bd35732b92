/** A coordinate card (factor 1) is a grid of 10 columns by 5 rows; a cell is named by its column and row ('A1'…'J5'). */
export const COORDINATE_COLUMNS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
export const COORDINATE_ROWS = [1, 2, 3, 4, 5] as const;

/** Every cell of the card, column by column. */
export const COORDINATE_CELLS: readonly string[] = /* @__PURE__ */ COORDINATE_COLUMNS.flatMap((c) => COORDINATE_ROWS.map((r) => `${c}${r}`));

/** How many distinct cells a challenge asks for. */
export const CHALLENGE_CELLS = 3;
