import { useState, type FormEvent } from 'react';
import { api, dateTime } from '../api';
import { Empty, Loading, Notice, Screen, Section, Table, useLoad } from '../ui';

interface Token {
  id: string;
  nombre: string;
  alcances: string[];
  creadoPor: string;
  creado: string;
  ultimoUso: string | null;
  revocado: string | null;
}

const SCOPES = ['importacion', 'parametros.ver', 'parametros.cambiar', 'socios.ver', 'socios.desbloquear', 'autorizador.gestionar', 'conciliacion.ver', 'auditoria.ver', 'resumen.ver'];

export function TokensScreen() {
  const { data, error, reload } = useLoad<{ tokens: Token[] }>('/admin/tokens');
  const [nombre, setNombre] = useState('');
  const [alcances, setAlcances] = useState<string[]>(['importacion']);
  const [issued, setIssued] = useState<{ nombre: string; secreto: string } | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const issue = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setIssued(null);
    try {
      const { data: answer } = await api.post<{ token: Token; secreto: string }>('/admin/tokens', { nombre, alcances });
      setIssued({ nombre: answer.token.nombre, secreto: answer.secreto });
      setNombre('');
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };
  const revoke = async (token: Token) => {
    setMessage(null);
    try {
      await api.post(`/admin/tokens/${token.id}/revocar`);
      setMessage({ kind: 'success', text: `Token ${token.nombre} revocado.` });
      reload();
    } catch (e) {
      setMessage({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <Screen title="Tokens de máquinas">
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      <Section title="Emitir un token">
        <form onSubmit={(e) => void issue(e)} className="space-y-3">
          <div className="max-w-sm">
            <label htmlFor="token-nombre" className="field-label">
              Nombre (p. ej. carga-nocturna)
            </label>
            <input id="token-nombre" className="field-input" value={nombre} onChange={(e) => setNombre(e.target.value)} required />
          </div>
          <fieldset>
            <legend className="field-label">Alcances</legend>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {SCOPES.map((scope) => (
                <label key={scope} className="inline-flex items-center gap-2">
                  <input type="checkbox" className="size-5" checked={alcances.includes(scope)} onChange={(e) => setAlcances(e.target.checked ? [...alcances, scope] : alcances.filter((a) => a !== scope))} />
                  {scope}
                </label>
              ))}
            </div>
          </fieldset>
          <button type="submit" className="btn btn-primary" disabled={alcances.length === 0}>
            Emitir token
          </button>
        </form>
        {issued ? (
          <Notice kind="success">
            Token {issued.nombre}: <code className="break-all">{issued.secreto}</code> — cópielo ahora, no se vuelve a mostrar.
          </Notice>
        ) : null}
      </Section>
      <Section title="Tokens emitidos">
        {error ? <Notice kind="error">{error}</Notice> : null}
        {!data && !error ? <Loading /> : null}
        {data && data.tokens.length === 0 ? <Empty>Aún no hay tokens.</Empty> : null}
        {data && data.tokens.length > 0 ? (
          <Table label="Tokens emitidos">
            <thead>
              <tr>
                <th scope="col">Nombre</th>
                <th scope="col">Alcances</th>
                <th scope="col">Emitido</th>
                <th scope="col">Último uso</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {data.tokens.map((t) => (
                <tr key={t.id}>
                  <td className="font-semibold">{t.nombre}</td>
                  <td>{t.alcances.join(', ')}</td>
                  <td>
                    {dateTime(t.creado)} por {t.creadoPor}
                  </td>
                  <td>{dateTime(t.ultimoUso)}</td>
                  <td>
                    {t.revocado ? (
                      `Revocado ${dateTime(t.revocado)}`
                    ) : (
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
    </Screen>
  );
}
