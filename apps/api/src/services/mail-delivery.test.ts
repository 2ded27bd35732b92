import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { mailQueue } from '../db/schema';
import { startSmtpSink, type SmtpSink } from '../../test/support/smtp-sink';
import { anotherReplica, appPerTest, DATABASE_KINDS, TEST_ADMIN_TOKEN } from '../../test/support/test-app';
import { createMailDelivery, MAIL_MAX_ATTEMPTS } from './mail-delivery';

let smtp: SmtpSink = await startSmtpSink();
const port = Number(new URL(smtp.url).port);
afterAll(() => smtp.close());

describe.each(DATABASE_KINDS)('queued e-mails on %s', (kind) => {
  const t = appPerTest(kind, { config: { smtpUrl: smtp.url } });

  /** A load that replaces 19.191.919-K's e-mail: one notice queued to the old address. */
  const queueNotice = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/importacion',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { corte: new Date().toISOString(), socios: [{ rut: '19191919-K', nombre: 'Sofía Herrera Campos', correo: `nueva.${crypto.randomUUID()}@example.com` }] },
    });
    expect(res.json().operacionesResponse.aceptados).toBe(1);
  };
  const queued = async () => (await t.database.db.select().from(mailQueue))[0]!;
  const sentTo = () => smtp.received.filter((m) => m.to && 'text' in m.to && m.to.text === 'sofia.herrera@example.cl').length;

  it('keeps an e-mail the mail server did not take, with why but not to whom, and sends it on a later try', async () => {
    await queueNotice();
    await smtp.close();
    await t.app.scheduler.runNow('mail-delivery');
    const failed = await queued();
    expect(failed).toMatchObject({ attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/^E[A-Z]+/);
    expect(failed.lastError).not.toContain('@');
    // Not due again for a while: another run leaves it alone.
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await t.app.scheduler.runNow('mail-delivery');
    expect((await queued()).attempts).toBe(1);

    // The mail server back, empty, where the app sends.
    smtp = await startSmtpSink(port);
    await t.database.db.update(mailQueue).set({ nextAttemptAt: sql`now()` });
    await t.app.scheduler.runNow('mail-delivery');
    expect(await queued()).toMatchObject({ attempts: 2, lastError: null, sentAt: expect.any(Date) });
    expect(sentTo()).toBe(1);
  });

  it('sends each e-mail once when two replicas run the job together, and gives one up after its last try', async () => {
    await queueNotice();
    const before = sentTo();
    const other = createMailDelivery(anotherReplica(kind, t.database.db), t.app.services.mailer, t.app.log);
    const outcomes = await Promise.all([t.app.services.mailDelivery.deliverDue(), other.deliverDue()]);
    expect(outcomes.map((o) => o.sent).sort()).toEqual([0, 1]);
    expect(sentTo()).toBe(before + 1);

    await queueNotice();
    const [late] = await t.database.db.select().from(mailQueue).where(sql`${mailQueue.sentAt} is null`);
    await t.database.db.update(mailQueue).set({ attempts: MAIL_MAX_ATTEMPTS }).where(eq(mailQueue.id, late!.id));
    expect(await t.app.services.mailDelivery.deliverDue()).toEqual({ sent: 0, failed: 0 });
  });
});
