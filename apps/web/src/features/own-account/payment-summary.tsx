import { formatClp } from '@pago/domain/money';
import { maskProductNumber } from '@pago/domain/products';
import { formatRut } from '@pago/domain/rut';
import type { ReactNode } from 'react';

export const ACCOUNT_TYPE = 'Cuenta Vista';

interface Row {
  label: string;
  value: ReactNode;
}

function SummaryList({ rows, title }: { rows: Row[]; title: string }) {
  return (
    <div className="mt-5 rounded-xl border border-line bg-canvas/60 px-4 py-4 sm:px-5">
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      <dl className="mt-2 divide-y divide-line/70">
        {rows.map((row) => (
          // The label gives way (it may wrap), the value never does: every row keeps its value on the label's line.
          <div key={row.label} className="flex items-baseline justify-between gap-x-4 py-2">
            <dt className="min-w-0 text-sm text-muted">{row.label}</dt>
            <dd className="shrink-0 text-right text-base font-semibold whitespace-nowrap text-ink">{row.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

interface AccountSummaryProps {
  amount: number;
  /** The member whose products are paid (canonical RUT). */
  memberRut: string;
  /** The payer who logged in, holder of the checking account (canonical RUT). */
  payerRut: string;
  numeroCuenta: string;
}

/**
 * Specification §2 'Security factor screen': amount, holder RUT, account type, account number and beneficiary RUT.
 * In a payment for someone else the payer holds the account and the member receives the payment.
 */
export function AccountSummary({ amount, memberRut, payerRut, numeroCuenta }: AccountSummaryProps) {
  return (
    <SummaryList
      title="Resumen del pago"
      rows={[
        { label: 'Monto a pagar', value: formatClp(amount) },
        { label: 'RUT titular de la cuenta', value: formatRut(payerRut) },
        { label: 'Tipo de cuenta', value: ACCOUNT_TYPE },
        { label: 'Número de cuenta', value: maskProductNumber(numeroCuenta) },
        { label: 'RUT beneficiario', value: formatRut(memberRut) },
      ]}
    />
  );
}

/** The member's own payment: what is paid and from which account. */
export function OwnPaymentSummary({ amount, numeroCuenta }: { amount: number; numeroCuenta: string }) {
  return (
    <SummaryList
      title="Resumen del pago"
      rows={[
        { label: 'Monto a pagar', value: formatClp(amount) },
        { label: 'Cuenta de cargo', value: `${ACCOUNT_TYPE} ${maskProductNumber(numeroCuenta)}` },
      ]}
    />
  );
}
