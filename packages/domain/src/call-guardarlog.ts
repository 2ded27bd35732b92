import { z } from 'zod';

export const GUARDAR_LOG_PATH = '/prod/auditoria/guardarlog';
export const GUARDAR_LOG_REQUEST = 'guardarLogRequest';
export const GUARDAR_LOG_RESPONSE = 'guardarLogResponse';

export const NIVELES_LOG = ['INFO', 'WARN', 'ERROR'] as const;

/** Call 11 (spec §7.11): what the browser reports for the audit trail. It carries no userId nor channel. */
export const guardarLogRequestSchema = z
  .object({
    [GUARDAR_LOG_REQUEST]: z
      .object({
        idPlataforma: z.string().min(1).max(32),
        origenLlamada: z.string().min(1).max(120),
        destinoLlamada: z.string().min(1).max(120),
        nivelLog: z.enum(NIVELES_LOG),
        detalleLog: z.string().max(1000),
        rut: z.string().max(12),
      })
      .strict(),
  })
  .strict();
export type GuardarLogRequest = z.infer<typeof guardarLogRequestSchema>;

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

export { guardarLogOkSchema } from './schemas/answers';
