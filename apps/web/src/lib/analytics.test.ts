import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from './app-store';
import { pageName, paymentResult, reportAudit, track } from './analytics';

afterEach(() => {
  window.dataLayer = [];
  vi.unstubAllGlobals();
});

describe('analytics', () => {
  it('pushes events on the data layer', () => {
    track({ event: 'family_selected', family: 'PC' });
    paymentResult('PM', 'webpay', 'approved');
    expect(window.dataLayer).toEqual([
      { event: 'family_selected', family: 'PC' },
      { event: 'payment_result', family: 'PM', method: 'webpay', outcome: 'approved' },
    ]);
  });

  it('never names a transaction in a page view', () => {
    expect(pageName('/pagoexpress/successvoucher/0123456789abcdef0123456789abcdef')).toBe('/pagoexpress/successvoucher/:idtrx');
    expect(pageName('/pagoexpress/steptwo/PC')).toBe('/pagoexpress/steptwo/PC');
    expect(pageName('/comprobante/verificar/ABCDEFGHIJKLMNOPQRST')).toBe('/comprobante/verificar/:codigo');
  });

  it('reports to the audit call with sendBeacon, as JSON, with the member’s RUT for the server to mask', async () => {
    const sendBeacon = vi.fn(() => true);
    vi.stubGlobal('navigator', { ...navigator, sendBeacon });
    useAppStore.getState().setCustomer({ rut: '11111111-1', rememberMe: false });
    reportAudit({ origen: '/pagoexpress/error', destino: 'error', nivel: 'WARN', detalle: 'pagina error' });
    const [url, blob] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe('/prod/auditoria/guardarlog');
    expect(blob.type).toBe('application/json');
    // jsdom's Blob has no text(): read it the way older browsers do.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    expect(JSON.parse(text)).toEqual({
      guardarLogRequest: { idPlataforma: 'PGEX-WEB', origenLlamada: '/pagoexpress/error', destinoLlamada: 'error', nivelLog: 'WARN', detalleLog: 'pagina error', rut: '11111111-1' },
    });
  });
});
