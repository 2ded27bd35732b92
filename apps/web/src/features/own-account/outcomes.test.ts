import {
  AUTHORISER_CANCELLED_MESSAGE,
  AUTHORISER_DEFAULT_MESSAGE,
  AUTHORISER_INVALID_CODE_MESSAGE,
  AUTHORISER_REJECTED_MESSAGE,
  AUTHORISER_TIMEOUT_MESSAGE,
  COORDINATES_MISMATCH_MESSAGE,
  errorDetail,
} from '@pago/domain/errors';
import { describe, expect, it } from 'vitest';
import { AUTHORISER_TIMEOUT, authoriserOutcome, COORDINATE_TIMEOUT, coordinateOutcome } from './outcomes';

const detail = (codigo: string) => ({ codigo, descripcion: `Descripción ${codigo}.` });
const catalogue = (codigo: string) => errorDetail(codigo).descripcion;

describe('coordinate card (factor 1)', () => {
  it.each([
    ['pagar', '5203007', COORDINATES_MISMATCH_MESSAGE, true],
    ['pagar', '5203000', COORDINATES_MISMATCH_MESSAGE, true],
    ['pagar', '485', 'Ud. debe solicitar antes las coordenadas para poder validarlas.', true],
    ['pagar', '999', 'El servicio a excedido su tiempo de espera.', true],
    ['autorizar', '503', catalogue('503'), true],
    ['pagar', '5203017', catalogue('5203017'), false],
    ['autorizar', '5203002', catalogue('5203002'), false],
    ['autorizar', '5203004', 'Ud. no se encuentra registrado.', false],
    ['autorizar', '5203016', catalogue('5203016'), false],
    ['autorizar', '5203040', catalogue('5203040'), false],
  ] as const)('%s %s shows its message (retry: %s)', (call, code, message, retryable) => {
    expect(coordinateOutcome(call, detail(code), 'PC')).toEqual({ kind: 'message', message, retryable: retryable });
  });

  it('a card blocked when asking for cells (45203017) shows the description without retry', () => {
    expect(coordinateOutcome('autorizar', detail('45203017'), 'PC')).toEqual({
      kind: 'message',
      message: 'Descripción 45203017.',
      retryable: false,
    });
  });

  it('a code outside the catalogue gets the default message, with retry', () => {
    expect(coordinateOutcome('pagar', detail('123456'), 'PC')).toEqual({
      kind: 'message',
      message: AUTHORISER_DEFAULT_MESSAGE,
      retryable: true,
    });
  });

  it('440 goes back to the login of the category; insufficient funds to its page', () => {
    expect(coordinateOutcome('autorizar', detail('440'), 'HI')).toEqual({
      kind: 'leave',
      outcome: { kind: 'navigate', to: '/pagoexpress/HI/coopmethodpay' },
    });
    for (const code of ['47203', '7203', '7905']) {
      expect(coordinateOutcome('pagar', detail(code), 'HI')).toEqual({
        kind: 'leave',
        outcome: { kind: 'navigate', to: '/pagoexpress/InsufficientFunds' },
      });
    }
  });

  it('other catalogue codes (expired session, closed transaction) leave for the error page', () => {
    for (const code of ['476', '442', '515', '466']) {
      expect(coordinateOutcome('pagar', detail(code), 'PC')).toEqual({
        kind: 'leave',
        outcome: { kind: 'navigate', to: '/pagoexpress/error' },
      });
    }
  });

  it('the countdown ending is the timeout state, with retry', () => {
    expect(COORDINATE_TIMEOUT).toEqual({ kind: 'message', message: AUTHORISER_TIMEOUT_MESSAGE, retryable: true });
    expect(AUTHORISER_TIMEOUT_MESSAGE).toBe('Tienes un tiempo limitado para autorizar, inténtalo nuevamente.');
  });
});

describe('mobile authoriser (factor 2)', () => {
  it('25 means keep waiting', () => {
    expect(authoriserOutcome('pagar', detail('25'), 'PC')).toEqual({ kind: 'pending' });
  });

  it('8 is the rejection, 50 an invalid code, both with retry', () => {
    expect(authoriserOutcome('pagar', detail('8'), 'PC')).toEqual({
      kind: 'message',
      message: AUTHORISER_REJECTED_MESSAGE,
      retryable: true,
    });
    expect(AUTHORISER_CANCELLED_MESSAGE).not.toBe(AUTHORISER_REJECTED_MESSAGE);
    expect(authoriserOutcome('pagar', detail('50'), 'PC')).toEqual({
      kind: 'message',
      message: AUTHORISER_INVALID_CODE_MESSAGE,
      retryable: true,
    });
  });

  it('7 is the blocked authoriser, named after the product, without retry', () => {
    expect(authoriserOutcome('autorizar', detail('7'), 'PC')).toEqual({
      kind: 'message',
      message: 'PassCoop está bloqueada. Regístrate nuevamente en la app.',
      retryable: false,
    });
  });

  it('a push the server let expire (999) is the timeout; unknown codes the default message', () => {
    expect(authoriserOutcome('pagar', detail('999'), 'PC')).toEqual(AUTHORISER_TIMEOUT);
    expect(AUTHORISER_TIMEOUT).toEqual({ kind: 'message', message: AUTHORISER_TIMEOUT_MESSAGE, retryable: true });
    expect(authoriserOutcome('pagar', detail('77'), 'PC')).toEqual({
      kind: 'message',
      message: AUTHORISER_DEFAULT_MESSAGE,
      retryable: true,
    });
  });

  it('440 and insufficient funds leave as error-routing says; a closed transaction for the error page', () => {
    expect(authoriserOutcome('pagar', detail('440'), 'PM')).toEqual({
      kind: 'leave',
      outcome: { kind: 'navigate', to: '/pagoexpress/error' },
    });
    expect(authoriserOutcome('autorizar', detail('440'), 'PM')).toEqual({
      kind: 'leave',
      outcome: { kind: 'navigate', to: '/pagoexpress/PM/coopmethodpay' },
    });
    expect(authoriserOutcome('pagar', detail('47203'), 'PM')).toEqual({
      kind: 'leave',
      outcome: { kind: 'navigate', to: '/pagoexpress/InsufficientFunds' },
    });
    expect(authoriserOutcome('pagar', detail('442'), 'PM')).toEqual({
      kind: 'leave',
      outcome: { kind: 'navigate', to: '/pagoexpress/error' },
    });
  });
});
