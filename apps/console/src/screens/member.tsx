import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, clp, dateTime } from '../api';
import { can, useSession } from '../session';
import { ConfirmAction, Empty, Loading, Notice, Screen, Section, Table, useLoad } from '../ui';
import { FAMILY_NAMES } from '@pago/domain/families';
import { memberActionSchema, memberSchema } from '@pago/domain/schemas/admin';
import { paymentMethodWords, TRANSACTION_WORDS, wordsOf } from '@pago/domain/state-words';


export function MemberScreen() {
  const { rut } = useParams();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(rut ?? '');
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) void navigate(`/socios/${encodeURIComponent(typed.trim())}`);
  };
  return (
    <Screen title="Socios">
      <form onSubmit={search} className="card flex flex-wrap items-end gap-3" role="search" aria-label="Buscar socio">
        <div className="min-w-56 flex-1">
          <label htmlFor="rut" className="field-label">
            RUT del socio
          </label>
          <input id="rut" className="field-input" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="12.345.678-9" autoComplete="off" />
        </div>
        <button type="submit" className="btn btn-primary">
          Buscar
        </button>
      </form>
      {rut ? <MemberDetail key={rut} rut={rut} /> : null}
    </Screen>
  );
}

function MemberDetail({ rut }: { rut: string }) {
  const session = useSession();
  const { data, error, reload } = useLoad(`/admin/socios/${encodeURIComponent(rut)}`, memberSchema);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const act = async (path: string, done: string, motivo: string) => {
    setMessage(null);
    try {
      const { status, data: answer } = await api.post(path, memberActionSchema, { motivo });
      // An enrolment code is proposed: another operator approves it in Aprobaciones and it goes to the member's e-mail.
      const text = status === 202 ? `${done}: propuesto. Cuando otro operador lo apruebe en Aprobaciones, se envía al correo del socio.` : 'vigenciaDias' in answer ? `${done}: ${answer.codigo} (válido ${answer.vigenciaDias} días, una vez)` : done;
      setMessage({ kind: 'success', text });
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!data) return <Loading />;
  return (
    <div className="space-y-5">
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      <div className="grid gap-5 lg:grid-cols-2">
        <Section title={`${data.nombre} · ${data.rut}`}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="font-semibold text-muted">Correo</dt>
            <dd>{data.correo ?? 'Sin correo registrado'}</dd>
            <dt className="font-semibold text-muted">Clave internet</dt>
            <dd className="flex flex-wrap items-center gap-3">
              <span className={data.clave === 'bloqueada' ? 'font-semibold text-danger' : ''}>
                {data.clave === 'bloqueada' ? `Bloqueada${data.claveBloqueadaHasta ? ` hasta ${dateTime(data.claveBloqueadaHasta)}` : ''}` : data.clave === 'activa' ? 'Activa' : 'Sin clave'}
              </span>
              {data.clave === 'bloqueada' && can(session, 'socios.desbloquear') ? (
                <ConfirmAction
                  label="Desbloquear clave"
                  title={`Desbloquear la clave de ${data.nombre}`}
                  confirmLabel="Desbloquear clave"
                  onConfirm={(motivo) => act(`/admin/socios/${encodeURIComponent(rut)}/desbloquear-clave`, 'Clave desbloqueada', motivo)}
                >
                  <p>
                    El socio {data.rut} podrá volver a ingresar su clave de internet en todos sus navegadores. Hágalo solo si confirmó su identidad.
                  </p>
                </ConfirmAction>
              ) : null}
            </dd>
            <dt className="font-semibold text-muted">Tarjeta de coordenadas</dt>
            <dd className="flex flex-wrap items-center gap-3">
              <span className={data.tarjeta === 'bloqueada' ? 'font-semibold text-danger' : ''}>{data.tarjeta === 'bloqueada' ? 'Bloqueada' : data.tarjeta === 'activa' ? 'Activa' : 'Sin tarjeta'}</span>
              {data.tarjeta === 'bloqueada' && can(session, 'socios.desbloquear') ? (
                <ConfirmAction
                  label="Desbloquear tarjeta"
                  title={`Desbloquear la tarjeta de coordenadas de ${data.nombre}`}
                  confirmLabel="Desbloquear tarjeta"
                  onConfirm={(motivo) => act(`/admin/socios/${encodeURIComponent(rut)}/desbloquear-tarjeta`, 'Tarjeta desbloqueada', motivo)}
                >
                  <p>El socio {data.rut} podrá volver a pagar con su tarjeta de coordenadas. Hágalo solo si confirmó su identidad.</p>
                </ConfirmAction>
              ) : null}
            </dd>
          </dl>
        </Section>
        <Section
          title="Autorizador móvil"
          actions={
            can(session, 'autorizador.gestionar') ? (
              <ConfirmAction
                label="Generar código de enrolamiento"
                title="Generar un código de enrolamiento"
                confirmLabel="Proponer código"
                onConfirm={(motivo) => act(`/admin/socios/${encodeURIComponent(rut)}/autorizador/codigo`, 'Código de enrolamiento', motivo)}
              >
                <p>Cuando otro operador lo apruebe, se envía al correo del socio un código para enrolar su teléfono en el autorizador móvil.</p>
              </ConfirmAction>
            ) : null
          }
        >
          {data.dispositivos.length === 0 ? (
            <Empty>Sin dispositivos enrolados.</Empty>
          ) : (
            <ul className="divide-y divide-line/70">
              {data.dispositivos.map((d) => (
                <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                  <span>
                    <span className="font-semibold">{d.nombre}</span>
                    <span className="block text-sm text-muted">
                      Enrolado {dateTime(d.enrolado)}
                      {d.revocado ? ` · revocado ${dateTime(d.revocado)}` : ''}
                    </span>
                  </span>
                  {!d.revocado && can(session, 'autorizador.gestionar') ? (
                    <ConfirmAction
                      label="Revocar"
                      accessibleLabel={`Revocar ${d.nombre}`}
                      danger
                      title={`Revocar el dispositivo ${d.nombre}`}
                      confirmLabel="Revocar dispositivo"
                      onConfirm={(motivo) => act(`/admin/autorizador/dispositivos/${d.id}/revocar`, 'Dispositivo revocado', motivo)}
                    >
                      <p>El dispositivo deja de autorizar pagos de inmediato; lo que tenga pendiente no se paga.</p>
                    </ConfirmAction>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
      <Section title="Transacciones">
        {data.transacciones.length === 0 ? (
          <Empty>{data.pagosATerceros.length > 0 ? 'El socio no tiene transacciones de sus propios productos.' : 'El socio no tiene transacciones.'}</Empty>
        ) : (
          <Table label="Transacciones del socio">
            <thead>
              <tr>
                <th scope="col">Creada</th>
                <th scope="col">Familia</th>
                <th scope="col">Medio</th>
                <th scope="col">Estado</th>
                <th scope="col" className="amount">Total</th>
                <th scope="col">Comprobante</th>
              </tr>
            </thead>
            <tbody>
              {data.transacciones.map((t) => (
                <tr key={t.idTransaccion}>
                  <td>
                    <Link className="font-semibold text-brand-700 underline" to={`/transacciones/${t.idTransaccion}`}>
                      {dateTime(t.creada)}
                    </Link>
                  </td>
                  <td>{FAMILY_NAMES[t.familia]}</td>
                  <td>{paymentMethodWords(t.medioPago)}</td>
                  <td>{wordsOf(TRANSACTION_WORDS, t.estado)}</td>
                  <td className="amount">{clp(t.total)}</td>
                  <td>
                    {t.comprobante && can(session, 'comprobantes.reenviar') ? (
                      <ConfirmAction
                        label="Reenviar"
                        accessibleLabel={`Reenviar el comprobante del ${dateTime(t.creada)}`}
                        title="Reenviar el comprobante"
                        confirmLabel="Reenviar comprobante"
                        onConfirm={(motivo) => act(`/admin/transacciones/${t.idTransaccion}/comprobante/reenviar`, 'Comprobante reenviado al correo del socio', motivo)}
                      >
                        <p>
                          Se envía otra vez el comprobante del pago de {clp(t.total)} ({dateTime(t.creada)}) al correo registrado del socio, {data.correo ?? 'sin correo'}.
                        </p>
                      </ConfirmAction>
                    ) : t.comprobante ? (
                      'Emitido'
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      {data.pagosATerceros.length > 0 ? (
        <Section title="Pagos a otros socios">
          <p className="text-sm text-muted">Lo que este socio pagó desde su cuenta por productos de otros socios.</p>
          <Table label="Pagos a otros socios">
            <thead>
              <tr>
                <th scope="col">Creada</th>
                <th scope="col">Socio</th>
                <th scope="col">Familia</th>
                <th scope="col">Cuenta debitada</th>
                <th scope="col">Estado</th>
                <th scope="col" className="amount">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {data.pagosATerceros.map((t) => (
                <tr key={t.idTransaccion}>
                  <td>
                    <Link className="font-semibold text-brand-700 underline" to={`/transacciones/${t.idTransaccion}`}>
                      {dateTime(t.creada)}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap">{t.socio}</td>
                  <td>{FAMILY_NAMES[t.familia]}</td>
                  <td className="whitespace-nowrap">{t.cuentaDebitada ?? '—'}</td>
                  <td>{TRANSACTION_WORDS[t.estado]}</td>
                  <td className="amount">{clp(t.total)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Section>
      ) : null}
    </div>
  );
}
