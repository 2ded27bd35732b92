import { useEffect } from 'react';
import type { Family } from '@pago/domain/families';
import { useAppStore } from './app-store';

/**
 * The data-layer events of spec §7 (docs/analytics.md lists them). None carries personal data: no RUT, name,
 * amount, product or account number, token or e-mail — only what was chosen and what happened.
 */
export type AnalyticsEvent =
  | { event: 'page_view'; page: string }
  | { event: 'family_selected'; family: Family }
  | { event: 'payment_method_selected'; family: Family; method: PaymentMethodName }
  | { event: 'payment_result'; family: Family | 'unknown'; method: PaymentMethodName; outcome: PaymentOutcome }
  | { event: 'error_page_reached'; page: ErrorPageName; code?: string };

export type PaymentMethodName = 'cuenta_vista' | 'webpay';
export type PaymentOutcome = 'approved' | 'partial' | 'rejected' | 'cancelled' | 'expired' | 'pending' | 'refunded' | 'refunding' | 'held' | 'insufficient_funds' | 'blocked';
export type ErrorPageName =
  | 'maintenance'
  | 'cierre'
  | 'error'
  | 'customError'
  | 'infomessage'
  | 'informativemessage'
  | 'bloquedUser'
  | 'InsufficientFunds'
  | 'ErrorLogin'
  | 'cancelMessage';

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function track(event: AnalyticsEvent): void {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ ...event });
}

/** A page's name for page_view: the route's path with its ids blanked, never a transaction id or a voucher's code. */
export function pageName(pathname: string): string {
  return pathname.replace(/\/(successvoucher|cancelvoucher)\/[^/]+/, '/$1/:idtrx').replace(/^\/comprobante\/verificar\/[^/]+/, '/comprobante/verificar/:codigo');
}

const AUDIT_PATH = '/prod/auditoria/guardarlog';

/**
 * Call 11: tells the cooperative's audit trail what the member met (an error page, a failed call, a payment's
 * outcome). Best effort and off the member's path: sendBeacon survives the page being left, and where it does not
 * exist (tests, old browsers) nothing is sent. The server masks the RUT and scrubs the detail again.
 */
export function reportAudit(entry: { origen: string; destino: string; nivel: 'INFO' | 'WARN' | 'ERROR'; detalle: string }): void {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  const rut = useAppStore.getState().customer.rut;
  const body = {
    guardarLogRequest: {
      idPlataforma: 'PGEX-WEB',
      origenLlamada: entry.origen.slice(0, 120),
      destinoLlamada: entry.destino.slice(0, 120),
      nivelLog: entry.nivel,
      detalleLog: entry.detalle.slice(0, 1000),
      rut: rut.slice(0, 12),
    },
  };
  try {
    navigator.sendBeacon(AUDIT_PATH, new Blob([JSON.stringify(body)], { type: 'application/json' }));
  } catch {
    // The audit report must never break the member's screen.
  }
}

/** An error page was reached: one data-layer event and one audit report, once per visit. */
export function useErrorPageReached(page: ErrorPageName, code?: string): void {
  useEffect(() => {
    track({ event: 'error_page_reached', page, ...(code ? { code } : {}) });
    reportAudit({ origen: window.location.pathname, destino: page, nivel: 'WARN', detalle: `pagina ${page}${code ? ` codigo ${code}` : ''}` });
    // Once per visit: the page and code do not change while it is shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** A payment's outcome is known. */
export function paymentResult(family: Family | null, method: PaymentMethodName, outcome: PaymentOutcome): void {
  track({ event: 'payment_result', family: family ?? 'unknown', method, outcome });
  reportAudit({ origen: window.location.pathname, destino: `pago ${method}`, nivel: outcome === 'approved' ? 'INFO' : 'WARN', detalle: `resultado ${outcome}` });
}
