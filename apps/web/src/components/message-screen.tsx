import type { ReactNode } from 'react';
import { paths } from '../lib/paths';
import { ButtonLink } from './button';
import { Screen } from './screen';

export type Tone = 'info' | 'warning' | 'error' | 'success';

const toneStyle: Record<Tone, string> = {
  info: 'bg-brand-50 text-brand-700',
  warning: 'bg-warning-50 text-warning',
  error: 'bg-danger-50 text-danger',
  success: 'bg-success-50 text-success',
};

const tonePath: Record<Tone, string> = {
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 5h2.4v2.4h-2.4V7Zm0 4h2.4v6h-2.4v-6Z',
  warning: 'M12 2 1.5 20.5h21L12 2Zm-1.2 6.5h2.4v6h-2.4v-6Zm0 7.5h2.4v2.4h-2.4V16Z',
  error: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 5h2.4v6.5h-2.4V7Zm0 8.2h2.4v2.4h-2.4v-2.4Z',
  success: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.6 14.2-4.3-4.3 1.7-1.7 2.6 2.6 5.8-5.8 1.7 1.7-7.5 7.5Z',
};

interface MessageScreenProps {
  tone: Tone;
  title: string;
  /** The explanation under the title. */
  children?: ReactNode;
  /** Replaces the default 'Ir al Home'; null for none (a screen still arriving). */
  actions?: ReactNode;
}

/** Error, notice and result screens: an icon, the h1, a short message and what to do next. */
export function MessageScreen({ tone, title, children, actions }: MessageScreenProps) {
  return (
    <Screen
      title={title}
      before={
        // On paper the title says it: the icon's room goes to the voucher (styles.css, @media print).
        <div data-print="hide" className={`mb-5 flex size-16 items-center justify-center rounded-full ${toneStyle[tone]}`}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-9 fill-current">
            <path d={tonePath[tone]} />
          </svg>
        </div>
      }
    >
      {children ? <div className="mt-3 space-y-3 text-base text-muted">{children}</div> : null}
      {actions === null ? null : (
        <div className="mt-8 flex flex-col gap-3">{actions ?? <ButtonLink to={paths.home}>Ir al Home</ButtonLink>}</div>
      )}
    </Screen>
  );
}
