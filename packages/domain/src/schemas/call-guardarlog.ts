import { z } from 'zod';
import { GUARDAR_LOG_REQUEST, NIVELES_LOG } from '../call-guardarlog';

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

export { guardarLogOkSchema } from './answers';
