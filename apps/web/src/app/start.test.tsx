import { act, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { REMEMBERED_RUT_KEY } from '../lib/app-store';
import { renderPagesInChild } from '../../scripts/render-pages.mjs';
import type { ShellKind } from './shell';
import { startApp } from './start';

// A page as the server sends it (decision 037): the build's markup in #root. The app must take it over without a
// hydration error (an error in the member's console) and keep what painted before its JavaScript ran.

const VERIFY = '/comprobante/verificar/ABCD-EFGH-IJKL-MNOP-QRST';
const PAGES = ['home:/', 'home:/pagoexpress', 'screen:/pagoexpress/maintenance', `screen:${VERIFY}`] as const;
let pages: Record<string, string> = {};

// The pages as the build draws them, in a process of their own: the server renderer must not run in this realm,
// where it would leave React Router's contexts set for the browser's render.
beforeAll(() => {
  pages = renderPagesInChild(PAGES);
}, 60_000);

let root: Root | null = null;
let container: HTMLElement | null = null;
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = null;
  container = null;
  consoleError.mockRestore();
});

async function arrive(path: string, kind: ShellKind): Promise<HTMLElement> {
  const markup = pages[`${kind}:${path}`];
  if (markup === undefined) throw new Error(`${kind}:${path} is not among the rendered pages`);
  window.history.replaceState(null, '', path);
  container = document.createElement('div');
  container.id = 'root';
  container.dataset['shell'] = kind;
  // As the build writes it: a screen's frame inert until the app takes it, the home open to typing at once.
  container.inert = kind === 'screen';
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

async function start(page: HTMLElement) {
  await act(async () => {
    root = await startApp(page);
  });
}

describe('the page drawn at build time, taken over by the app', () => {
  it('hydrates the home: the markup that painted first stays, and nothing is reported', async () => {
    const page = await arrive('/', 'home');
    const painted = page.querySelector('h1');
    expect(painted?.textContent).toBe('Pago Online');
    await start(page);
    expect((await screen.findByRole<HTMLButtonElement>('button', { name: 'Ingresar' })).disabled).toBe(true);
    expect(page.querySelector('h1')).toBe(painted);
    expect(page.inert).toBe(false);
    expect(page.dataset['live']).toBe('');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('keeps what the member typed in the home before the app started, formatted once it has', async () => {
    const page = await arrive('/', 'home');
    const field = page.querySelector<HTMLInputElement>('input[name="rut"]')!;
    // Typed into the page as it painted, before any script listened.
    field.value = '111111111';
    page.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.checked = true;
    await start(page);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'RUT' })).toBe(field);
    expect(field.value).toBe('11.111.111-1');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Recordar mi RUT' }).checked).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Ingresar' }).disabled).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('keeps what was typed when the home is drawn anew over a remembered RUT', async () => {
    localStorage.setItem(REMEMBERED_RUT_KEY, '12345678-5');
    const page = await arrive('/', 'home');
    page.querySelector<HTMLInputElement>('input[name="rut"]')!.value = '98765433';
    await start(page);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'RUT' }).value).toBe('9.876.543-3');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Recordar mi RUT' }).checked).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("draws the home anew when a RUT is remembered, since the build's field is empty", async () => {
    localStorage.setItem(REMEMBERED_RUT_KEY, '12345678-5');
    const page = await arrive('/pagoexpress', 'home');
    await start(page);
    expect((await screen.findByRole<HTMLInputElement>('textbox', { name: 'RUT' })).value).toBe('12.345.678-5');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Recordar mi RUT' }).checked).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Ingresar' }).disabled).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("hydrates a screen's frame and draws the screen in it, reporting nothing", async () => {
    const page = await arrive('/pagoexpress/maintenance', 'screen');
    const header = page.querySelector('header');
    expect(page.querySelector('[role="status"]')?.textContent).toBe('Cargando…');
    await start(page);
    await screen.findByRole('heading', { level: 1, name: 'Sitio Web en Mantención' });
    expect(page.querySelector('header')).toBe(header);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("a screen's page arrives with the screen's heading, which stays while its code and data load", async () => {
    // The server is slow to answer: the page goes on showing what it arrived with.
    const fetch = vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise<Response>(() => undefined));
    const page = await arrive(VERIFY, 'screen');
    const heading = () => page.querySelector('h1')?.textContent;
    expect(heading()).toBe('Verificación de comprobante');
    expect(page.querySelector('[role="status"]')?.textContent).toBe('Verificando el comprobante…');
    // Every state the page goes through until the screen asks the server: the screen's code loads meanwhile.
    const shown: (string | undefined)[] = [];
    const watch = new MutationObserver(() => shown.push(heading()));
    watch.observe(page, { childList: true, subtree: true, characterData: true });
    await start(page);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled(), { timeout: 10_000 });
    watch.disconnect();
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown)).toEqual(new Set(['Verificación de comprobante']));
    expect(page.inert).toBe(false);
    expect(consoleError).not.toHaveBeenCalled();
    fetch.mockRestore();
  });

  it("draws the page anew when it was drawn for another route (the home's markup at a screen's address)", async () => {
    const page = await arrive('/', 'home');
    window.history.replaceState(null, '', '/pagoexpress/maintenance');
    await start(page);
    await screen.findByRole('heading', { level: 1, name: 'Sitio Web en Mantención' });
    expect(screen.queryByRole('button', { name: 'Ingresar' })).toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });
});
