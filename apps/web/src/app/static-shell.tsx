import { renderToStaticMarkup } from 'react-dom/server';
import { Loader } from '../components/loader';
import { PageShell } from '../components/page-shell';

/**
 * What RootLayout shows while a screen's code loads, as HTML for index.html (vite.config.ts, `staticShell`): the page
 * paints the header and the loader as soon as the HTML and the CSS arrive, before any script has run. React's first
 * render replaces it with the same markup, or with the home.
 */
export function renderStaticShell(): string {
  return renderToStaticMarkup(
    <PageShell>
      <Loader />
    </PageShell>,
  );
}
