import { verificacionOkSchema, type Verificacion } from '@pago/domain/schemas/answers';
import { PAYMENT_METHOD_NAMES, productName, productTitle, VOUCHER_LABELS } from '@pago/domain/voucher';
import { wireToScreen } from '@pago/domain/dates';
import { formatClp } from '@pago/domain/money';
import {
  formatVerificationCode,
  readVerificationCode,
  verificarComprobanteUrl,
} from '@pago/domain/voucher-verification';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { MessageScreen } from '../../components/message-screen';
import { PRODUCT_NAME } from '../../lib/env';
import { VerificationArrival } from './voucher-arrival';

type Check = { kind: 'checking' } | { kind: 'verified'; verificacion: Verificacion } | { kind: 'not-found' } | { kind: 'busy' } | { kind: 'failed' };

/**
 * /comprobante/verificar/{code}, beyond the specification: anyone the member shows the voucher to (a cashier, the
 * cooperative's staff) scans its QR code and sees that the cooperative recorded the payment, with only what proves
 * it: when, how much, how, for which products and whose, masked.
 */
export function VerifyVoucherPage() {
  const { codigo = '' } = useParams();
  const code = readVerificationCode(codigo);
  const [check, setCheck] = useState<Check>(code ? { kind: 'checking' } : { kind: 'not-found' });

  useEffect(() => {
    if (!code) return;
    let active = true;
    const settle = (next: Check) => active && setCheck(next);
    fetch(verificarComprobanteUrl(code), { headers: { Accept: 'application/json' } }).then(
      async (response) => {
        if (response.status === 404) return settle({ kind: 'not-found' });
        if (response.status === 429) return settle({ kind: 'busy' });
        const parsed = verificacionOkSchema.safeParse(response.ok ? await response.json() : null);
        settle(parsed.success ? { kind: 'verified', verificacion: parsed.data.verificacion } : { kind: 'failed' });
      },
      () => settle({ kind: 'failed' }),
    );
    return () => {
      active = false;
    };
  }, [code]);

  switch (check.kind) {
    case 'checking':
      return <VerificationArrival />;
    case 'not-found':
      return (
        <MessageScreen tone="warning" title="Comprobante no encontrado">
          <p>No encontramos un comprobante con este código. Revisa que esté completo, tal como aparece en el comprobante.</p>
        </MessageScreen>
      );
    case 'busy':
      return (
        <MessageScreen tone="warning" title="Demasiadas consultas">
          <p>Espera un minuto y vuelve a intentarlo.</p>
        </MessageScreen>
      );
    case 'failed':
      return (
        <MessageScreen tone="error" title="No pudimos verificar el comprobante">
          <p>Vuelve a intentarlo en unos momentos.</p>
        </MessageScreen>
      );
    case 'verified': {
      const v = check.verificacion;
      // The voucher's own words for what this page shows of it (@pago/domain/voucher).
      const rows: [string, string][] = [
        [VOUCHER_LABELS.total, formatClp(v.monto)],
        [VOUCHER_LABELS.date, `${wireToScreen(v.fecha)} ${v.hora}`],
        [VOUCHER_LABELS.method, PAYMENT_METHOD_NAMES[v.medioPago] ?? v.medioPago],
        ...v.productos.map((p): [string, string] => ['Producto pagado', productTitle({ name: productName(p.descripcion), number: p.numero })]),
        [VOUCHER_LABELS.rut, v.rutSocio],
        ['Código de verificación', formatVerificationCode(code ?? '')],
      ];
      return (
        <MessageScreen tone={v.anulado ? 'warning' : 'success'} title={v.anulado ? 'Pago anulado' : 'Comprobante verificado'}>
          <p>{v.anulado ? `${PRODUCT_NAME} registró este pago y después lo anuló: el dinero volvió al socio y este comprobante ya no acredita un pago.` : `${PRODUCT_NAME} registró este pago.`}</p>
          <dl className="divide-y divide-line/70 text-sm text-ink">
            {rows.map(([label, value], index) => (
              <div key={`${label}-${index}`} className="flex flex-wrap justify-between gap-x-4 py-1.5">
                <dt className="text-muted">{label}</dt>
                <dd className="min-w-0 font-semibold break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </MessageScreen>
      );
    }
  }
}
