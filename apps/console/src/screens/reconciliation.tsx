import { useState } from 'react';
import { api, clp, dateTime, todayIso } from '../api';
import { can, useSession } from '../session';
import { DataSection, Empty, Screen, Table, useLoad, type NoticeKind } from '../ui';
import { coreReportSchema, oneChangeSchema, refusedCreditsSchema, webpayReportSchema, type RefusedCredit } from '@pago/domain/schemas/admin';
import { TRANSACTION_WORDS, WEBPAY_ATTEMPT_WORDS, wordsOf } from '@pago/domain/state-words';
import { SetAsideCharges } from './refund';

const MATCHED = new Set(['conciliada', 'pendiente', 'sin cobro', 'devuelta', 'anulada']);

function Result({ value }: { value: string }) {
  return <span className={MATCHED.has(value) ? '' : 'font-semibold text-danger'}>{value}</span>;
}

function Totals({ conciliadas, diferencias }: { conciliadas: number; diferencias: number }) {
  return (
    <p>
      <span className="font-semibold">{conciliadas}</span> conciliadas ·{' '}
      <span className={diferencias > 0 ? 'font-semibold text-danger' : 'font-semibold'}>{diferencias}</span> diferencias
    </p>
  );
}

/** Card credits the core refused: finance proposes to send each again (a second person approves it). */
function RefusedCredits() {
  const session = useSession();
  const load = useLoad('/admin/core/rechazadas', refusedCreditsSchema);
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  const propose = async (credit: RefusedCredit) => {
    setNotice(null);
    try {
      await api.post(`/admin/core/operaciones/${encodeURIComponent(credit.clave)}/reenviar`, oneChangeSchema);
      setNotice({ kind: 'success', text: `Reenvío de ${credit.clave} propuesto: se envía al core cuando otro operador de finanzas lo apruebe.` });
    } catch (e) {
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
    load.reload();
  };
  const reposts = can(session, 'core.reenviar');
  return (
    <DataSection title="Abonos rechazados por el core" load={load} isEmpty={(d) => d.abonos.length === 0} empty="No hay abonos rechazados sin reenviar." notice={notice}>
      {(d) => (
        <Table label="Abonos rechazados por el core">
          <thead>
            <tr>
              <th scope="col">Clave</th>
              <th scope="col">Familia</th>
              <th scope="col" className="amount">
                Monto
              </th>
              <th scope="col">Motivo</th>
              <th scope="col">Fecha</th>
              {reposts ? <th scope="col">Reenviar</th> : null}
            </tr>
          </thead>
          <tbody>
            {d.abonos.map((a) => (
              <tr key={a.clave}>
                <td className="break-all">{a.clave}</td>
                <td>{a.familia}</td>
                <td className="amount">{clp(a.monto)}</td>
                <td>{a.motivo ?? '—'}</td>
                <td className="whitespace-nowrap">{dateTime(a.creado)}</td>
                {reposts ? (
                  <td>
                    <button type="button" className="btn btn-secondary" onClick={() => void propose(a)} aria-label={`Proponer reenvío de ${a.clave}`}>
                      Proponer reenvío
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </DataSection>
  );
}

export function ReconciliationScreen() {
  const [day, setDay] = useState(todayIso());
  const fecha = day.replaceAll('-', '');
  const webpay = useLoad(`/admin/conciliacion/webpay?fecha=${fecha}`, webpayReportSchema);
  const core = useLoad(`/admin/conciliacion/core?fecha=${fecha}`, coreReportSchema);
  return (
    <Screen
      title="Conciliación"
      actions={
        <div>
          <label htmlFor="fecha" className="field-label">
            Fecha
          </label>
          <input id="fecha" type="date" className="field-input" value={day} max={todayIso()} onChange={(e) => e.target.value && setDay(e.target.value)} />
        </div>
      }
    >
      <DataSection
        title="Webpay"
        description="Cada cobro de Webpay del día contra su pago: cobros sin pago, pagos sin cobro, devoluciones y los apartados para el operador."
        csv={{ href: `/admin/conciliacion/webpay/csv?fecha=${fecha}`, label: 'Descargar CSV de Webpay' }}
        load={webpay}
      >
        {(d) => (
          <>
            <Totals conciliadas={d.conciliadas} diferencias={d.diferencias} />
            {d.lineas.length === 0 ? (
              <Empty>Sin pagos con tarjeta este día.</Empty>
            ) : (
              <Table label="Conciliación con Webpay">
                <thead>
                  <tr>
                    <th scope="col">Orden de compra</th>
                    <th scope="col">Webpay</th>
                    <th scope="col">Pago</th>
                    <th scope="col" className="amount">
                      Monto
                    </th>
                    <th scope="col">Resultado</th>
                  </tr>
                </thead>
                <tbody>
                  {d.lineas.map((l) => (
                    <tr key={`${l.ordenCompra ?? ''}-${l.idTransaccion}`}>
                      <td className="break-all">{l.ordenCompra ?? '—'}</td>
                      <td>{wordsOf(WEBPAY_ATTEMPT_WORDS, l.estadoWebpay)}</td>
                      <td>{wordsOf(TRANSACTION_WORDS, l.estadoPago)}</td>
                      <td className="amount">{clp(l.monto)}</td>
                      <td>
                        <Result value={l.resultado} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </>
        )}
      </DataSection>
      <SetAsideCharges />
      <DataSection
        title="Core bancario"
        description="Las operaciones del día contra los libros del core, por clave."
        csv={{ href: `/admin/conciliacion/core/csv?fecha=${fecha}`, label: 'Descargar CSV del core' }}
        load={core}
      >
        {(d) => (
          <>
            <Totals conciliadas={d.conciliadas} diferencias={d.diferencias} />
            {d.lineas.length === 0 ? (
              <Empty>Sin operaciones este día.</Empty>
            ) : (
              <Table label="Conciliación con el core">
                <thead>
                  <tr>
                    <th scope="col">Clave</th>
                    <th scope="col">Tipo</th>
                    <th scope="col">Estado aquí</th>
                    <th scope="col" className="amount">
                      Monto aquí
                    </th>
                    <th scope="col" className="amount">
                      Monto core
                    </th>
                    <th scope="col">Resultado</th>
                  </tr>
                </thead>
                <tbody>
                  {d.lineas.map((l) => (
                    <tr key={l.clave}>
                      <td className="break-all">{l.clave}</td>
                      <td>{l.tipo ?? '—'}</td>
                      <td>{l.estadoAqui ?? '—'}</td>
                      <td className="amount">{l.montoAqui === null ? '—' : clp(l.montoAqui)}</td>
                      <td className="amount">{l.montoCore === null ? '—' : clp(l.montoCore)}</td>
                      <td>
                        <Result value={l.resultado} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </>
        )}
      </DataSection>
      <RefusedCredits />
    </Screen>
  );
}
