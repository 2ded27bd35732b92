import { useState } from 'react';
import { useParams } from 'react-router';
import { clp, dateTime } from '../api';
import { can, useSession } from '../session';
import { Loading, Notice, Screen, Section, Table, useLoad, type NoticeKind } from '../ui';
import { ATTEMPT_STATES, labelOf, TRANSACTION_STATES } from '../labels';
import { ProposeRefund } from './refund';

type Row = Record<string, unknown>;

const LINE_STATES: Record<string, string> = { pending: 'Pendiente', paid: 'Pagada', rejected: 'Rechazada' };

/** The transaction's Webpay charges; a set-aside one can be proposed for a refund (four eyes). */
function CardCharges({ attempts, onProposed }: { attempts: Row[]; onProposed: () => void }) {
  const session = useSession();
  const [notice, setNotice] = useState<{ kind: NoticeKind; text: string } | null>(null);
  const amountOf = (w: Row) => (Array.isArray(w.stores) ? (w.stores as { amount: number }[]).reduce((sum, s) => sum + s.amount, 0) : 0);
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
            <tr key={text(w.buyOrder)}>
              <td className="break-all">{text(w.buyOrder)}</td>
              <td>{labelOf(ATTEMPT_STATES, text(w.status))}</td>
              <td className="amount">{clp(amountOf(w))}</td>
              <td className="whitespace-nowrap">{dateTime(text(w.settledAt) || null)}</td>
              {can(session, 'webpay.devolver') ? (
                <td>
                  {w.status === 'set_aside' ? (
                    <ProposeRefund
                      ordenCompra={text(w.buyOrder)}
                      monto={amountOf(w)}
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

interface TransactionView {
  transaccion: Row;
  /** Who paid from their own account and which account was debited (masked); null before a payer logged in. */
  pagador: { rut: string; nombre: string | null; cuentaDebitada: string | null; esElSocio: boolean } | null;
  lineas: Row[];
  autorizaciones: Row[];
  webpay: Row[];
  core: Row[];
  comprobante: Row | null;
  auditoria: { id: number; at: string; kind: string; rutMasked: string | null; detail: unknown }[];
}

interface Event {
  at: string;
  title: string;
  detail: string;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Every step of a transaction in time order: selection, factors, Webpay, core, voucher, audit. */
function timelineOf(view: TransactionView): Event[] {
  const t = view.transaccion;
  const events: Event[] = [{ at: text(t.createdAt), title: 'Selección', detail: `${text(t.family)} · ${clp(Number(t.total))} · ${view.lineas.length} línea(s)` }];
  for (const a of view.autorizaciones) {
    events.push({ at: text(a.createdAt), title: `Segundo factor ${a.factor === 1 ? '(tarjeta de coordenadas)' : '(autorizador móvil)'}`, detail: `pedido por ${clp(Number(a.amount))}` });
    if (a.decidedAt) events.push({ at: text(a.decidedAt), title: 'Segundo factor decidido', detail: text(a.status) });
  }
  for (const w of view.webpay) {
    events.push({ at: text(w.createdAt), title: 'Formulario Webpay abierto', detail: `orden ${text(w.buyOrder)}` });
    if (w.settledAt) events.push({ at: text(w.settledAt), title: 'Respuesta de Webpay', detail: `orden ${text(w.buyOrder)}: ${text(w.status)}` });
  }
  for (const c of view.core) {
    events.push({ at: text(c.createdAt), title: c.kind === 'cuenta_vista' ? 'Débito pedido al core' : 'Abono pedido al core', detail: `${clp(Number(c.amount))} · ${text(c.status)}${c.lastError ? ` · ${text(c.lastError)}` : ''}` });
    if (c.bookedAt) events.push({ at: text(c.bookedAt), title: 'Registrado en el core', detail: text(c.key) });
  }
  if (view.comprobante) events.push({ at: text(view.comprobante.createdAt), title: 'Comprobante emitido', detail: '' });
  for (const line of view.auditoria) events.push({ at: line.at, title: `Auditoría: ${line.kind}`, detail: JSON.stringify(line.detail) });
  return events.filter((e) => e.at).sort((a, b) => a.at.localeCompare(b.at));
}

export function TransactionScreen() {
  const { id = '' } = useParams();
  const { data, error, reload } = useLoad<TransactionView>(`/admin/transacciones/${encodeURIComponent(id)}`);
  return (
    <Screen title="Transacción">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {!data && !error ? <Loading /> : null}
      {data ? (
        <>
          <Section title={`${text(data.transaccion.family)} · ${clp(Number(data.transaccion.total))} · ${labelOf(TRANSACTION_STATES, text(data.transaccion.status))}`}>
            <p className="break-all text-sm text-muted">Id {text(data.transaccion.idTransaccion)} · medio {text(data.transaccion.medioPago) || '—'}</p>
            {data.pagador ? (
              <p>
                <span className="font-semibold">Pagador:</span> {data.pagador.nombre ? `${data.pagador.nombre} · ` : ''}
                {data.pagador.rut}
                {data.pagador.esElSocio ? ' (el mismo socio)' : ' (otro socio)'}
                {data.pagador.cuentaDebitada ? ` · cuenta debitada ${data.pagador.cuentaDebitada}` : ''}
              </p>
            ) : null}
            <Table label="Líneas pagadas">
              <thead>
                <tr>
                  <th scope="col">Cuota</th>
                  <th scope="col">Vencimiento</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Autorización</th>
                  <th scope="col" className="amount">Monto</th>
                </tr>
              </thead>
              <tbody>
                {data.lineas.map((l) => (
                  <tr key={text(l.id)}>
                    <td>{text(l.numeroCuota)}</td>
                    <td>{text(l.fechaVencimiento) || '—'}</td>
                    <td>{LINE_STATES[text(l.status)] ?? text(l.status)}</td>
                    <td>{text(l.authorizationCode) || '—'}</td>
                    <td className="amount">{clp(Number(l.monto))}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Section>
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
