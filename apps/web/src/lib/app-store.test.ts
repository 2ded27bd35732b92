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
    store.setCardProvider({ idTrx: 'abc', tokenJWT: 'jwt', tokenWP: 'wp', urlInit: 'https://webpay.example/init' });
    store.setStepTwoDraft({ family: 'CP', choices: { '1': '3' } });
    store.recordPaid('abc', '/pagoexpress/successvoucher/abc');
    useAppStore.getState().reset();
    const { customer, config, customError, infoMessage, methodPay, products, selection, stepTwoDraft, payment, cardProvider, paidVouchers } =
      useAppStore.getState();
    expect({ customer, config, customError, infoMessage, methodPay, products, selection, stepTwoDraft, payment, cardProvider, paidVouchers }).toEqual(
      initialAppData(),
    );
  });

  it('keeps the own-account login with the payment, and a new payment from step 3 drops it', () => {
    const store = useAppStore.getState();
    store.setPayment({ idTrx: 'abc', amount: 100 });
    store.setLogin({ loginResponse: { rut: '19191919-K', account: '0001', factores: [1, 2] }, selectedFactor: 2 });
    expect(useAppStore.getState().payment).toEqual({
      idTrx: 'abc',
      amount: 100,
      loginResponse: { rut: '19191919-K', account: '0001', factores: [1, 2] },
      availableFactors: [1, 2],
      selectedFactor: 2,
    });
    useAppStore.getState().setSelectedFactor(1);
    expect(useAppStore.getState().payment.selectedFactor).toBe(1);
    useAppStore.getState().setPayment({ idTrx: 'def', amount: 200 });
    expect(useAppStore.getState().payment).toEqual({ idTrx: 'def', amount: 200 });
    useAppStore.getState().setLogin({ loginResponse: { rut: '1-9', account: '1', factores: [] }, selectedFactor: null });
    useAppStore.getState().reset();
    expect(useAppStore.getState().payment).toEqual(initialAppData().payment);
  });

  it("startNewPayment (after a voucher's 'Nuevo Pago') keeps the RUT and parameters and forgets the rest", () => {
    const store = useAppStore.getState();
    store.setCustomer({ rut: '12345678-5', rememberMe: false });
    store.setParameters({ sessionTimeOut: '5' });
    store.setSession({ token: 'tok', products: [] });
    store.setSelection({ family: 'PC', productsToPay: [{ productNumber: '1', installment: ['1|100|20261201|A|0'] }], amount: 100 });
    store.setPayment({ idTrx: 'abc', amount: 100 });
    store.setLogin({ loginResponse: { rut: '12345678-5', account: '1', factores: [1] }, selectedFactor: 1 });
    store.recordPaid('abc', '/pagoexpress/successvoucher/abc?factor=TCOO');
    useAppStore.getState().startNewPayment();
    // The voucher stays reachable with the session that paid it.
    expect(useAppStore.getState().paidVouchers).toEqual({ abc: { rut: '12345678-5', token: 'tok', path: '/pagoexpress/successvoucher/abc?factor=TCOO' } });
    const { customer, config, selection, payment, products, methodPay } = useAppStore.getState();
    expect(customer).toEqual({ rut: '12345678-5', rememberMe: false, token: '' });
    expect(config).toEqual({ parameters: { sessionTimeOut: '5' }, isAuthenticated: false });
    expect({ selection, payment, products, methodPay }).toEqual({
      selection: initialAppData().selection,
      payment: initialAppData().payment,
      products: [],
      methodPay: 'coopmethodpay',
    });
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
