import { FAMILY_NAMES } from '@pago/domain/families';
import { summarySchema } from '@pago/domain/schemas/admin';
import { paymentMethodWords } from '@pago/domain/state-words';
import { Link } from 'react-router';
import { clp } from '../api';
import { can, useSession } from '../session';
import { Empty, Loading, Notice, Screen, Section, Table, useLoad } from '../ui';

function Figure({ label, value, warn, to }: { label: string; value: string; warn?: boolean; to?: string | undefined }) {
  const body = (
    <>
      <span className="block text-sm font-semibold text-muted">{label}</span>
      <span className={`block text-2xl font-bold tabular-nums ${warn ? 'text-warning' : 'text-ink'}`}>{value}</span>
    </>
  );
  return <li className="card">{to ? <Link to={to} className="block hover:underline">{body}</Link> : body}</li>;
}

export function DashboardScreen() {
  const session = useSession();
  const { data, error } = useLoad('/admin/resumen', summarySchema);
  const total = data?.pagos.reduce((sum, p) => sum + p.monto, 0) ?? 0;
  const fecha = data ? `${data.fecha.slice(6, 8)}-${data.fecha.slice(4, 6)}-${data.fecha.slice(0, 4)}` : '';
  return (
    <Screen title="Inicio">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {!data && !error ? <Loading /> : null}
      {data ? (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Figure label={`Pagado hoy (${fecha})`} value={clp(total)} />
            <Figure label="Pagos con tarjeta pendientes" value={String(data.webpayPendientes)} warn={data.webpayPendientes > 0} />
            <Figure label="Pagos con tarjeta apartados o por devolver" value={String(data.webpayApartados)} warn={data.webpayApartados > 0} to={can(session, 'conciliacion.ver') ? '/conciliacion' : undefined} />
            <Figure label="Abonos al core pendientes" value={String(data.corePendientes)} warn={data.corePendientes > 0} />
            <Figure label="Abonos rechazados por el core" value={String(data.coreRechazados)} warn={data.coreRechazados > 0} to={can(session, 'conciliacion.ver') ? '/conciliacion' : undefined} />
            <Figure label="Cambios esperando aprobación" value={String(data.cambiosPendientes)} warn={data.cambiosPendientes > 0} to="/aprobaciones" />
            <Figure label="Diferencias con Webpay hoy" value={String(data.diferenciasWebpayHoy)} warn={data.diferenciasWebpayHoy > 0} to={can(session, 'conciliacion.ver') ? '/conciliacion' : undefined} />
            <Figure label="Base de datos" value={data.baseDeDatos ? 'Operativa' : 'Sin respuesta'} warn={!data.baseDeDatos} />
            <Figure label="Abono pendiente más antiguo" value={data.corePendientes > 0 ? `${Math.round(data.coreMasAntiguoSegundos / 60)} min` : '—'} warn={data.coreMasAntiguoSegundos > 600} />
          </ul>
          <Section title="Pagos de hoy por medio y familia">
            {data.pagos.length === 0 ? (
              <Empty>Aún no hay pagos hoy.</Empty>
            ) : (
              <Table label="Pagos de hoy">
                <thead>
                  <tr>
                    <th scope="col">Medio de pago</th>
                    <th scope="col">Familia</th>
                    <th scope="col" className="amount">Pagos</th>
                    <th scope="col" className="amount">Monto</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pagos.map((p) => (
                    <tr key={`${p.medioPago}-${p.familia}`}>
                      <td>{paymentMethodWords(p.medioPago)}</td>
                      <td>{FAMILY_NAMES[p.familia]}</td>
                      <td className="amount">{p.cantidad}</td>
                      <td className="amount">{clp(p.monto)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Section>
        </>
      ) : null}
    </Screen>
  );
}
