import type { Decision, Solicitud } from './schemas/call-autorizador';

// The mobile authoriser's protocol (docs/authoriser.md): what the cooperative's app sends and receives, and the exact
// bytes its device key signs. The server rebuilds each signed message from its own records, never from the request.
// The requests' and answers' schemas are in schemas/call-autorizador.ts; their types are offered here too.
export type { Decision, Solicitud };

export const PROTOCOL = 'pago-online-autorizador/v1';

export const ENROLAR_PATH = '/api/autorizador/enrolar';
export const PENDIENTES_PATH = '/api/autorizador/pendientes';
export const DECISION_PATH = '/api/autorizador/decision';
export const ENROLAR_REQUEST = 'enrolarDispositivoRequest';
export const ENROLAR_RESPONSE = 'enrolarDispositivoResponse';
export const PENDIENTES_REQUEST = 'solicitudesPendientesRequest';
export const PENDIENTES_RESPONSE = 'solicitudesPendientesResponse';
export const DECISION_REQUEST = 'decidirSolicitudRequest';
export const DECISION_RESPONSE = 'decidirSolicitudResponse';

/** How far a device's clock may be from the server's when it asks for its pending requests. */
export const DEVICE_CLOCK_SKEW_SECONDS = 120;

// The signed messages: UTF-8 lines joined by '\n', no final line break.
const message = (...lines: string[]) => [PROTOCOL, ...lines].join('\n');

/** Enrolment: proves the device holds the private key of the public key it registers. */
export const enrolmentMessage = (m: { codigo: string; clavePublica: string; nombre: string }) =>
  message('enrolar', `codigo:${m.codigo}`, `clave:${m.clavePublica}`, `nombre:${m.nombre}`);

/** Asking for pending requests: `fecha` as the request sends it. */
export const pendingMessage = (m: { dispositivo: string; fecha: string }) => message('pendientes', `dispositivo:${m.dispositivo}`, `fecha:${m.fecha}`);

/** The decision on one payment, bound to everything the member was shown and to the server's nonce. */
export const decisionMessage = (m: { decision: Decision } & Omit<Solicitud, 'descripcion'>) =>
  message(
    `decision:${m.decision}`,
    `solicitud:${m.solicitud}`,
    `transaccion:${m.idTransaccion}`,
    `monto:${m.monto}`,
    `cuenta:${m.cuenta}`,
    `productos:${m.productos.join(',')}`,
    `rutPagador:${m.rutPagador}`,
    `expira:${m.expira}`,
    `nonce:${m.nonce}`,
  );
