/**
 * For a move made under the row's lock after its state was read: it cannot have lost a race, so moving nothing is a
 * fault of the code, and the database transaction rolls back rather than write half a payment.
 */
export function expectMoved(count: number, what: string): void {
  if (count === 0) throw new Error(`${what}: the row was not in the state its lock showed`);
}
