import { FAMILY_NAMES } from '@pago/domain/families';
import { oneChangeSchema, transactionViewSchema, type TransactionView } from '@pago/domain/schemas/admin';
import {
  auditEventWords,
  AUTHORISER_REQUEST_WORDS,
  AUTHORIZATION_WORDS,
  CORE_OPERATION_WORDS,
  ITEM_WORDS,
  OPERATOR_CHANGE_WORDS,
  paymentMethodWords,
  TRANSACTION_WORDS,
  WEBPAY_ATTEMPT_WORDS,
} from '@pago/domain/state-words';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, clp, dateTime, day } from '../api';
import { can, useSession } from '../session';
import { ConfirmAction, Loading, Notice, Screen, Section, Table, useLoad, type NoticeKind } from '../ui';
import { ProposeRefund } from './refund';

/**
 * A paid payment's reversal (decision 050): finance proposes it with a reason and another finance operator approves
 * it in 'Aprobaciones'; after that, where it stands in words (the core, then Webpay), who asked, who approved, and why.
 */
function Reversal({ view, onProposed }: { view: TransactionView; onProposed: () => void }) {
  const session = useSession();
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  const t = view.transaccion;
  const a = view.anulacion;
  const offer = t.estado === 'paid' && can(session, 'pagos.anular') && a?.estadoCambio !== 'pendiente';
  if (!a && !offer) return null;
  const propose = async (motivo: string) => {
    try {
      await api.post(`/admin/transacciones/${encodeURIComponent(t.idTransaccion)}/anular`, oneChangeSchema, { motivo });
      setNotice({ kind: 'success', text: 'Anulación propuesta: se hace cuando otro operador de finanzas la apruebe en Aprobaciones.' });
    } catch (e) {
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
    onProposed();
  };
  return (
    <Section title="Anulación del pago">
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {a ? (
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <div className="sm:col-span-2">
            <dt className="inline font-semibold">Estado: </dt>
            <dd className="inline">{a.texto ?? OPERATOR_CHANGE_WORDS[a.estadoCambio]}{a.motivoPaso ? ` (${a.motivoPaso})` : ''}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Propuesta por: </dt>
            <dd className="inline">{`${a.propuestoPor} el ${dateTime(a.propuesto)}`}</dd>
          </div>
          <div>
            <dt className="inline font-semibold">Aprobada por: </dt>
            <dd className="inline">{a.aprobadoPor ? `${a.aprobadoPor} el ${dateTime(a.decidido)}` : '—'}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="inline font-semibold">Motivo: </dt>
            <dd className="inline break-words">{a.motivo}</dd>
          </div>
        </dl>
      ) : null}
      {offer ? (
        <ConfirmAction label="Anular pago" title={`Anular el pago de ${clp(t.total)}`} confirmLabel="Proponer anulación" danger onConfirm={propose}>
          <p>
            {t.medioPago === 'WEBPAY'
              ? 'El core deshace el abono a cada producto y después Webpay devuelve el cobro a la tarjeta.'
              : 'El core deshace el pago y devuelve el dinero a la cuenta vista del pagador.'}{' '}
            Las cuotas vuelven a deberse y el socio recibe un correo. Se hace solo cuando otro operador de finanzas lo apruebe.
          </p>
        </ConfirmAction>
      ) : null}
    </Section>
  );
}

/** The transaction's Webpay charges; a set-aside one can be proposed for a refund (four eyes). */
function CardCharges({ attempts, onProposed }: { attempts: TransactionView['webpay']; onProposed: () => void }) {
  const session = useSession();
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  return (
    <Section title="Cobros con tarjeta">
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <Table label="Cobros con tarjeta">
        <thead>
          <tr>
            <th scope="col">Orden de compra</th>
            <th scope="col">Estado</th>
            <th scope="col" className="amount">
              Monto
            </th>
            <th scope="col">Respuesta de Webpay</th>
            {can(session, 'webpay.devolver') ? <th scope="col">Devolver</th> : null}
          </tr>
        </thead>
        <tbody>
          {attempts.map((w) => (
            <tr key={w.ordenCompra}>
              <td className="break-all">{w.ordenCompra}</td>
              <td>{WEBPAY_ATTEMPT_WORDS[w.estado]}</td>
              <td className="amount">{clp(w.monto)}</td>
              <td className="whitespace-nowrap">{dateTime(w.resuelto)}</td>
              {can(session, 'webpay.devolver') ? (
                <td>
                  {w.estado === 'set_aside' ? (
                    <ProposeRefund
                      ordenCompra={w.ordenCompra}
                      monto={w.monto}
                      onDone={(n) => {
                        setNotice(n);
                        onProposed();
                      }}
                    />
                  ) : (
                    '—'
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </Table>
    </Section>
  );
}

/** The lines under the product each pays: a payment of two credits shows each credit's instalments apart. */
function Lines({ lineas }: { lineas: TransactionView['lineas'] }) {
  const products = [...new Set(lineas.map((l) => l.numeroProducto))];
  return (
    <>
      {products.map((numero) => {
        const own = lineas.filter((l) => l.numeroProducto === numero);
        const title = `${FAMILY_NAMES[own[0]!.familia]} Nº ${numero}`;
        return (
          <div key={numero} className="space-y-2">
            <h3 className="font-semibold">{title}</h3>
            <Table label={`Cuotas de ${title}`}>
              <thead>
                <tr>
                  <th scope="col">Cuota</th>
                  <th scope="col">Vencimiento</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Autorización</th>
                  <th scope="col" className="amount">
                    Monto
                  </th>
                </tr>
              </thead>
              <tbody>
                {own.map((l) => (
                  <tr key={l.id}>
                    <td>{l.fechaVencimiento ? `Nº ${l.numeroCuota}` : 'Depósito'}</td>
                    <td>{day(l.fechaVencimiento)}</td>
                    <td>{ITEM_WORDS[l.estado]}</td>
                    <td>{l.autorizacion ?? '—'}</td>
                    <td className="amount">{clp(l.monto)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        );
      })}
    </>
  );
}

interface Event {
  at: Date;
  title: string;
  detail: string;
}

const FACTOR_NAMES = { 1: 'tarjeta de coordenadas', 2: 'autorizador móvil' } as const;
const coreRefusal = (motivo: string | null) => (motivo === 'insufficient_funds' ? 'fondos insuficientes' : motivo ? 'rechazo del core' : '');

/** Every step of a transaction in time order, in words: selection, passwords, factors, Webpay, core, voucher, trail. */
function timelineOf(view: TransactionView): Event[] {
  const t = view.transaccion;
  const events: Event[] = [{ at: t.creada, title: 'Selección', detail: `${FAMILY_NAMES[t.familia]} · ${clp(t.total)} · ${view.lineas.length} cuota(s) o depósito(s)` }];
  for (const a of view.autorizaciones) {
    events.push({ at: a.creada, title: `Segundo factor pedido (${FACTOR_NAMES[a.factor]})`, detail: `por ${clp(a.monto)}` });
    const words = a.factor === 2 ? AUTHORISER_REQUEST_WORDS : AUTHORIZATION_WORDS;
    if (a.decidida) events.push({ at: a.decidida, title: `Segundo factor (${FACTOR_NAMES[a.factor]}) cerrado`, detail: words[a.estado] });
  }
  for (const w of view.webpay) {
    events.push({ at: w.creado, title: 'Formulario de Webpay abierto', detail: `orden ${w.ordenCompra} · ${clp(w.monto)}` });
    if (w.resuelto) events.push({ at: w.resuelto, title: 'Respuesta de Webpay', detail: `orden ${w.ordenCompra}: ${WEBPAY_ATTEMPT_WORDS[w.estado]}` });
  }
  for (const c of view.core) {
    const refusal = c.estado === 'refused' ? coreRefusal(c.motivo) : '';
    events.push({
      at: c.creada,
      title: c.tipo === 'cuenta_vista' ? 'Débito de la cuenta vista pedido al core' : c.tipo === 'anulacion' ? 'Anulación pedida al core' : 'Abono del pago con tarjeta pedido al core',
      detail: [clp(c.monto), CORE_OPERATION_WORDS[c.estado], refusal].filter(Boolean).join(' · '),
    });
    if (c.registrada) events.push({ at: c.registrada, title: c.tipo === 'anulacion' ? 'Anulado en el core' : 'Registrado en el core', detail: clp(c.monto) });
  }
  if (view.comprobante) events.push({ at: view.comprobante.emitido, title: 'Comprobante emitido', detail: '' });
  for (const line of view.auditoria) events.push({ at: line.at, ...auditEventWords(line.kind, line.detail) });
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function TransactionScreen() {
  const { id = '' } = useParams();
  const { data, error, reload } = useLoad(`/admin/transacciones/${encodeURIComponent(id)}`, transactionViewSchema);
  const t = data?.transaccion;
  return (
    <Screen title="Transacción">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {!data && !error ? <Loading /> : null}
      {data && t ? (
        <>
          <Section title={`${FAMILY_NAMES[t.familia]} · ${clp(t.total)} · ${TRANSACTION_WORDS[t.estado]}`}>
            <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
              <div>
                <dt className="inline font-semibold">Medio de pago: </dt>
                <dd className="inline">{paymentMethodWords(t.medioPago)}</dd>
              </div>
              <div>
                <dt className="inline font-semibold">Pagador: </dt>
                <dd className="inline">
                  {data.pagador
                    ? `${data.pagador.nombre ? `${data.pagador.nombre} · ` : ''}${data.pagador.rut}${data.pagador.esElSocio ? ' (el mismo socio)' : ' (otro socio)'}${data.pagador.cuentaDebitada ? ` · cuenta debitada ${data.pagador.cuentaDebitada}` : ''}`
                    : '—'}
                </dd>
              </div>
              <div>
                <dt className="inline font-semibold">Creada: </dt>
                <dd className="inline">{dateTime(t.creada)}</dd>
              </div>
              <div>
                <dt className="inline font-semibold">Cerrada: </dt>
                <dd className="inline">{dateTime(t.cerrada)}</dd>
              </div>
              <div className="sm:col-span-2">
                <dt className="inline font-semibold">Id: </dt>
                <dd className="inline break-all">{t.idTransaccion}</dd>
              </div>
            </dl>
            <Lines lineas={data.lineas} />
          </Section>
          <Reversal view={data} onProposed={reload} />
          {data.webpay.length > 0 ? <CardCharges attempts={data.webpay} onProposed={reload} /> : null}
          <Section title="Línea de tiempo">
            <ol className="relative space-y-3 border-l-2 border-brand-200 pl-5">
              {timelineOf(data).map((e, i) => (
                <li key={i}>
                  <p className="text-sm text-muted">{dateTime(e.at)}</p>
                  <p className="font-semibold">{e.title}</p>
                  {e.detail ? <p className="break-all text-sm">{e.detail}</p> : null}
                </li>
              ))}
            </ol>
          </Section>
        </>
      ) : null}
    </Screen>
  );
}
