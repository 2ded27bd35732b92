import type { Factor } from '@pago/domain/schemas/call-cuenta-vista';
import type { Family } from '@pago/domain/families';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore, type LoginResponse } from '../../lib/app-store';
import type { Parties } from './api/cuenta-vista';

/** What the authorisation screens need once the payer has logged in. */
export interface LoggedInPayment {
  category: Family;
  parties: Parties;
  login: LoginResponse;
  amount: number;
  availableFactors: Factor[];
  selectedFactor: Factor | null;
}

/** The logged-in payment of the store, or null when there is none (no transaction, or no login for it). */
export function useLoggedInPayment(category: Family): LoggedInPayment | null {
  const { customer, payment } = useAppStore(useShallow((state) => ({ customer: state.customer, payment: state.payment })));
  const login = payment.loginResponse;
  if (!payment.idTrx || !login || !customer.token || !customer.rut) return null;
  return {
    category,
    parties: { token: customer.token, memberRut: customer.rut, payerRut: login.rut },
    login,
    amount: payment.amount,
    availableFactors: payment.availableFactors ?? login.factores,
    selectedFactor: payment.selectedFactor ?? null,
  };
}
