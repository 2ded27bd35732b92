import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { demoCoordinateCard } from '@pago/domain/demo-members';
import { auditLog, authorizations, coordinateCards, members } from '../../../db/schema';
import { errorCode, listProducts, oldest, postAutentica, postAutorizar, postPagar, postSeleccionar } from '../../../../test/support/member-calls';
import { appPerTest, DATABASE_KINDS } from '../../../../test/support/test-app';
import { MAX_CHALLENGES_PER_LOGIN, MAX_COORDINATE_FAILURES } from '../../../services/coordinate-challenge';

const AUT = 'autenticaConsultaFactoresResponse';
const AUZ = 'autorizarPagoProductoCVResponse';
const PAG = 'pagarProductoCVResponse';
const RUT = '11111111-1';
const CARD = demoCoordinateCard(RUT);

/*
 * Someone who knows a member's password and part of their coordinate card must not be able to ask for new cells
 * until only the ones they know come up.
 */
describe.each(DATABASE_KINDS)('the coordinate challenge cannot be re-rolled, on %s', (kind) => {
  // Each test on its own copy of the seeded members.
  const t = appPerTest(kind);

  async function login() {
    const { token, productos } = await listProducts(t.app, RUT);
    const product = productos.find((p) => p.tipoFamiliaProducto === 'PC')!;
    await postSeleccionar(t.app, token, RUT, [oldest(product, 1)]);
    const res = await postAutentica(t.app, token, RUT, '1234');
    return { token, numeroCuenta: res.json()[AUT].numeroCuenta as string };
  }
  const challenge = async (token: string, factor: 1 | 2 = 1) => (await postAutorizar(t.app, token, RUT, RUT, factor)).json()[AUZ];
  const cellsOf = (answer: { desafio?: { item: { valor: string }[] } }) => answer.desafio?.item.map((i) => i.valor) ?? [];
  const failures = async () =>
    (await t.database.db.select({ failures: coordinateCards.failures }).from(coordinateCards).innerJoin(members, eq(members.id, coordinateCards.memberId)).where(eq(members.rut, RUT)))[0]!.failures;
  const expireChallenges = () => t.database.db.update(authorizations).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(authorizations.status, 'pending'));

  it('answers the same cells to a second call 5 of the same login, and counts nothing', async () => {
    const { token } = await login();
    const first = await challenge(token);
    const second = await challenge(token);
    expect(cellsOf(first)).toHaveLength(3);
    expect(cellsOf(second)).toEqual(cellsOf(first));
    expect(second.vigencia).toBeGreaterThan(0);
    expect(await failures()).toBe(0);
  });

  it('counts a challenge that expired unanswered as a wrong answer before giving new cells', async () => {
    const { token } = await login();
    await challenge(token);
    await expireChallenges();
    expect(cellsOf(await challenge(token))).toHaveLength(3);
    expect(await failures()).toBe(1);
    const [line] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.kind, 'coordenadas.incorrectas')));
    expect(line?.detail).toMatchObject({ intentos: 1, motivo: 'sin respuesta' });
  });

  it('counts an expired challenge answered at call 6 as a wrong answer', async () => {
    const { token, numeroCuenta } = await login();
    const cells = cellsOf(await challenge(token));
    await expireChallenges();
    const res = await postPagar(t.app, { token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores: cells.map((cell) => CARD[cell]!) });
    expect(errorCode(res, PAG)).toBe('999');
    expect(await failures()).toBe(1);
  });

  it('counts a challenge superseded by a push, or by logging in again, as a wrong answer: three re-rolls block the card', async () => {
    const { token } = await login();
    await challenge(token);
    await challenge(token, 2);
    expect(await failures()).toBe(1);
    await challenge(token);
    await postAutentica(t.app, token, RUT, '1234');
    await challenge(token);
    expect(await failures()).toBe(2);
    await challenge(token, 2);
    expect(await failures()).toBe(MAX_COORDINATE_FAILURES);
    expect(errorCode(await postAutorizar(t.app, token, RUT, RUT, 1), AUZ)).toBe('45203017');
  });

  it('gives at most three challenges per login, then asks for the password again', async () => {
    const { token } = await login();
    for (let i = 0; i < MAX_CHALLENGES_PER_LOGIN; i++) {
      expect(cellsOf(await challenge(token))).toHaveLength(3);
      await expireChallenges();
      // The card's count is not what this test is about: keep it from blocking.
      await t.database.db.update(coordinateCards).set({ failures: 0 });
    }
    expect(errorCode(await postAutorizar(t.app, token, RUT, RUT, 1), AUZ)).toBe('440');
    await postAutentica(t.app, token, RUT, '1234');
    expect(cellsOf(await challenge(token))).toHaveLength(3);
  });

  it('still pays with the right answer to the challenge it repeated', async () => {
    const { token, numeroCuenta } = await login();
    await challenge(token);
    const cells = cellsOf(await challenge(token));
    const res = await postPagar(t.app, { token, rutTitular: RUT, rutPago: RUT, numeroCuenta, factor: 1, valores: cells.map((cell) => CARD[cell]!) });
    expect(res.json()[PAG].error).toBeUndefined();
    expect(await failures()).toBe(0);
  });

  it('asks the same cells in every session and transaction until they are answered right', async () => {
    const cells = cellsOf(await challenge((await login()).token));
    // Abandoned unanswered: new sessions and transactions ask the same cells, so they cannot be re-rolled.
    for (let i = 0; i < 4; i++) expect(cellsOf(await challenge((await login()).token))).toEqual(cells);
    // Answered wrong: the same cells again.
    const wrong = await login();
    expect(cellsOf(await challenge(wrong.token))).toEqual(cells);
    const wrongValues = cells.map((cell) => String((Number(CARD[cell]) + 1) % 100).padStart(2, '0'));
    expect(errorCode(await postPagar(t.app, { token: wrong.token, rutTitular: RUT, rutPago: RUT, numeroCuenta: wrong.numeroCuenta, factor: 1, valores: wrongValues }), PAG)).toBe('5203007');
    const right = await login();
    expect(cellsOf(await challenge(right.token))).toEqual(cells);
    const paid = await postPagar(t.app, { token: right.token, rutTitular: RUT, rutPago: RUT, numeroCuenta: right.numeroCuenta, factor: 1, valores: cells.map((cell) => CARD[cell]!) });
    expect(paid.json()[PAG].error).toBeUndefined();
    expect(await failures()).toBe(0);
  });
});
