import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store';
import { cardPaymentState, ID, renderAt } from './card-test-kit';
import { WebpayResultPage } from './webpay-result-page';

const enter = (search: string) =>
  renderAt(`/pagoexpress/webpayresult${search}`, '/pagoexpress/webpayresult', <WebpayResultPage />);

beforeEach(() => {
  useAppStore.getState().reset();
  cardPaymentState();
});

describe('webpayresult: the return from Webpay', () => {
  it.each([
    ['aprobado', `/pagoexpress/successvoucher/${ID}?categoria=PM&factor=WEBPAY`],
    ['parcial', `/pagoexpress/webpayfinal?idTransaccion=${ID}`],
    ['pendiente', `/pagoexpress/webpayfinal?idTransaccion=${ID}&estado=pendiente`],
    ['rechazado', `/pagoexpress/cancelvoucher/${ID}`],
    ['anulado', `/pagoexpress/cancelvoucher/${ID}?estado=anulado`],
    ['expirado', `/pagoexpress/cancelvoucher/${ID}?estado=expirado`],
  ])('estado=%s replaces itself with %s', async (estado, to) => {
    const { location, navigation } = enter(`?estado=${estado}&idTransaccion=${ID}`);
    await waitFor(() => expect(location()).toBe(to));
    // In place of this page, and once more after it: Back shows the outcome again rather than Webpay's form.
    expect(navigation()).toBe('PUSH');
  });

  it.each([
    ['estado=error', '?estado=error'],
    ['an unknown estado', `?estado=ok&idTransaccion=${ID}`],
    ['an id that is not one', '?estado=aprobado&idTransaccion=1'],
    ['an extra key', `?estado=aprobado&idTransaccion=${ID}&x=1`],
  ])('goes to the error page on %s', async (_label, search) => {
    const { location, navigation } = enter(search);
    await waitFor(() => expect(location()).toBe('/pagoexpress/error'));
    expect(navigation()).toBe('REPLACE');
  });

  it('leaves out the family when the state no longer has it', async () => {
    useAppStore.getState().reset();
    const { location } = enter(`?estado=aprobado&idTransaccion=${ID}`);
    await waitFor(() => expect(location()).toBe(`/pagoexpress/successvoucher/${ID}?factor=WEBPAY`));
  });
});
