// Call 11, the browser's reports (spec §7.11). Its schemas are in schemas/call-guardarlog.ts.

export const GUARDAR_LOG_PATH = '/prod/auditoria/guardarlog';
export const GUARDAR_LOG_REQUEST = 'guardarLogRequest';
export const GUARDAR_LOG_RESPONSE = 'guardarLogResponse';

export const NIVELES_LOG = ['INFO', 'WARN', 'ERROR'] as const;

/**
 * Removes what must never reach a log: e-mail addresses, RUT-like numbers (with or without dots), long digit runs
 * (tokens, card or account numbers) and long opaque strings (tokens).
 */
export function scrubLogText(text: string): string {
  return text
    .replace(/[^\s@]+@[^\s@]+\.[^\s@]+/g, '[correo]')
    .replace(/[A-Za-z0-9_-]{24,}/g, '[token]')
    .replace(/\b\d{1,2}\.?\d{3}\.?\d{3}-?[\dkK]\b/g, '[rut]')
    .replace(/\d{6,}/g, '[número]');
}
