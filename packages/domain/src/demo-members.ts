import type { Family } from './families';
import type { ParameterMap } from './parameters';
import { COORDINATE_COLUMNS, COORDINATE_ROWS } from './coordinate-card';

/**
 * Parameters a new installation starts with (../shared/demo-members.md, "Seed parameters"). Loaded on every boot
 * with ON CONFLICT DO NOTHING, so an operator's later change is never overwritten.
 */
export const DEFAULT_PARAMETERS: ParameterMap = {
  sessionTimeOut: '5',
  CierreDiario: '0',
  Mantencion: '0',
  PC: '1',
  PM: '1',
  TC: '1',
  CP: '1',
  HI: '1',
  AH: '1',
  diasMoraPC: '30',
  diasMoraPM: '30',
  diasMoraTC: '30',
  diasMoraCP: '30',
  diasMoraHI: '30',
  diasMoraAH: '30',
  pagoWebPayPC: '1',
  pagoWebPayPM: '1',
  pagoWebPayTC: '1',
  pagoWebPayCP: '1',
  pagoWebPayHI: '0',
  pagoWebPayAH: '1',
  // Child stores of the simulator's mall (Transbank's public integration codes).
  pagoWPDebitoCredito: '597055555536',
  pagoWPDebito: '597055555537',
  medioPagoWP: 'Webpay',
  btnPayPC: 'Pagar cuotas',
  btnPayCP: 'Pagar cuotas',
  btnPayHI: 'Pagar dividendos',
  btnPayTC: 'Pagar tarjeta',
  btnPayPM: 'Pagar cuotas',
  pagoDebitoCreditoPC: '1',
  pagoDebitoCreditoPM: '1',
  pagoDebitoCreditoTC: '0',
  pagoDebitoCreditoCP: '1',
  pagoDebitoCreditoHI: '1',
  pagoDebitoCreditoAH: '0',
  topeDepositoWebPayAH: '5000000',
  // Shown under the title '¡Pago Anulado!', which already says it was cancelled.
  cancelTrxMsg: 'No se realizó ningún cargo. Puedes intentarlo nuevamente cuando quieras.',
};

/** An instalment whose due date is `dueInDays` from the seed's business day (negative: already overdue). */
export interface DemoInstalment {
  numeroCuota: number;
  monto: number;
  pagoMinimo?: number;
  dueInDays: number;
  medioPago?: 'CONVENIO';
}

export interface DemoProduct {
  family: Family;
  numeroProducto: string;
  permiteAbono?: boolean;
  permiteMultipleAbono?: boolean;
  montoMinimoAbonoMultiple?: number;
  /** Days from the seed's business day until the partial-payment promotion ends. */
  vigenciaAbonoInDays?: number;
  facturadoHaceDias?: number;
  deudaTotal?: number;
  deudaTotalInternacional?: number;
  cupoTotal?: number;
  numeroCuotasPactadas?: number;
  saldo?: number;
  instalments: DemoInstalment[];
}

export interface DemoMember {
  rut: string;
  name: string;
  email: string;
  scenario: string;
  password?: { plain: string; blocked?: boolean };
  account?: { numeroCuenta: string; saldo: number };
  /** 1: a coordinate card (seeded); 2: may enrol an authoriser device, with a code the sandbox issues. */
  factors: ReadonlyArray<1 | 2>;
  listNoticeCode?: string;
  products: DemoProduct[];
}

const monthly = (count: number, monto: number, firstDueInDays: number, firstCuota = 1): DemoInstalment[] =>
  Array.from({ length: count }, (_, i) => ({ numeroCuota: firstCuota + i, monto, dueInDays: firstDueInDays + 30 * i }));

/** The members of ../shared/demo-members.md, and 17.171.717-5, a payer without any second factor. */
export const DEMO_MEMBERS: DemoMember[] = [
  {
    rut: '11111111-1',
    name: 'Camila Rojas Fuentes',
    email: 'camila.rojas@example.cl',
    scenario: 'everything',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245601', saldo: 5_000_000 },
    factors: [1, 2],
    products: [
      {
        family: 'PC',
        numeroProducto: '410012345678',
        permiteAbono: true,
        permiteMultipleAbono: true,
        montoMinimoAbonoMultiple: 10_000,
        vigenciaAbonoInDays: 60,
        numeroCuotasPactadas: 24,
        // The partial-payment switch pays the minimum; the free amount is 10.000 up to the pending amount.
        instalments: monthly(4, 85_430, 6, 21).map((c) => ({ ...c, pagoMinimo: 20_000 })),
      },
      {
        family: 'PC',
        numeroProducto: '410087654321',
        numeroCuotasPactadas: 12,
        instalments: monthly(2, 62_150, 10, 11).map((c) => ({ ...c, medioPago: 'CONVENIO' as const })),
      },
      { family: 'HI', numeroProducto: '520011223344', numeroCuotasPactadas: 240, instalments: monthly(3, 412_870, 8, 37) },
      { family: 'PM', numeroProducto: '630055667788', numeroCuotasPactadas: 36, instalments: monthly(2, 156_300, 12, 9) },
      { family: 'CP', numeroProducto: '700011111111', instalments: monthly(6, 5_000, 5) },
      {
        family: 'TC',
        numeroProducto: '5412751234567890',
        facturadoHaceDias: 18,
        deudaTotal: 512_340,
        deudaTotalInternacional: 0,
        cupoTotal: 1_500_000,
        instalments: [{ numeroCuota: 1, monto: 350_000, pagoMinimo: 35_000, dueInDays: 12 }],
      },
      { family: 'AH', numeroProducto: '800012340001', saldo: 1_250_000, instalments: [] },
      { family: 'AH', numeroProducto: '800012340002', saldo: 320_000, instalments: [] },
    ],
  },
  {
    rut: '12345678-5',
    name: 'Jorge Muñoz Soto',
    email: 'jorge.munoz@example.cl',
    scenario: 'a single family',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245602', saldo: 800_000 },
    factors: [1],
    products: [{ family: 'AH', numeroProducto: '800056780001', saldo: 450_000, instalments: [] }],
  },
  {
    rut: '9876543-3',
    name: 'Rosa Contreras Vega',
    email: 'rosa.contreras@example.cl',
    scenario: 'overdue',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245603', saldo: 3_000_000 },
    factors: [1, 2],
    products: [
      {
        family: 'HI',
        numeroProducto: '520098765432',
        numeroCuotasPactadas: 180,
        // Two instalments 45 days past their due date (the later one exactly 45), grace is 30 days, then two current.
        instalments: [
          { numeroCuota: 61, monto: 398_200, dueInDays: -75 },
          { numeroCuota: 62, monto: 398_200, dueInDays: -45 },
          { numeroCuota: 63, monto: 398_200, dueInDays: 15 },
          { numeroCuota: 64, monto: 398_200, dueInDays: 45 },
        ],
      },
      { family: 'PC', numeroProducto: '410098765431', numeroCuotasPactadas: 18, instalments: monthly(2, 73_900, 9, 7) },
    ],
  },
  {
    rut: '15432876-9',
    name: 'Pedro Sepúlveda Lagos',
    email: 'pedro.sepulveda@example.cl',
    scenario: 'card without billed debt',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245604', saldo: 1_000_000 },
    factors: [1],
    products: [
      {
        family: 'TC',
        numeroProducto: '5412759876543210',
        facturadoHaceDias: 18,
        deudaTotal: 0,
        cupoTotal: 800_000,
        instalments: [{ numeroCuota: 1, monto: 0, pagoMinimo: 0, dueInDays: 12 }],
      },
      { family: 'PM', numeroProducto: '630043218765', numeroCuotasPactadas: 24, instalments: monthly(2, 98_750, 14, 5) },
    ],
  },
  {
    rut: '7654321-6',
    name: 'Luis Araya Pino',
    email: 'luis.araya@example.cl',
    scenario: 'no products',
    factors: [],
    products: [],
  },
  {
    rut: '16789012-1',
    name: 'Valentina Díaz Morales',
    email: 'valentina.diaz@example.cl',
    scenario: 'insufficient funds',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245606', saldo: 1_000 },
    factors: [1],
    products: [
      { family: 'PC', numeroProducto: '410016789012', numeroCuotasPactadas: 24, instalments: monthly(3, 58_900, 7, 4) },
    ],
  },
  {
    rut: '13579246-2',
    name: 'Andrés Pizarro Reyes',
    email: 'andres.pizarro@example.cl',
    scenario: 'blocked password',
    password: { plain: '1234', blocked: true },
    account: { numeroCuenta: '000031245607', saldo: 600_000 },
    factors: [1],
    products: [
      { family: 'PC', numeroProducto: '410013579246', numeroCuotasPactadas: 12, instalments: monthly(2, 45_600, 11, 3) },
    ],
  },
  {
    rut: '18765432-7',
    name: 'Francisca Núñez Castro',
    email: 'francisca.nunez@example.cl',
    scenario: 'informative notice',
    factors: [],
    listNoticeCode: '47501',
    products: [],
  },
  {
    rut: '10203040-0',
    name: 'Manuel Torres Bravo',
    email: 'manuel.torres@example.cl',
    scenario: 'informative message',
    factors: [],
    listNoticeCode: '465',
    products: [],
  },
  {
    rut: '19191919-K',
    name: 'Sofía Herrera Campos',
    email: 'sofia.herrera@example.cl',
    scenario: 'third-party payer',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245610', saldo: 10_000_000 },
    factors: [1, 2],
    products: [{ family: 'CP', numeroProducto: '700019191919', instalments: monthly(3, 5_000, 5) }],
  },
  {
    rut: '14141414-3',
    name: 'Tomás Vargas Olivares',
    email: 'tomas.vargas@example.cl',
    scenario: 'mobile authoriser only',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031245611', saldo: 2_000_000 },
    factors: [2],
    products: [
      { family: 'PM', numeroProducto: '630014141414', numeroCuotasPactadas: 24, instalments: monthly(3, 121_480, 5, 15) },
    ],
  },
  {
    rut: '17171717-5',
    name: 'Rosa Fuentes Medina',
    email: 'rosa.fuentes@example.cl',
    scenario: 'no second factor',
    password: { plain: '1234' },
    account: { numeroCuenta: '000031717175', saldo: 1_500_000 },
    factors: [],
    products: [
      { family: 'PC', numeroProducto: '410017171717', numeroCuotasPactadas: 12, instalments: monthly(2, 64_250, 12, 4) },
    ],
  },
];

/**
 * The demo coordinate card: value(column, row) = (n + 7·c + 13·row) mod 100, n = RUT number mod 100.
 * Only the demo uses a formula; a real deployment loads the issuer's cards.
 */
export function demoCoordinateCard(rut: string): Record<string, string> {
  const n = Number.parseInt(rut.split('-')[0] ?? '0', 10) % 100;
  const cells: Record<string, string> = {};
  COORDINATE_COLUMNS.forEach((column, c) => {
    for (const row of COORDINATE_ROWS) {
      cells[`${column}${row}`] = String((n + 7 * c + 13 * row) % 100).padStart(2, '0');
    }
  });
  return cells;
}
