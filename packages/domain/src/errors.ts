import { CALL_NAMES, type CallName } from './call-names';

// The error catalogue and the texts of spec §8, as plain data; the catalogue's schemas are in schemas/errors.ts.

// Spec §8 texts, verbatim: screens and end-to-end tests look for them character by character.
export const GENERIC_SERVICE_MESSAGE =
  'En estos momentos nuestros servicios no están disponibles. Vuelve a intentarlo más tarde.';
export const NO_PRODUCTS_MESSAGE = 'Cliente sin productos disponibles para pago';
export const PAYMENT_FAILED_MESSAGE =
  'No se ha podido realizar el pago de tus productos. Por favor vuelve a intentarlo.';
export const EMAIL_FAILED_MESSAGE =
  'No se ha podido realizar el envío de su comprobante, vuelva a intentarlo nuevamente';
export const INSUFFICIENT_FUNDS_MESSAGE =
  'Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.';
export const BLOCKED_PASSWORD_MESSAGE = 'Por seguridad tu clave de internet ha sido bloqueada.';
/**
 * Call 4's 45203113 after the second wrong password in a row from one client: the next one blocks the password on
 * that client (decision 032). It counts only that client's own failures, which its answers already show.
 */
export const LAST_PASSWORD_ATTEMPT_MESSAGE =
  'RUT o clave incorrecta. Te queda 1 intento: si la clave vuelve a ser incorrecta, se bloqueará por seguridad.';
export const COORDINATES_MISMATCH_MESSAGE = 'Las coordenadas no corresponden. Por favor, intenta nuevamente.';
export const INSTALMENT_ORDER_MESSAGE = 'Debes seleccionar desde la cuota más antigua a la más nueva';
export const MAX_INSTALMENTS_MESSAGE = 'Excedes el máximo de cuotas';
export const AUTHORISER_INVALID_CODE_MESSAGE = 'Código de confirmación inválido.';

/** maskedEmail must already be masked (spec §9: after the first 3 characters of the local part). */
export function emailSentMessage(maskedEmail: string): string {
  return `Su comprobante ha sido enviado con éxito al correo ${maskedEmail}`;
}

/** The { codigo, descripcion } pair every error carries on the wire (DESIGN §3). */
export interface DetalleError {
  codigo: string;
  descripcion: string;
}

/** An entry of the catalogue: its text for the member, and when and from which calls the server raises it. */
export interface ErrorEntry extends DetalleError {
  situacion: string;
  llamadas: readonly CallName[];
}

const ALL_CALLS = CALL_NAMES;
const TRANSACTION_CALLS = [
  'cuentavista/autentica',
  'cuentavista/autorizar',
  'cuentavista/pagar',
  'pagoexpress/auth',
  'pagoexpress/initMall',
] as const satisfies readonly CallName[];
const SESSION_CALLS = [
  'producto/seleccionar',
  ...TRANSACTION_CALLS,
  'pago/consultar',
  'notificaciones/enviar',
] as const satisfies readonly CallName[];

// Keys are numeric strings, so iteration order is numeric ascending whatever the order written here.
const ENTRIES = {
  // Any call.
  '400': {
    descripcion: 'Solicitud inválida.',
    situacion: 'The request body fails its schema (HTTP 400).',
    llamadas: ALL_CALLS,
  },
  '415': {
    descripcion: 'No pudimos procesar tu solicitud. Por favor, vuelve a intentarlo.',
    situacion: 'The request content type is not application/json (HTTP 415).',
    llamadas: ALL_CALLS,
  },
  '500': {
    descripcion: 'Ha ocurrido un error inesperado. Por favor, vuelve a intentarlo más tarde.',
    situacion: 'Unexpected fault in the server (HTTP 500); the body carries no stack trace or SQL.',
    llamadas: ALL_CALLS,
  },
  '502': {
    descripcion: 'No pudimos comunicarnos con uno de nuestros servicios. Por favor, vuelve a intentarlo más tarde.',
    situacion: 'An upstream service (Webpay, the mail server) failed or answered something unexpected, or the core banking system refused an own-account debit for a reason other than the balance.',
    llamadas: ['pago/consultar', 'notificaciones/enviar', 'pagoexpress/auth', 'pagoexpress/initMall', 'cuentavista/pagar'],
  },
  '503': {
    descripcion: GENERIC_SERVICE_MESSAGE,
    situacion:
      'Service unavailable: database or a dependency down, the core banking system gave no answer to an own-account debit (it is asked again), or the coordinate/authoriser service cannot answer.',
    llamadas: ALL_CALLS,
  },
  '514': {
    descripcion: 'Has realizado demasiadas solicitudes. Espera un momento y vuelve a intentarlo.',
    situacion: 'Too many requests from this client or for this RUT (rate limit).',
    llamadas: ALL_CALLS,
  },
  '999': {
    descripcion: 'El servicio a excedido su tiempo de espera.',
    situacion: 'An internal step (challenge issue, coordinate check, mobile push) did not answer in time.',
    llamadas: ['cuentavista/autorizar', 'cuentavista/pagar'],
  },

  // Session and captcha.
  '476': {
    descripcion: 'Tu sesión ha expirado. Por favor, ingresa nuevamente tu RUT.',
    situacion: 'Session token missing, invalid or expired, or not bound to the RUT in the body.',
    llamadas: SESSION_CALLS,
  },
  '482': {
    descripcion: 'No pudimos verificar tu solicitud. Por favor, vuelve a intentarlo.',
    situacion: 'Captcha token missing, invalid or already used.',
    llamadas: ['producto/listar', 'cuentavista/autentica'],
  },

  // Product list.
  '41027': {
    descripcion:
      'Estimado(a), el RUT ingresado no corresponde a un socio de la cooperativa. Para más información, acércate a una de nuestras sucursales.',
    situacion: 'The RUT is not a member of the cooperative.',
    llamadas: ['producto/listar', 'producto/seleccionar'],
  },
  '47501': {
    descripcion:
      'Estimado(a), tus productos se están actualizando. Por favor, vuelve a intentarlo en unos minutos.',
    situacion: "The member's products are being updated; temporary informative notice.",
    llamadas: ['producto/listar'],
  },
  '47883': {
    descripcion: 'Estimado(a), para pagar tus productos debes acercarte a una de nuestras sucursales.',
    situacion: 'The member must be attended at a branch; no online payment.',
    llamadas: ['producto/listar'],
  },
  '465': {
    descripcion:
      'Estimado(a), tienes un convenio de pago vigente. Para más información, comunícate con nosotros o acércate a una de nuestras sucursales.',
    situacion: 'The member has a payment agreement in force (informative).',
    llamadas: ['producto/listar'],
  },
  '492': {
    descripcion:
      'Estimado(a), ya tienes un pago en proceso. Espera unos minutos antes de realizar un nuevo pago.',
    situacion: 'A payment of this member is already in process.',
    llamadas: ['producto/listar'],
  },

  // Product selection.
  '47678': {
    descripcion: 'Uno de los productos seleccionados no corresponde al RUT ingresado.',
    situacion: 'A selected product does not belong to the member.',
    llamadas: ['producto/seleccionar'],
  },
  '49010': {
    descripcion: 'El pago de este producto no se encuentra habilitado en este momento.',
    situacion: 'The family is switched off (switch parameter 0) or not enabled for payment.',
    llamadas: ['producto/seleccionar'],
  },
  '4953': {
    descripcion:
      'El pago de este producto no está disponible en este horario. Por favor, vuelve a intentarlo a partir de las 02:00 hrs.',
    situacion: "Outside the family's payment hours (spec §9, America/Santiago).",
    llamadas: ['producto/seleccionar'],
  },
  '461': {
    descripcion: INSTALMENT_ORDER_MESSAGE,
    situacion: 'Instalments not selected from the oldest to the newest.',
    llamadas: ['producto/seleccionar', 'cuentavista/pagar'],
  },
  '463': {
    descripcion: 'El monto ingresado no es válido o excede el monto pendiente.',
    situacion: 'An amount is above the pending amount, or not a valid amount.',
    llamadas: ['producto/seleccionar'],
  },
  '505': {
    descripcion: 'El monto ingresado está fuera de los límites permitidos.',
    situacion:
      'Savings deposit outside 1.000 <= amount < 5.000.000, a card or partial amount outside its limits, or card deposits into one savings account past topeDepositoWebPayAH in 24 hours.',
    llamadas: ['producto/seleccionar', 'pagoexpress/initMall'],
  },
  '474': {
    descripcion: MAX_INSTALMENTS_MESSAGE,
    situacion: 'CP instalment count above the accumulated instalments.',
    llamadas: ['producto/seleccionar'],
  },
  '464': {
    descripcion: 'El monto a abonar es menor al mínimo permitido o este producto no admite abonos.',
    situacion: 'Partial payment below montoMinimoAbonoMultiple, or partial payment not allowed.',
    llamadas: ['producto/seleccionar'],
  },
  '477': {
    descripcion: 'Debes seleccionar al menos un producto con un monto mayor a $0.',
    situacion: 'The selection is empty or its total is 0.',
    llamadas: ['producto/seleccionar'],
  },
  '451': {
    descripcion: 'No es posible realizar un depósito en la cuenta de ahorro de otro socio.',
    situacion: "Deposit into another member's savings account refused (payer RUT differs from the account holder).",
    llamadas: ['cuentavista/autentica', 'cuentavista/autorizar', 'cuentavista/pagar'],
  },

  // Transaction.
  '515': {
    descripcion: 'No encontramos la transacción solicitada.',
    situacion: 'Transaction not found, or not owned by the session.',
    llamadas: [...TRANSACTION_CALLS, 'pago/consultar'],
  },
  '466': {
    descripcion: 'La transacción ha expirado. Por favor, inicia un nuevo pago.',
    situacion: 'The transaction expired before being paid.',
    llamadas: TRANSACTION_CALLS,
  },
  '442': {
    descripcion: 'Esta transacción ya fue pagada o se encuentra cerrada.',
    situacion: 'The transaction is already paid, rejected or cancelled.',
    llamadas: TRANSACTION_CALLS,
  },
  '443': {
    descripcion:
      'Ya hay un pago en curso de lo que seleccionaste, iniciado en otra ventana o sesión. Para no pagarlo dos veces, espera unos minutos y revisa tus productos antes de volver a pagar.',
    situacion:
      "An instalment selected is in another transaction's payment under way: an own-account debit posting, or a Webpay form opened within WEBPAY_SETTLE_AFTER_SECONDS (after that the reconciliation settles it and the instalment is free again). Checked at the selection and again at every later call of the payment, so a form opened in another tab after this selection stops this payment before it charges.",
    llamadas: ['producto/seleccionar', 'cuentavista/autentica', 'cuentavista/autorizar', 'cuentavista/pagar', 'pagoexpress/auth', 'pagoexpress/initMall'],
  },
  '423': {
    descripcion: 'Tu pago se está procesando. Espera unos segundos y vuelve a intentarlo.',
    situacion: 'The transaction is being processed by another request (locked).',
    llamadas: ['cuentavista/pagar', 'pagoexpress/auth', 'pagoexpress/initMall'],
  },

  // Own account: login, challenge, payment.
  '45203113': {
    descripcion: 'RUT o clave incorrecta. Por favor, verifica tus datos e intenta nuevamente.',
    situacion: 'Wrong RUT or password.',
    llamadas: ['cuentavista/autentica', 'cuentavista/autorizar'],
  },
  '45203016': {
    descripcion: BLOCKED_PASSWORD_MESSAGE,
    situacion: 'The internet password is blocked (too many consecutive failures).',
    llamadas: ['cuentavista/autentica'],
  },
  '440': {
    descripcion: 'Tu ingreso ha expirado. Por favor, ingresa nuevamente tu RUT y clave.',
    situacion: 'Login step missing or expired before requesting a challenge.',
    llamadas: ['cuentavista/autorizar', 'cuentavista/pagar'],
  },
  '45203017': {
    descripcion:
      'Tu tarjeta de coordenadas se encuentra bloqueada. Comunícate con nosotros o acércate a una de nuestras sucursales.',
    situacion: 'Coordinate card blocked when requesting a challenge.',
    llamadas: ['cuentavista/autorizar'],
  },
  '5203002': {
    descripcion: 'No tienes una tarjeta de coordenadas asociada a tu cuenta.',
    situacion: 'Challenge requested (factor 1) but the payer has no coordinate card.',
    llamadas: ['cuentavista/autorizar'],
  },
  '5203004': {
    descripcion: 'Ud. no se encuentra registrado.',
    situacion: 'The payer is not enrolled in the requested second factor.',
    llamadas: ['cuentavista/autorizar', 'cuentavista/pagar'],
  },
  '5203016': {
    descripcion: 'Tu tarjeta de coordenadas se encuentra bloqueada. Solicítala nuevamente en la app.',
    situacion: 'Coordinate card blocked in a way the member can undo by requesting it again in the app.',
    llamadas: ['cuentavista/autorizar'],
  },
  '5203040': {
    descripcion:
      'No tienes una tarjeta de coordenadas activa o se encuentra bloqueada. Por favor, acércate a una de nuestras sucursales.',
    situacion: 'No active coordinate card, or one blocked so that only a branch can replace it.',
    llamadas: ['cuentavista/autorizar'],
  },
  '485': {
    descripcion: 'Ud. debe solicitar antes las coordenadas para poder validarlas.',
    situacion: 'Coordinates sent to pay without a challenge having been issued for this transaction.',
    llamadas: ['cuentavista/pagar'],
  },
  '5203007': {
    descripcion: COORDINATES_MISMATCH_MESSAGE,
    situacion: 'The coordinate values do not match the challenge.',
    llamadas: ['cuentavista/pagar'],
  },
  '5203000': {
    descripcion: COORDINATES_MISMATCH_MESSAGE,
    situacion: 'Same meaning as 5203007 (spec §8 handles both alike); the server raises 5203007 for a mismatch.',
    llamadas: ['cuentavista/pagar'],
  },
  '5203017': {
    descripcion:
      'Tu tarjeta de coordenadas ha sido bloqueada por exceder el número de intentos permitidos.',
    situacion: 'Coordinate card blocked by this failed attempt (too many wrong coordinates).',
    llamadas: ['cuentavista/pagar'],
  },
  '47203': {
    descripcion: INSUFFICIENT_FUNDS_MESSAGE,
    situacion: 'The checking-account balance is below the total to pay.',
    llamadas: ['cuentavista/pagar'],
  },
  '7203': {
    descripcion: INSUFFICIENT_FUNDS_MESSAGE,
    situacion: 'Same meaning as 47203 (spec §8 handles them alike); the server raises 47203 for insufficient funds.',
    llamadas: ['cuentavista/pagar'],
  },
  '7905': {
    descripcion: INSUFFICIENT_FUNDS_MESSAGE,
    situacion: 'Same meaning as 47203 (spec §8 handles them alike); the server raises 47203 for insufficient funds.',
    llamadas: ['cuentavista/pagar'],
  },

  // Voucher.
  '516': {
    descripcion: 'No encontramos el comprobante de esta transacción.',
    situacion: 'Voucher not found for this session.',
    llamadas: ['pago/consultar', 'notificaciones/enviar'],
  },
  '509': {
    descripcion: 'Tu pago aún se está procesando. El comprobante estará disponible en unos momentos.',
    situacion: 'The payment is still in process; the voucher is not available yet.',
    llamadas: ['pago/consultar', 'notificaciones/enviar'],
  },

  // The mobile authoriser's device calls (docs/authoriser.md).
  '520': {
    descripcion: AUTHORISER_INVALID_CODE_MESSAGE,
    situacion: 'The enrolment code is unknown, already used or expired, or the enrolment is not signed by the key it registers.',
    llamadas: ['autorizador/enrolar'],
  },
  '521': {
    descripcion: 'Este dispositivo no está registrado. Regístralo nuevamente en la app.',
    situacion: 'The device is unknown or was revoked (by the operator, or by a newer enrolment of its member).',
    llamadas: ['autorizador/pendientes', 'autorizador/decision'],
  },
  '522': {
    descripcion: 'No pudimos verificar la firma de este dispositivo.',
    situacion: "The signature does not verify with the device's key over the message the server rebuilds (another amount, transaction, nonce or decision), or the request's time is more than 120 s from the server's.",
    llamadas: ['autorizador/pendientes', 'autorizador/decision'],
  },
  '523': {
    descripcion: 'La solicitud ya no está pendiente.',
    situacion: "The payment request was already decided, expired, or is not one of this device's member.",
    llamadas: ['autorizador/decision'],
  },
} as const satisfies Record<string, Omit<ErrorEntry, 'codigo'>>;

export type ErrorCode = keyof typeof ENTRIES;

/** Every code of the catalogue, ascending. */
export const ERROR_CODES = /* @__PURE__ */ Object.keys(ENTRIES) as ErrorCode[];

/** The list spec §8 calls "Known codes"; the catalogue holds these and every other code §8 names. */
export const SPEC_KNOWN_CODES = [
  '41027', '47501', '47883', '465', '482', '400', '476', '514', '515', '5203007', '477', '45203113', '47203',
  '451', '516', '415', '423', '440', '442', '461', '463', '464', '466', '474', '492', '500', '502', '503', '505',
  '509', '999', '4953', '47678', '49010',
] as const satisfies readonly ErrorCode[];

export const ERROR_CATALOGUE: Readonly<Record<string, ErrorEntry>> = /* @__PURE__ */ Object.freeze(
  Object.fromEntries(ERROR_CODES.map((codigo) => [codigo, Object.freeze({ codigo, ...ENTRIES[codigo] })])),
);

export function isKnownCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ENTRIES, code);
}

/** Throws for a code outside the catalogue: the server raises catalogue codes only. */
export function errorDetail(code: string): DetalleError {
  if (!isKnownCode(code)) throw new Error(`Error code ${code} is not in the catalogue`);
  return { codigo: code, descripcion: ENTRIES[code].descripcion };
}

// Mobile-app authoriser (factor 2). Its codes are the authoriser's own, not the calls'.

export const AUTHORISER_CANCELLED_MESSAGE =
  'Ha cancelado la operación. Si desconoce su origen, por favor contáctenos';
// The ellipsis is in the spec's text.
export const AUTHORISER_REJECTED_MESSAGE = 'La autorización desde tu celular ha sido rechazada, reintenta…';
export const AUTHORISER_TIMEOUT_MESSAGE = 'Tienes un tiempo limitado para autorizar, inténtalo nuevamente.';
export const AUTHORISER_DEFAULT_MESSAGE =
  'En este momento nuestro servicio no se encuentra disponible. Vuelve a intentarlo más tarde.';

/** product is the name after 'Pass' as the member knows it, e.g. 'Coop' for 'PassCoop'. */
export function authoriserBlockedMessage(product: string): string {
  return `Pass${product} está bloqueada. Regístrate nuevamente en la app.`;
}

export const AUTHORISER_BLOCKED_CODE = '7';
export const AUTHORISER_REJECTED_CODE = '8';
export const AUTHORISER_INVALID_CODE_CODE = '50';
/** Code 25 says nothing final, so the countdown and polling go on. */
export const AUTHORISER_IGNORED_CODE = '25';
export type AuthoriserCode =
  | typeof AUTHORISER_BLOCKED_CODE
  | typeof AUTHORISER_REJECTED_CODE
  | typeof AUTHORISER_INVALID_CODE_CODE
  | typeof AUTHORISER_IGNORED_CODE;
/** What a service may refuse with: a catalogue code, or the mobile authoriser's own. */
export type RefusalCode = ErrorCode | AuthoriserCode;
/** Not a code from the wire: the state the 120-second countdown leaves behind, for both factors. */
export const AUTHORISATION_TIMEOUT = 'timeout';

/**
 * null means "ignore and keep waiting". Code 8 has two texts: 'cancelled' when the member cancelled in the app,
 * 'rejected' otherwise.
 */
export function mobileAuthoriserMessage(
  code: string,
  product: string,
  outcome: 'cancelled' | 'rejected' = 'rejected',
): string | null {
  switch (code) {
    case AUTHORISER_BLOCKED_CODE:
      return authoriserBlockedMessage(product);
    case AUTHORISER_REJECTED_CODE:
      return outcome === 'cancelled' ? AUTHORISER_CANCELLED_MESSAGE : AUTHORISER_REJECTED_MESSAGE;
    case AUTHORISER_INVALID_CODE_CODE:
      return AUTHORISER_INVALID_CODE_MESSAGE;
    case AUTHORISER_IGNORED_CODE:
      return null;
    case AUTHORISATION_TIMEOUT:
      return AUTHORISER_TIMEOUT_MESSAGE;
    default:
      return AUTHORISER_DEFAULT_MESSAGE;
  }
}

// Coordinate card (factor 1).

export interface CoordinateCardMessage {
  descripcion: string;
  /** Spec §8: retry for timeout, mismatch, no request, unavailable, time exceeded and default. */
  retryable: boolean;
}

function fromCatalogue(code: ErrorCode, retryable: boolean): CoordinateCardMessage {
  return Object.freeze({ descripcion: ENTRIES[code].descripcion, retryable });
}

export const COORDINATE_CARD_MESSAGES: Readonly<Record<string, CoordinateCardMessage>> = /* @__PURE__ */ Object.freeze({
  '503': fromCatalogue('503', true),
  '999': fromCatalogue('999', true),
  '5203004': fromCatalogue('5203004', false),
  '5203016': fromCatalogue('5203016', false),
  '5203040': fromCatalogue('5203040', false),
  '5203002': fromCatalogue('5203002', false),
  '5203017': fromCatalogue('5203017', false),
  '5203007': fromCatalogue('5203007', true),
  '5203000': fromCatalogue('5203000', true),
  '485': fromCatalogue('485', true),
  [AUTHORISATION_TIMEOUT]: Object.freeze({ descripcion: AUTHORISER_TIMEOUT_MESSAGE, retryable: true }),
});

export const COORDINATE_CARD_DEFAULT_MESSAGE: CoordinateCardMessage = /* @__PURE__ */ Object.freeze({
  descripcion: AUTHORISER_DEFAULT_MESSAGE,
  retryable: true,
});

export function coordinateCardMessage(code: string): CoordinateCardMessage {
  return Object.hasOwn(COORDINATE_CARD_MESSAGES, code)
    ? (COORDINATE_CARD_MESSAGES[code] ?? COORDINATE_CARD_DEFAULT_MESSAGE)
    : COORDINATE_CARD_DEFAULT_MESSAGE;
}
