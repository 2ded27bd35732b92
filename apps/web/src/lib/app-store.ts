import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Factor } from '@pago/domain/schemas/call-cuenta-vista';
import type { DetalleError } from '@pago/domain/errors';
import type { Family } from '@pago/domain/families';
import type { Producto } from '@pago/domain/products';
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

/**
 * Specification §3 'Products-to-pay entry': a product and its installment strings (number|amount|due date|state|
 * days overdue; a savings deposit is number|amount|state|0). The amounts are the member's choice; the server
 * re-validates all of it and computes the total itself.
 */
export interface ProductToPay {
  productNumber: string;
  installment: string[];
}

/** What the member chose in step 2: one family, its products to pay, and the total shown. */
export interface Selection {
  family: Family | null;
  productsToPay: ProductToPay[];
  amount: number;
}

/** Specification §3 'Login response': the payer who logged in to the checking account (call 4). */
export interface LoginResponse {
  /** Canonical RUT of the payer: the member, or a third party paying for them. */
  rut: string;
  /** numeroCuenta of the payer's checking account. */
  account: string;
  factores: Factor[];
}

/** Specification §3 'Payment state' (grows with the payment issues). */
export interface Payment {
  /** idTransaccion of the pending transaction created by the selection call. */
  idTrx: string;
  /** The total the server computed. */
  amount: number;

  // Own-account payment (specification §3 'Payment state' and 'Authorization'), written by features/own-account.
  // Optional, so that step 3, which starts every payment with idTrx and amount only, also drops whatever an
  // earlier transaction left here. The password and the coordinates are never stored.
  /** Call 4's answer. */
  loginResponse?: LoginResponse;
  /** The payer's second factors: 1 the coordinate card, 2 the mobile authoriser. */
  availableFactors?: Factor[];
  /** The factor in use: 2 when both exist (specification §3), null when the payer has none. */
  selectedFactor?: Factor | null;
}

/**
 * Specification §3 'Card-provider tokens', written by features/card once calls 9 and 10 have answered. '' until then.
 * idTrx names the transaction they were issued for, so that coming back to the card screen (Back from Webpay's
 * form, a reload) reuses them instead of opening a second Webpay transaction for the same payment.
 */
export interface CardProviderTokens {
  idTrx: string;
  /** The payment host's token from call 9, sent as Bearer to call 10. */
  tokenJWT: string;
  /** Webpay's token from call 10, posted to it as token_ws. */
  tokenWP: string;
  /** Webpay's form URL from call 10. */
  urlInit: string;
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
  /** The product list as answered by call 2, less the families whose switch is 0. */
  products: Producto[];
  selection: Selection;
  /**
   * What the member has chosen on step 2 of `family` so far (its screen's own shape), before 'Pagar' makes it the
   * selection: kept so that a reload does not lose it, and cleared with the rest.
   */
  stepTwoDraft: { family: Family | null; choices: unknown };
  payment: Payment;
  /** Card-provider tokens (see CardProviderTokens). */
  cardProvider: CardProviderTokens;
  /**
   * The transactions paid in this tab, each with the session that paid it (call 7 answers only to that session) and
   * its voucher's address: the voucher stays reachable after 'Nuevo Pago', and the payment's screens lead to it.
   */
  paidVouchers: Record<string, PaidVoucher>;
}

export interface PaidVoucher {
  rut: string;
  token: string;
  /** The voucher's address, with its query (categoria, factor). */
  path: string;
}

export interface AppActions {
  /** Stores the member's RUT; with rememberMe the RUT is also kept in localStorage, without it it is forgotten. */
  setCustomer: (customer: { rut: string; rememberMe: boolean }) => void;
  setParameters: (parameters: Record<string, string>) => void;
  setCustomError: (message: string) => void;
  setInfoMessage: (detail: DetalleError | null) => void;
  /** After call 2: keeps the session token and the visible products, and marks the session authenticated. */
  setSession: (session: { token: string; products: Producto[] }) => void;
  setSelection: (selection: Selection) => void;
  setStepTwoDraft: (draft: { family: Family; choices: unknown }) => void;
  setMethodPay: (methodPay: string) => void;
  setPayment: (payment: Payment) => void;
  /** Card path: the tokens of calls 9 and 10 and Webpay's form URL. */
  setCardProvider: (tokens: CardProviderTokens) => void;
  /** After call 4: the payer's login, their factors and the factor to use first. */
  setLogin: (login: { loginResponse: LoginResponse; selectedFactor: Factor | null }) => void;
  /** The member switched factor ('Usar tarjeta de coordenadas' / 'Usar autorizador móvil'). */
  setSelectedFactor: (factor: Factor) => void;
  /** The transaction `idTrx` is paid, by this session: see AppData.paidVouchers. */
  recordPaid: (idTrx: string, voucherPath: string) => void;
  /**
   * 'Nuevo Pago': forgets the payment, the selection and the product list, and the session token with them so that
   * step 1 lists the products again (what was just paid is gone); keeps the member's RUT, the parameters and the
   * vouchers paid in this tab.
   */
  startNewPayment: () => void;
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
    products: [],
    selection: { family: null, productsToPay: [], amount: 0 },
    stepTwoDraft: { family: null, choices: null },
    payment: { idTrx: '', amount: 0 },
    cardProvider: { idTrx: '', tokenJWT: '', tokenWP: '', urlInit: '' },
    paidVouchers: {},
  };
}

const DATA_KEYS = Object.keys(initialAppData()) as (keyof AppData)[];

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
      setSession: ({ token, products }) =>
        set((state) => ({
          customer: { ...state.customer, token },
          products,
          config: { ...state.config, isAuthenticated: true },
        })),
      setSelection: (selection) => set({ selection }),
      setStepTwoDraft: (stepTwoDraft) => set({ stepTwoDraft }),
      setMethodPay: (methodPay) => set({ methodPay }),
      setPayment: (payment) => set({ payment }),
      setCardProvider: (cardProvider) => set({ cardProvider }),
      setLogin: ({ loginResponse, selectedFactor }) =>
        set((state) => ({
          payment: { ...state.payment, loginResponse, availableFactors: loginResponse.factores, selectedFactor },
        })),
      setSelectedFactor: (selectedFactor) => set((state) => ({ payment: { ...state.payment, selectedFactor } })),
      recordPaid: (idTrx, voucherPath) =>
        set((state) => ({
          paidVouchers: { ...state.paidVouchers, [idTrx]: { rut: state.customer.rut, token: state.customer.token, path: voucherPath } },
        })),
      startNewPayment: () =>
        set((state) => ({
          ...initialAppData(),
          customer: { ...state.customer, token: '' },
          config: { parameters: state.config.parameters, isAuthenticated: false },
          paidVouchers: state.paidVouchers,
        })),
      reset: () => set(initialAppData()),
    }),
    {
      name: STORE_KEY,
      version: 2,
      storage: createJSONStorage(() => sessionStorage),
      // Persist every data field and no action: the keys come from the defaults, so a new field is never forgotten.
      partialize: (state): AppData =>
        Object.fromEntries(DATA_KEYS.map((key) => [key, state[key]])) as unknown as AppData,
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

/** The voucher of the payment under way when it is already paid, else null: its screens then lead to the voucher. */
export function paidVoucherOfPayment(state: AppData): PaidVoucher | null {
  return (state.payment.idTrx && state.paidVouchers[state.payment.idTrx]) || null;
}
