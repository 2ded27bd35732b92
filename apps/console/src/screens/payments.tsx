import { useState } from 'react';
import { Link } from 'react-router';
import { clp, dateTime } from '../api';
import { paymentsPageSchema } from '@pago/domain/schemas/admin';
import { paymentMethodWords, TRANSACTION_WORDS } from '@pago/domain/state-words';
import { DataSection, FilterForm, Screen, Table, useLoad, type FilterField } from '../ui';

type Filters = Record<'referencia' | 'rut' | 'monto' | 'desde' | 'hasta' | 'estado' | 'medioPago', string>;
const EMPTY: Filters = { referencia: '', rut: '', monto: '', desde: '', hasta: '', estado: '', medioPago: '' };

const FIELDS: readonly FilterField<keyof Filters>[] = [
  { name: 'referencia', label: 'Transacción, código de verificación u orden de compra' },
  { name: 'rut', label: 'RUT del socio o del pagador', placeholder: '12.345.678-9' },
  { name: 'monto', label: 'Monto', placeholder: '$156.300' },
  { name: 'estado', label: 'Estado', kind: 'select', options: Object.entries(TRANSACTION_WORDS) },
  { name: 'medioPago', label: 'Medio de pago', kind: 'select', options: (['CUENTA VISTA', 'WEBPAY'] as const).map((m) => [m, paymentMethodWords(m)]) },
  { name: 'desde', label: 'Desde', kind: 'date' },
  { name: 'hasta', label: 'Hasta', kind: 'date' },
];

/** The amount as typed ('$156.300', '156300') in whole pesos, or the text as is for the server to refuse. */
const amountOf = (typed: string) => (/^[\s$.\d]+$/.test(typed) ? typed.replace(/[\s$.]/g, '') : typed);

const queryOf = (filters: Filters, pagina: number) =>
  new URLSearchParams([
    ...Object.entries(filters)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, k === 'monto' ? amountOf(v) : v.trim()] as [string, string]),
    ['pagina', String(pagina)],
  ]).toString();

/** Payments found from either side: the holder's or the payer's RUT, a reference, the amount, the day, state or method. */
export function PaymentsScreen() {
  const [applied, setApplied] = useState<{ filters: Filters; pagina: number }>({ filters: EMPTY, pagina: 1 });
  const load = useLoad(`/admin/pagos?${queryOf(applied.filters, applied.pagina)}`, paymentsPageSchema);
  const pages = load.data ? Math.max(1, Math.ceil(load.data.total / load.data.porPagina)) : 1;
  return (
    <Screen title="Pagos">
      <FilterForm label="Buscar pagos" fields={FIELDS} initial={EMPTY} onApply={(filters) => setApplied({ filters, pagina: 1 })} submitLabel="Buscar" />
      <DataSection title="Pagos encontrados" load={load} isEmpty={(d) => d.pagos.length === 0} empty="No hay pagos con estos filtros.">
        {(data) => (
          <>
            <p className="text-sm text-muted" role="status">
              {data.total === 1 ? '1 pago' : `${data.total.toLocaleString('es-CL')} pagos`} · página {data.pagina} de {pages}
            </p>
            <Table label="Pagos encontrados">
              <thead>
                <tr>
                  <th scope="col">Creado</th>
                  <th scope="col">Socio</th>
                  <th scope="col">Pagador y cuenta debitada</th>
                  <th scope="col">Medio</th>
                  <th scope="col">Estado</th>
                  <th scope="col" className="amount">
                    Total
                  </th>
                  <th scope="col">Referencias</th>
                </tr>
              </thead>
              <tbody>
                {data.pagos.map((p) => (
                  <tr key={p.idTransaccion}>
                    <td>
                      <Link className="font-semibold text-brand-700 underline" to={`/transacciones/${p.idTransaccion}`}>
                        {dateTime(p.creada)}
                      </Link>
                    </td>
                    <td className="whitespace-nowrap">{p.socio}</td>
                    <td>
                      {p.pagador ? (
                        <>
                          {p.nombrePagador ? `${p.nombrePagador} · ` : ''}
                          <span className="whitespace-nowrap">{p.pagador}</span>
                          {p.cuentaDebitada ? <span className="block text-sm text-muted">Cuenta {p.cuentaDebitada}</span> : null}
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>{paymentMethodWords(p.medioPago)}</td>
                    <td>{TRANSACTION_WORDS[p.estado]}</td>
                    <td className="amount">{clp(p.total)}</td>
                    <td className="text-sm break-all">
                      <span className="block">Transacción {p.idTransaccion}</span>
                      {p.codigoVerificacion ? <span className="block">Código {p.codigoVerificacion}</span> : null}
                      {p.ordenesCompra.length > 0 ? <span className="block">Orden {p.ordenesCompra.join(', ')}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            {pages > 1 ? (
              <nav aria-label="Páginas de pagos" className="flex items-center gap-3">
                <button type="button" className="btn btn-secondary" disabled={data.pagina <= 1} onClick={() => setApplied({ ...applied, pagina: data.pagina - 1 })}>
                  Anterior
                </button>
                <button type="button" className="btn btn-secondary" disabled={data.pagina >= pages} onClick={() => setApplied({ ...applied, pagina: data.pagina + 1 })}>
                  Siguiente
                </button>
              </nav>
            ) : null}
          </>
        )}
      </DataSection>
    </Screen>
  );
}
