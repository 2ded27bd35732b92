import { describe, expect, it } from 'vitest';
import {
  AUTHORISATION_TIMEOUT,
  AUTHORISER_CANCELLED_MESSAGE,
  AUTHORISER_DEFAULT_MESSAGE,
  AUTHORISER_INVALID_CODE_MESSAGE,
  AUTHORISER_REJECTED_MESSAGE,
  AUTHORISER_TIMEOUT_MESSAGE,
  BLOCKED_PASSWORD_MESSAGE,
  COORDINATE_CARD_MESSAGES,
  EMAIL_FAILED_MESSAGE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  GENERIC_SERVICE_MESSAGE,
  INSUFFICIENT_FUNDS_MESSAGE,
  NO_PRODUCTS_MESSAGE,
  PAYMENT_FAILED_MESSAGE,
  SPEC_KNOWN_CODES,
  authoriserBlockedMessage,
  coordinateCardMessage,
  emailSentMessage,
  errorDetail,
  isKnownCode,
  mobileAuthoriserMessage,
} from './errors';
import { errorEntrySchema } from './schemas/errors';

// Copied from spec §8 on purpose: the catalogue must not be the source of its own check.
const KNOWN_CODES = [
  '41027', '47501', '47883', '465', '482', '400', '476', '514', '515', '5203007', '477', '45203113', '47203',
  '451', '516', '415', '423', '440', '442', '461', '463', '464', '466', '474', '492', '500', '502', '503', '505',
  '509', '999', '4953', '47678', '49010',
];
const OTHER_NAMED_CODES = [
  '45203016', '45203017', '5203000', '7203', '7905', '5203004', '5203016', '5203040', '5203002', '5203017', '485',
  // An instalment already in a payment under way in another session (issue 50): refused before anyone pays twice.
  '443',
];
/** The mobile authoriser's device calls, beyond the spec (docs/authoriser.md). */
const AUTHORISER_PROTOCOL_CODES = ['520', '521', '522', '523'];

describe('ERROR_CATALOGUE', () => {
  it('holds every code of spec §8, the authoriser protocol\'s, and nothing else', () => {
    expect([...ERROR_CODES].sort()).toEqual([...KNOWN_CODES, ...OTHER_NAMED_CODES, ...AUTHORISER_PROTOCOL_CODES].sort());
    expect([...SPEC_KNOWN_CODES]).toEqual(KNOWN_CODES);
    for (const code of [...KNOWN_CODES, ...OTHER_NAMED_CODES]) {
      expect(ERROR_CATALOGUE[code], code).toBeDefined();
      expect(isKnownCode(code)).toBe(true);
    }
  });

  it('has unique codes, each entry under its own code', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(new Set(KNOWN_CODES).size).toBe(KNOWN_CODES.length);
    for (const [key, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.codigo).toBe(key);
    }
  });

  it('has a description, a situation and at least one call for every code', () => {
    for (const entry of Object.values(ERROR_CATALOGUE)) {
      expect(errorEntrySchema.parse(entry)).toEqual(entry);
      expect(entry.descripcion.trim()).not.toBe('');
      expect(new Set(entry.llamadas).size).toBe(entry.llamadas.length);
    }
  });

  it.each([
    ['999', 'El servicio a excedido su tiempo de espera.'],
    ['5203007', 'Las coordenadas no corresponden. Por favor, intenta nuevamente.'],
    ['5203000', 'Las coordenadas no corresponden. Por favor, intenta nuevamente.'],
    ['5203004', 'Ud. no se encuentra registrado.'],
    ['485', 'Ud. debe solicitar antes las coordenadas para poder validarlas.'],
    ['47203', 'Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.'],
    ['7203', 'Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.'],
    ['7905', 'Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.'],
    ['45203016', 'Por seguridad tu clave de internet ha sido bloqueada.'],
    ['400', 'Solicitud inválida.'],
    ['461', 'Debes seleccionar desde la cuota más antigua a la más nueva'],
    ['474', 'Excedes el máximo de cuotas'],
    ['503', 'En estos momentos nuestros servicios no están disponibles. Vuelve a intentarlo más tarde.'],
  ])('gives %s the text of the spec', (code, text) => {
    expect(ERROR_CATALOGUE[code]?.descripcion).toBe(text);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(ERROR_CATALOGUE)).toBe(true);
    expect(Object.isFrozen(ERROR_CATALOGUE['999'])).toBe(true);
  });
});

describe('isKnownCode and errorDetail', () => {
  it('give codigo and descripcion for a catalogue code', () => {
    expect(errorDetail('999')).toEqual({ codigo: '999', descripcion: 'El servicio a excedido su tiempo de espera.' });
  });

  it('refuse codes outside the catalogue', () => {
    for (const code of ['', '0', '7', '200', '99999', 'toString', '__proto__', 'constructor']) {
      expect(isKnownCode(code)).toBe(false);
      expect(() => errorDetail(code)).toThrow();
    }
    expect(isKnownCode(999)).toBe(false);
  });
});

describe('other messages of spec §8', () => {
  it('are verbatim', () => {
    expect(GENERIC_SERVICE_MESSAGE).toBe(
      'En estos momentos nuestros servicios no están disponibles. Vuelve a intentarlo más tarde.',
    );
    expect(NO_PRODUCTS_MESSAGE).toBe('Cliente sin productos disponibles para pago');
    expect(PAYMENT_FAILED_MESSAGE).toBe(
      'No se ha podido realizar el pago de tus productos. Por favor vuelve a intentarlo.',
    );
    expect(EMAIL_FAILED_MESSAGE).toBe(
      'No se ha podido realizar el envío de su comprobante, vuelva a intentarlo nuevamente',
    );
    expect(emailSentMessage('jua*****@correo.cl')).toBe(
      'Su comprobante ha sido enviado con éxito al correo jua*****@correo.cl',
    );
    expect(INSUFFICIENT_FUNDS_MESSAGE).toBe(
      'Tu saldo es insuficiente. Abona saldo a tu cuenta o selecciona otro medio de pago.',
    );
    expect(BLOCKED_PASSWORD_MESSAGE).toBe('Por seguridad tu clave de internet ha sido bloqueada.');
  });
});

describe('mobileAuthoriserMessage', () => {
  it('maps the authoriser codes of spec §8', () => {
    expect(mobileAuthoriserMessage('7', 'Coop')).toBe('PassCoop está bloqueada. Regístrate nuevamente en la app.');
    expect(authoriserBlockedMessage('Coop')).toBe('PassCoop está bloqueada. Regístrate nuevamente en la app.');
    expect(mobileAuthoriserMessage('8', 'Coop')).toBe(AUTHORISER_REJECTED_MESSAGE);
    expect(mobileAuthoriserMessage('8', 'Coop', 'cancelled')).toBe(AUTHORISER_CANCELLED_MESSAGE);
    expect(AUTHORISER_CANCELLED_MESSAGE).toBe(
      'Ha cancelado la operación. Si desconoce su origen, por favor contáctenos',
    );
    expect(AUTHORISER_REJECTED_MESSAGE).toBe('La autorización desde tu celular ha sido rechazada, reintenta…');
    expect(mobileAuthoriserMessage('50', 'Coop')).toBe('Código de confirmación inválido.');
    expect(AUTHORISER_INVALID_CODE_MESSAGE).toBe('Código de confirmación inválido.');
    expect(mobileAuthoriserMessage('25', 'Coop')).toBeNull();
    expect(mobileAuthoriserMessage(AUTHORISATION_TIMEOUT, 'Coop')).toBe(
      'Tienes un tiempo limitado para autorizar, inténtalo nuevamente.',
    );
    expect(mobileAuthoriserMessage('1234', 'Coop')).toBe(
      'En este momento nuestro servicio no se encuentra disponible. Vuelve a intentarlo más tarde.',
    );
  });
});

describe('coordinateCardMessage', () => {
  it('offers retry for timeout, mismatch, no request, unavailable, time exceeded and default', () => {
    const retryable = ['timeout', '5203007', '5203000', '485', '503', '999', 'unknown'];
    const final = ['5203004', '5203016', '5203040', '5203002', '5203017'];
    for (const code of retryable) expect(coordinateCardMessage(code).retryable, code).toBe(true);
    for (const code of final) expect(coordinateCardMessage(code).retryable, code).toBe(false);
    expect(Object.keys(COORDINATE_CARD_MESSAGES).sort()).toEqual(
      [...retryable.filter((c) => c !== 'unknown'), ...final].sort(),
    );
  });

  it('uses the texts of the spec and of the catalogue', () => {
    expect(coordinateCardMessage('999').descripcion).toBe('El servicio a excedido su tiempo de espera.');
    expect(coordinateCardMessage('5203004').descripcion).toBe('Ud. no se encuentra registrado.');
    expect(coordinateCardMessage('5203000').descripcion).toBe(
      'Las coordenadas no corresponden. Por favor, intenta nuevamente.',
    );
    expect(coordinateCardMessage('485').descripcion).toBe(
      'Ud. debe solicitar antes las coordenadas para poder validarlas.',
    );
    expect(coordinateCardMessage('timeout').descripcion).toBe(AUTHORISER_TIMEOUT_MESSAGE);
    expect(coordinateCardMessage('toString').descripcion).toBe(AUTHORISER_DEFAULT_MESSAGE);
    for (const [code, message] of Object.entries(COORDINATE_CARD_MESSAGES)) {
      if (code !== 'timeout') expect(message.descripcion).toBe(ERROR_CATALOGUE[code]?.descripcion);
    }
  });
});
