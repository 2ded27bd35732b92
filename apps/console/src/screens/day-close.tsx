import { useState } from 'react';
import { Link } from 'react-router';
import { CLOSE_CAUSES } from '@pago/domain/day-close';
import { FAMILY, isFamily } from '@pago/domain/families';
import { dayCloseSchema, oneChangeSchema, type DayClose } from '@pago/domain/schemas/admin';
import { CORE_OPERATION_WORDS, paymentMethodWords, TRANSACTION_WORDS, WEBPAY_ATTEMPT_WORDS, wordsOf } from '@pago/domain/state-words';
import { api, clp, dateTime, day as dayWords, todayIso } from '../api';
import { can, useSession } from '../session';
import { ConfirmAction, DataSection, Notice, Table, useLoad, Screen, type NoticeKind } from '../ui';

// The day's close, three-way (decision 049): our side, Webpay's and the core's, the differences by cause, and the
// close that one finance operator proposes and another approves in 'Aprobaciones'. The server checks it all again.

type Total = DayClose['porFamilia'][number];
type Line = DayClose['lineas'][number];

const familyName = (code: string | null) => (code && isFamily(code) ? FAMILY[code].name : 'Sin familia (clave desconocida aquí)');

/** The day before today in Santiago: the first one that can close. */
function yesterdayIso(): string {
  const [y, m, d] = todayIso().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

function Amount({ value, against }: { value: number; against: number }) {
  return <span className={value === against ? '' : 'font-semibold text-danger'}>{clp(value)}</span>;
}

function TotalsTable({ label, first, rows, keyOf }: { label: string; first: string; rows: Total[]; keyOf: (t: Total) => string }) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col" className="amount">
            Aquí
          </th>
          <th scope="col" className="amount">
            Webpay
          </th>
          <th scope="col" className="amount">
            Core
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => (
          <tr key={t.clave ?? '—'}>
            <th scope="row" className="font-normal">
              {keyOf(t)}
            </th>
            <td className="amount">{clp(t.nuestro)}</td>
            <td className="amount">{clp(t.webpay)}</td>
            <td className="amount">
              <Amount value={t.core} against={t.nuestro} />
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function CloseState({ d }: { d: DayClose }) {
  const c = d.cierre;
  if (c.estado === 'cerrado') return <Notice kind="success">Cerrado por {c.cerradoPor} el {dateTime(c.cerrado)}, propuesto por {c.propuestoPor}.</Notice>;
  if (c.estado === 'reabierto') {
    return (
      <Notice kind="error">
        Reabierto el {dateTime(c.reabierto)}: {c.motivo}. Lo había cerrado {c.cerradoPor} el {dateTime(c.cerrado)}; se firma de nuevo.
      </Notice>
    );
  }
  if (d.propuesta) return <Notice kind="info">Abierto. {d.propuesta.propuestoPor} propuso cerrarlo el {dateTime(d.propuesta.creado)}: espera la aprobación de otro operador de finanzas.</Notice>;
  return <Notice kind="info">Abierto: nadie ha firmado el cierre de este día.</Notice>;
}

/** Why the close cannot be proposed now, or null. */
function blocker(d: DayClose): string | null {
  if (d.cierre.estado === 'cerrado') return 'El día ya está cerrado.';
  if (d.propuesta) return 'Ya hay un cierre de este día esperando aprobación.';
  if (d.fecha >= d.hoy) return 'Solo se cierra un día ya terminado.';
  if (d.diferencias > 0) return 'Resuelva las diferencias antes de proponer el cierre.';
  return null;
}

function LineRow({ l }: { l: Line }) {
  return (
    <tr>
      <td className="break-all">{l.idTransaccion ? <Link to={`/transacciones/${l.idTransaccion}`}>{l.idTransaccion.slice(0, 12)}…</Link> : 'Sin pago aquí'}</td>
      <td>
        {familyName(l.familia)}
        <span className="block text-sm text-muted">{l.medioPago ? paymentMethodWords(l.medioPago) : '—'}</span>
      </td>
      <td>
        <span className="block">{l.nuestro.estado ? wordsOf(TRANSACTION_WORDS, l.nuestro.estado) : 'Desconocido aquí'}</span>
        <span className="amount block">{clp(l.nuestro.monto)}</span>
      </td>
      <td>
        {l.webpay ? (
          <>
            {l.webpay.tiendas.map((s) => (
              <span key={`${s.ordenCompra}-${s.codigoComercio}`} className="block text-sm">
                {s.codigoComercio}: {wordsOf(WEBPAY_ATTEMPT_WORDS, s.estado)} ({clp(s.monto)})
              </span>
            ))}
            <span className="amount block">
              <Amount value={l.webpay.monto} against={l.nuestro.monto} />
            </span>
          </>
        ) : (
          <span className="text-muted">No aplica</span>
        )}
      </td>
      <td>
        {l.core.posteos.map((p) => (
          <span key={p.clave} className="block text-sm">
            <span className="break-all">{p.clave}</span>: {wordsOf(CORE_OPERATION_WORDS, p.estado)}
          </span>
        ))}
        <span className="amount block">
          <Amount value={l.core.monto} against={l.nuestro.monto} />
        </span>
      </td>
      <td>{l.causas.length === 0 ? 'Cuadra' : <span className="font-semibold text-danger">{l.causas.map((c) => CLOSE_CAUSES[c]).join('; ')}</span>}</td>
    </tr>
  );
}

export function DayCloseScreen() {
  const session = useSession();
  const [fecha, setFecha] = useState(yesterdayIso());
  const load = useLoad(`/admin/cierre?fecha=${fecha}`, dayCloseSchema);
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  const propose = async (motivo: string) => {
    setNotice(null);
    try {
      await api.post(`/admin/cierre/${fecha}/firmar`, oneChangeSchema, { motivo });
      setNotice({ kind: 'success', text: `Cierre del ${dayWords(fecha)} propuesto: queda cerrado cuando otro operador de finanzas lo apruebe en Aprobaciones.` });
    } catch (e) {
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
    load.reload();
  };
  return (
    <Screen
      title="Cierre del día"
      actions={
        <div>
          <label htmlFor="fecha-cierre" className="field-label">
            Día hábil
          </label>
          <input id="fecha-cierre" type="date" className="field-input" value={fecha} max={todayIso()} onChange={(e) => e.target.value && setFecha(e.target.value)} />
        </div>
      }
    >
      <DataSection
        title={`Estado del ${dayWords(fecha)}`}
        description="Cada pago del día con tres lados: lo que registramos aquí, lo que cobró Webpay por tienda y lo que contabilizó el core por clave."
        csv={{ href: `/admin/cierre/csv?fecha=${fecha}`, label: 'Descargar CSV del cierre' }}
        load={load}
        notice={notice}
      >
        {(d) => (
          <>
            <CloseState d={d} />
            <p>
              <span className="font-semibold">{d.lineas.length}</span> pagos ·{' '}
              <span className={d.diferencias > 0 ? 'font-semibold text-danger' : 'font-semibold'}>{d.diferencias}</span> con diferencias
            </p>
            {can(session, 'cierre.firmar') ? (
              <div className="flex flex-wrap items-center gap-3">
                <ConfirmAction label="Proponer cierre" title={`Proponer el cierre del ${dayWords(fecha)}`} confirmLabel="Proponer cierre" disabled={blocker(d) !== null} onConfirm={propose}>
                  <p>
                    Los tres lados coinciden en los {d.lineas.length} pagos del día. Otro operador de finanzas debe aprobar el cierre; si después cambia un pago del día, el
                    día se reabre.
                  </p>
                </ConfirmAction>
                {blocker(d) ? <span className="text-sm text-muted">{blocker(d)}</span> : null}
              </div>
            ) : null}
          </>
        )}
      </DataSection>
      {load.data ? (
        <>
          <section className="card space-y-3" aria-label="Totales">
            <h2 className="text-lg font-semibold">Totales</h2>
            <div className="grid gap-4 lg:grid-cols-2">
              <TotalsTable label="Totales por familia" first="Familia" rows={load.data.porFamilia} keyOf={(t) => familyName(t.clave)} />
              <TotalsTable label="Totales por código de comercio" first="Código de comercio" rows={load.data.porCodigoComercio} keyOf={(t) => t.clave ?? 'Cuenta vista (sin código)'} />
            </div>
          </section>
          <section className="card space-y-3" aria-label="Pagos del día">
            <h2 className="text-lg font-semibold">Pagos del día</h2>
            {load.data.lineas.length === 0 ? (
              <p className="text-muted">Sin pagos este día.</p>
            ) : (
              <Table label="Pagos del día, las diferencias primero">
                <thead>
                  <tr>
                    <th scope="col">Pago</th>
                    <th scope="col">Familia y medio</th>
                    <th scope="col">Aquí</th>
                    <th scope="col">Webpay (por tienda)</th>
                    <th scope="col">Core (por clave)</th>
                    <th scope="col">Diferencia</th>
                  </tr>
                </thead>
                <tbody>
                  {load.data.lineas.map((l, i) => (
                    <LineRow key={l.idTransaccion ?? `core-${i}`} l={l} />
                  ))}
                </tbody>
              </Table>
            )}
          </section>
        </>
      ) : null}
    </Screen>
  );
}
