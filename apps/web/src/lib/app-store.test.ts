import { beforeEach, describe, expect, it } from 'vitest';
import { initialAppData, REMEMBERED_RUT_KEY, readRememberedRut, STORE_KEY, useAppStore } from './app-store';

beforeEach(() => {
  useAppStore.getState().reset();
});

describe('app state', () => {
  it("starts with the specification's defaults", () => {
    const { customer, config, customError, infoMessage, methodPay } = useAppStore.getState();
    expect({ customer, config, customError, infoMessage, methodPay }).toEqual({
      customer: { rut: '', rememberMe: false, token: '' },
      config: { parameters: {}, isAuthenticated: false },
      customError: { message: '' },
      infoMessage: null,
      methodPay: 'coopmethodpay',
    });
  });

  it("is kept in sessionStorage under 'pago-online'", () => {
    useAppStore.getState().setParameters({ Mantencion: '0' });
    const stored = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as { state: unknown };
    expect(stored.state).toMatchObject({ config: { parameters: { Mantencion: '0' } } });
  });

  it('reset restores every default', () => {
    const store = useAppStore.getState();
    store.setCustomer({ rut: '12345678-5', rememberMe: false });
    store.setParameters({ Mantencion: '1' });
    store.setCustomError('mensaje');
    store.setInfoMessage({ codigo: '465', descripcion: 'aviso' });
    store.setSession({ token: 'tok', products: [] });
    store.setSelection({ family: 'PC', productsToPay: [{ productNumber: '1', installment: ['1|100|20261201|A|0'] }], amount: 100 });
    store.setPayment({ idTrx: 'abc', amount: 100 });
    store.setMethodPay('webpaymethodpay');
    useAppStore.getState().reset();
    const { customer, config, customError, infoMessage, methodPay, products, selection, payment } = useAppStore.getState();
    expect({ customer, config, customError, infoMessage, methodPay, products, selection, payment }).toEqual(initialAppData());
  });

  it('keeps the RUT in localStorage only with remember-me, and reset does not forget it', () => {
    useAppStore.getState().setCustomer({ rut: '12345678-5', rememberMe: true });
    expect(localStorage.getItem(REMEMBERED_RUT_KEY)).toBe('12345678-5');
    useAppStore.getState().reset();
    expect(readRememberedRut()).toBe('12345678-5');

    useAppStore.getState().setCustomer({ rut: '12345678-5', rememberMe: false });
    expect(localStorage.getItem(REMEMBERED_RUT_KEY)).toBeNull();
    expect(readRememberedRut()).toBe('');
  });
});
