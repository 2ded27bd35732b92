import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseOwnAccount, continueToStepThree, enterRut, reachStepTwo, setUpProduct } from './support/journeys';
import { E2E_ADMIN_TOKEN } from './support/product';

// The data-layer events of docs/analytics.md, and the audit reports of call 11, as a member's browser sends them.
describe('analytics and audit reports', () => {
  const { product, open } = setUpProduct();
  let page: Page;

  const dataLayer = () => page.evaluate(() => (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []);

  it('pushes screen views and the member’s choices, with no personal data', async () => {
    page = await open();
    await reachStepTwo(page, '111111111', 'Crédito MYPE', { category: 'PM' });
    await continueToStepThree(page, 'Pagar cuotas', 'PM');
    await chooseOwnAccount(page);

    // The method page pushes its view once it has rendered: wait for it rather than read at once.
    await expect.poll(async () => (await dataLayer()).some((e) => e.page === '/pagoexpress/PM/coopmethodpay')).toBe(true);
    const events = await dataLayer();
    expect(events).toEqual(
      expect.arrayContaining([
        { event: 'page_view', page: '/' },
        { event: 'page_view', page: '/pagoonline/stepone' },
        { event: 'family_selected', family: 'PM' },
        { event: 'page_view', page: '/pagoexpress/steptwo/PM' },
        { event: 'payment_method_selected', family: 'PM', method: 'cuenta_vista' },
        { event: 'page_view', page: '/pagoexpress/PM/coopmethodpay' },
      ]),
    );
    const text = JSON.stringify(events);
    expect(text).not.toMatch(/11\.?111\.?111|\$|156\.?300|630055667788|token/i);
  });

  it('reports an error page to the data layer and to the audit trail (call 11)', async () => {
    await product().setParameter('Mantencion', '1');
    try {
      page = await open();
      await enterRut(page, '123456785');
      await page.waitForURL('**/pagoexpress/maintenance');
      await expect.poll(async () => (await dataLayer()).some((e) => e.event === 'error_page_reached' && e.page === 'maintenance')).toBe(true);
      const audit = async () => {
        const res = await fetch(`${product().baseUrl}/admin/auditoria?kind=navegador.log`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
        return ((await res.json()) as { operacionesResponse: { eventos: { rutMasked: string; detail: Record<string, string> }[] } }).operacionesResponse.eventos;
      };
      await expect.poll(async () => (await audit()).length, { timeout: 10_000 }).toBeGreaterThan(0);
      const [entry] = await audit();
      expect(entry?.detail).toMatchObject({ destino: 'maintenance', nivel: 'WARN' });
      expect(entry?.rutMasked).toBe('*****678-5');
    } finally {
      await product().setParameter('Mantencion', '0');
    }
  });
});
