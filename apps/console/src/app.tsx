import { useEffect, useState, type ReactNode } from 'react';
import { createBrowserRouter, NavLink, Outlet, RouterProvider } from 'react-router';
import { loadSession, SESSION_ENDED, signOut, type Session } from './api';
import { ROLE_LABELS, type Permission } from '@pago/domain/operator-roles';
import { AuditScreen } from './screens/audit';
import { DashboardScreen } from './screens/dashboard';
import { DayCloseScreen } from './screens/day-close';
import { LoadScreen } from './screens/load';
import { MemberScreen } from './screens/member';
import { ParametersScreen } from './screens/parameters';
import { PaymentsScreen } from './screens/payments';
import { ReconciliationScreen } from './screens/reconciliation';
import { TokensScreen } from './screens/tokens';
import { TransactionScreen } from './screens/transaction';
import { can, SessionContext, useSession } from './session';
import { Loading, NoPermission, Notice } from './ui';


/** The screens, each shown to the roles whose permission it needs (the server checks every call again). */
const NAV: { to: string; label: string; permiso: Permission }[] = [
  { to: '/', label: 'Inicio', permiso: 'resumen.ver' },
  { to: '/socios', label: 'Socios', permiso: 'socios.ver' },
  { to: '/pagos', label: 'Pagos', permiso: 'socios.ver' },
  { to: '/parametros', label: 'Parámetros', permiso: 'parametros.ver' },
  { to: '/aprobaciones', label: 'Aprobaciones', permiso: 'resumen.ver' },
  { to: '/conciliacion', label: 'Conciliación', permiso: 'conciliacion.ver' },
  { to: '/cierre', label: 'Cierre del día', permiso: 'cierre.ver' },
  { to: '/auditoria', label: 'Auditoría', permiso: 'auditoria.ver' },
  { to: '/carga', label: 'Carga nocturna', permiso: 'importacion' },
  { to: '/tokens', label: 'Tokens y roles', permiso: 'resumen.ver' },
];

/** The console's bar, on every screen and the sign-in: the name, and what `children` adds on the right and below. */
function Header({ right, children }: { right?: ReactNode; children?: ReactNode }) {
  return (
    <>
      <a href="#contenido" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Ir al contenido
      </a>
      <header className="bg-brand-800 text-white shadow-sm">
        <div className="mx-auto flex min-h-16 w-full max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="flex min-w-0 items-center gap-3">
            <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
              <rect width="32" height="32" rx="8" className="fill-white/15" />
              <path d="M16 6 7 10.5V13h18v-2.5L16 6Zm-7 9v8h2.5v-8H9Zm5.5 0v8h3v-8h-3Zm6 0v8H23v-8h-2.5ZM7 24.5V27h18v-2.5H7Z" className="fill-white" />
            </svg>
            <p className="truncate text-lg font-bold tracking-tight">Pago Online · Consola de operadores</p>
          </div>
          {right}
        </div>
        {children}
      </header>
    </>
  );
}

/** A screen for the roles holding `permiso`; anyone else opening its address is told so, and sees nothing of it. */
function Allowed({ permiso, children }: { permiso: Permission; children: ReactNode }) {
  const session = useSession();
  return can(session, permiso) ? children : <NoPermission />;
}

/** The permission each screen needs, the same as its entry in the bar. */
const needs = (to: string) => NAV.find((item) => item.to === to)!.permiso;

function Layout() {
  const session = useSession();
  return (
    <div className="flex min-h-svh flex-col">
      <Header
        right={
          <div className="flex items-center gap-3 text-sm">
            <p>
              <span className="font-semibold">{session.nombre}</span>
              <span className="ml-2 rounded-full bg-white/12 px-3 py-1 font-semibold">{session.roles.map((r) => ROLE_LABELS[r]).join(', ')}</span>
            </p>
            <button
              type="button"
              className="rounded-lg border-2 border-white/70 px-3 py-1.5 font-semibold hover:bg-white/10"
              onClick={() => void signOut().then(() => window.location.assign('/operador/'))}
            >
              Salir
            </button>
          </div>
        }
      >
        <nav aria-label="Secciones" className="border-t border-white/15">
          <ul className="mx-auto flex w-full max-w-7xl flex-wrap gap-1 px-2 sm:px-4">
            {NAV.filter((item) => can(session, item.permiso)).map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === '/'}
                  className={({ isActive }) => `block rounded-t-lg px-3 py-2.5 font-semibold ${isActive ? 'bg-canvas text-brand-800' : 'text-white hover:bg-white/10'}`}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </Header>
      <main id="contenido" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}

const router = createBrowserRouter(
  [
    {
      element: <Layout />,
      children: [
        { index: true, element: <Allowed permiso={needs('/')}><DashboardScreen /></Allowed> },
        { path: 'socios', element: <Allowed permiso={needs('/socios')}><MemberScreen /></Allowed> },
        { path: 'socios/:rut', element: <Allowed permiso={needs('/socios')}><MemberScreen /></Allowed> },
        { path: 'pagos', element: <Allowed permiso={needs('/pagos')}><PaymentsScreen /></Allowed> },
        { path: 'transacciones/:id', element: <Allowed permiso={needs('/socios')}><TransactionScreen /></Allowed> },
        { path: 'parametros', element: <Allowed permiso={needs('/parametros')}><ParametersScreen /></Allowed> },
        { path: 'aprobaciones', element: <Allowed permiso={needs('/aprobaciones')}><ParametersScreen inbox /></Allowed> },
        { path: 'conciliacion', element: <Allowed permiso={needs('/conciliacion')}><ReconciliationScreen /></Allowed> },
        { path: 'cierre', element: <Allowed permiso={needs('/cierre')}><DayCloseScreen /></Allowed> },
        { path: 'auditoria', element: <Allowed permiso={needs('/auditoria')}><AuditScreen /></Allowed> },
        { path: 'carga', element: <Allowed permiso={needs('/carga')}><LoadScreen /></Allowed> },
        { path: 'tokens', element: <Allowed permiso={needs('/tokens')}><TokensScreen /></Allowed> },
        { path: '*', element: <Notice kind="info">Esta página no existe.</Notice> },
      ],
    },
  ],
  { basename: '/operador' },
);

function SignIn({ ended }: { ended: boolean }) {
  useEffect(() => {
    document.title = 'Ingresar | Consola de operadores';
  }, []);
  return (
    <div className="flex min-h-svh flex-col">
      <Header />
      <main id="contenido" className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10">
        <section className="card space-y-4 text-center" aria-labelledby="ingreso">
          <h1 id="ingreso" className="text-2xl font-bold text-brand-800">
            Ingreso de operadores
          </h1>
          {ended ? <Notice kind="info">Su sesión terminó. Ingrese otra vez.</Notice> : null}
          <p className="text-muted">Ingrese con su cuenta de la cooperativa. El ingreso pide su clave y un segundo factor.</p>
          <a className="btn btn-primary w-full" href="/operador/entrar">
            Ingresar
          </a>
        </section>
      </main>
    </div>
  );
}

export function App() {
  const [state, setState] = useState<{ session: Session | null; loading: boolean; ended: boolean; error: string | null }>({ session: null, loading: true, ended: false, error: null });
  useEffect(() => {
    loadSession().then(
      (session) => setState({ session, loading: false, ended: false, error: null }),
      (error: unknown) => setState({ session: null, loading: false, ended: false, error: error instanceof Error ? error.message : String(error) }),
    );
    const ended = () => setState({ session: null, loading: false, ended: true, error: null });
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);
  if (state.loading || state.error) {
    return (
      <main id="contenido" className="mx-auto w-full max-w-md px-4 py-10">
        {state.error ? <Notice kind="error">{state.error}</Notice> : <Loading />}
      </main>
    );
  }
  if (!state.session) return <SignIn ended={state.ended} />;
  return (
    <SessionContext.Provider value={state.session}>
      <RouterProvider router={router} />
    </SessionContext.Provider>
  );
}
