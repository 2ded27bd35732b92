import { Component, type ReactNode } from 'react';
import { buttonClass } from '../components/button';
import { Card } from '../components/card';

interface Props {
  children: ReactNode;
}

/**
 * A screen that failed to load or render, typically because its code could not be downloaded (offline, or a
 * new version was deployed). A full page load brings the member back to a working home. Kept plain: it is part
 * of every first load.
 */
export class ScreenErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Card>
        <h1 className="text-2xl leading-tight font-bold text-ink sm:text-3xl">No pudimos cargar esta página</h1>
        <p className="mt-3 text-muted">Revisa tu conexión a internet y vuelve a intentarlo.</p>
        <a href="/" className={buttonClass('primary', 'mt-8 w-full sm:w-auto')}>
          Ir al Home
        </a>
      </Card>
    );
  }
}
