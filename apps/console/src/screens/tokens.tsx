import { useState, type FormEvent } from 'react';
import { api, dateTime } from '../api';
import { PERMISSION_LABELS, ROLE_LABELS, ROLES, type Permission, type Role } from '@pago/domain/operator-roles';
import { assignedRolesSchema, codigoOkSchema, oneChangeSchema, tokenAskedSchema, tokenIssuedSchema, tokensSchema, type Token } from '@pago/domain/schemas/admin';
import * as z from 'zod/mini';
import { permissionList, roleList } from '../labels';
import { can, useSession } from '../session';
import { Empty, Loading, Notice, Screen, Section, Table, useLoad } from '../ui';

type Message = { kind: 'success' | 'error'; text: string } | null;
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Machine tokens act for the person who asks for them, within that person's own permissions, and work once another
 * administrator approves them (Aprobaciones). Roles are given the same way, and never by the operator to themselves.
 */
export function TokensScreen() {
  const session = useSession();
  const admin = can(session, 'tokens.gestionar');
  const { data, error, reload } = useLoad('/admin/tokens', tokensSchema);
  const [nombre, setNombre] = useState('');
  const [alcances, setAlcances] = useState<Permission[]>([]);
  const [issued, setIssued] = useState<{ nombre: string; secreto: string } | null>(null);
  const [message, setMessage] = useState<Message>(null);

  const issue = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setIssued(null);
    try {
      // Exactly the boxes shown ticked: nothing held in state apart from the screen is ever asked for.
      const ticked = session.permisos.filter((scope) => alcances.includes(scope));
      const { data: answer } = await api.post('/admin/tokens', z.union([tokenAskedSchema, tokenIssuedSchema]), { nombre, alcances: ticked });
      setIssued({ nombre: answer.token.nombre, secreto: answer.secreto });
      setNombre('');
      setAlcances([]);
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    }
  };
  const revoke = async (token: Token) => {
    setMessage(null);
    try {
      await api.post(`/admin/tokens/${token.id}/revocar`, codigoOkSchema);
      setMessage({ kind: 'success', text: `Token ${token.nombre} revocado.` });
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    }
  };

  return (
    <Screen title="Tokens y roles">
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      <Section title="Pedir un token">
        <p className="text-sm text-muted">
          Un token actúa a su nombre y solo con permisos que sus roles tienen. Funciona cuando otro administrador lo aprueba en Aprobaciones; lo que el token
          proponga lo decide otra persona, nunca usted.
        </p>
        <form onSubmit={(e) => void issue(e)} className="space-y-3">
          <div className="max-w-sm">
            <label htmlFor="token-nombre" className="field-label">
              Nombre (p. ej. carga-nocturna)
            </label>
            <input id="token-nombre" className="field-input" value={nombre} onChange={(e) => setNombre(e.target.value)} required />
          </div>
          <fieldset>
            <legend className="field-label">Permisos del token (marque solo los que el token necesita)</legend>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {session.permisos.map((scope) => (
                <label key={scope} className="inline-flex items-center gap-2">
                  <input type="checkbox" className="size-5" checked={alcances.includes(scope)} onChange={(e) => setAlcances(e.target.checked ? [...alcances, scope] : alcances.filter((a) => a !== scope))} />
                  {PERMISSION_LABELS[scope]}
                </label>
              ))}
            </div>
          </fieldset>
          <button type="submit" className="btn btn-primary" disabled={alcances.length === 0}>
            Pedir token
          </button>
        </form>
        {issued ? (
          <Notice kind="success">
            Token {issued.nombre}: <code className="break-all">{issued.secreto}</code> — cópielo ahora, no se vuelve a mostrar. Funcionará cuando otro
            administrador lo apruebe.
          </Notice>
        ) : null}
      </Section>
      <Section title={admin ? 'Tokens emitidos' : 'Sus tokens'}>
        {error ? <Notice kind="error">{error}</Notice> : null}
        {!data && !error ? <Loading /> : null}
        {data && data.tokens.length === 0 ? <Empty>Aún no hay tokens.</Empty> : null}
        {data && data.tokens.length > 0 ? (
          <Table label={admin ? 'Tokens emitidos' : 'Sus tokens'}>
            <thead>
              <tr>
                <th scope="col">Nombre</th>
                <th scope="col">Permisos</th>
                <th scope="col">Actúa por</th>
                <th scope="col">Estado</th>
                <th scope="col">Último uso</th>
                <th scope="col">Acción</th>
              </tr>
            </thead>
            <tbody>
              {data.tokens.map((t) => (
                <tr key={t.id}>
                  <td className="font-semibold">{t.nombre}</td>
                  <td>{permissionList(t.alcances)}</td>
                  <td>
                    {t.creadoPor}, {dateTime(t.creado)}
                  </td>
                  <td>{t.revocado ? `Revocado ${dateTime(t.revocado)}` : t.aprobado ? `Activo: aprobado por ${t.aprobadoPor ?? '—'}` : 'Esperando aprobación'}</td>
                  <td>{dateTime(t.ultimoUso)}</td>
                  <td>
                    {t.revocado ? null : (
                      <button type="button" className="btn btn-danger" onClick={() => void revoke(t)} aria-label={`Revocar ${t.nombre}`}>
                        Revocar
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
      </Section>
      {can(session, 'operadores.roles') ? <RolesSection /> : null}
    </Screen>
  );
}

/** Roles for an identity provider that carries none: proposed here, applied when another administrator approves. */
function RolesSection() {
  const { data, error, reload } = useLoad('/admin/operadores/roles', assignedRolesSchema);
  const [sujeto, setSujeto] = useState('');
  const [roles, setRoles] = useState<Role[]>([]);
  const [message, setMessage] = useState<Message>(null);

  const propose = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    try {
      await api.put(`/admin/operadores/${encodeURIComponent(sujeto)}/roles`, oneChangeSchema, { roles });
      setMessage({ kind: 'success', text: `Roles de ${sujeto} (${roleList(roles)}): propuestos. Se aplican cuando otro administrador los apruebe; entonces sus sesiones abiertas terminan.` });
      setSujeto('');
      setRoles([]);
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: errorText(e) });
    }
  };

  return (
    <Section title="Roles de operadores">
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      <form onSubmit={(e) => void propose(e)} className="space-y-3">
        <div className="max-w-sm">
          <label htmlFor="rol-sujeto" className="field-label">
            Usuario en el proveedor de identidad
          </label>
          <input id="rol-sujeto" className="field-input" value={sujeto} onChange={(e) => setSujeto(e.target.value)} required />
        </div>
        <fieldset>
          <legend className="field-label">Roles (ninguno: quitarle el acceso)</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {ROLES.map((role) => (
              <label key={role} className="inline-flex items-center gap-2">
                <input type="checkbox" className="size-5" checked={roles.includes(role)} onChange={(e) => setRoles(e.target.checked ? [...roles, role] : roles.filter((r) => r !== role))} />
                {ROLE_LABELS[role]}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="btn btn-primary">
          Proponer roles
        </button>
      </form>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {!data && !error ? <Loading /> : null}
      {data && data.operadores.length === 0 ? <Empty>Ningún rol asignado aquí: los roles vienen del proveedor de identidad.</Empty> : null}
      {data && data.operadores.length > 0 ? (
        <Table label="Roles asignados">
          <thead>
            <tr>
              <th scope="col">Usuario</th>
              <th scope="col">Roles</th>
              <th scope="col">Asignados por</th>
              <th scope="col">Fecha</th>
            </tr>
          </thead>
          <tbody>
            {data.operadores.map((o) => (
              <tr key={o.sujeto}>
                <td className="font-semibold">{o.sujeto}</td>
                <td>{roleList(o.roles)}</td>
                <td>{o.asignadoPor}</td>
                <td>{dateTime(o.actualizado)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </Section>
  );
}
