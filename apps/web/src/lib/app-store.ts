import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { DetalleError } from '@pago/domain/errors';
import { DEFAULT_METHOD_PAY } from './paths';

/** Specification §3, 'Customer session'. */
export interface Customer {
  /** Canonical RUT ('12345678-5'), or '' before the member enters one. */
  rut: string;
  rememberMe: boolean;
  /** Session token issued by the product list call. */
  token: string;
}

/** Specification §3, 'Other state': the switch parameters and whether the product list has authenticated. */
export interface Config {
  parameters: Record<string, string>;
  isAuthenticated: boolean;
}

export interface AppData {
  customer: Customer;
  config: Config;
  /** The message the customError screen shows. */
  customError: { message: string };
  /** The error detail the infomessage screens show. */
  infoMessage: DetalleError | null;
  /** Method of payment: '{product}methodpay' or the card provider's. */
  methodPay: string;
}

export interface AppActions {
  /** Stores the member's RUT; with rememberMe the RUT is also kept in localStorage, without it it is forgotten. */
  setCustomer: (customer: { rut: string; rememberMe: boolean }) => void;
  setParameters: (parameters: Record<string, string>) => void;
  setCustomError: (message: string) => void;
  setInfoMessage: (detail: DetalleError | null) => void;
  /** Restores every default. The remembered RUT in localStorage is not part of the app state and stays. */
  reset: () => void;
}

export type AppState = AppData & AppActions;

export const STORE_KEY = 'pago-online';
export const REMEMBERED_RUT_KEY = 'pago-online-rut';

export function initialAppData(): AppData {
  return {
    customer: { rut: '', rememberMe: false, token: '' },
    config: { parameters: {}, isAuthenticated: false },
    customError: { message: '' },
    infoMessage: null,
    methodPay: DEFAULT_METHOD_PAY,
  };
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...initialAppData(),
      setCustomer: ({ rut, rememberMe }) => {
        rememberRut(rememberMe ? rut : null);
        set((state) => ({ customer: { ...state.customer, rut, rememberMe } }));
      },
      setParameters: (parameters) => set((state) => ({ config: { ...state.config, parameters } })),
      setCustomError: (message) => set({ customError: { message } }),
      setInfoMessage: (infoMessage) => set({ infoMessage }),
      reset: () => set(initialAppData()),
    }),
    {
      name: STORE_KEY,
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ customer, config, customError, infoMessage, methodPay }): AppData => ({
        customer,
        config,
        customError,
        infoMessage,
        methodPay,
      }),
    },
  ),
);

// Storage can be unavailable (private modes, blocked cookies): remembering is a convenience, never a failure.

/** The RUT kept by 'Recordar mi RUT', or '' when there is none. */
export function readRememberedRut(): string {
  try {
    return localStorage.getItem(REMEMBERED_RUT_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberRut(rut: string | null): void {
  try {
    if (rut) localStorage.setItem(REMEMBERED_RUT_KEY, rut);
    else localStorage.removeItem(REMEMBERED_RUT_KEY);
  } catch {
    // Nothing to do: the member types the RUT next time.
  }
}
