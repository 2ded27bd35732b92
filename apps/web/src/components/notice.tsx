import type { ReactNode } from 'react';

export type NoticeTone = 'info' | 'warning';

const style: Record<NoticeTone, { box: string; icon: string; path: string }> = {
  info: {
    box: 'bg-brand-50',
    icon: 'text-brand-700',
    path: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 5h2.4v2.4h-2.4V7Zm0 4h2.4v6h-2.4v-6Z',
  },
  warning: {
    box: 'bg-warning-50',
    icon: 'text-warning',
    path: 'M12 2 1.5 20.5h21L12 2Zm-1.2 6.5h2.4v6h-2.4v-6Zm0 7.5h2.4v2.4h-2.4V16Z',
  },
};

interface NoticeProps {
  tone: NoticeTone;
  /** A short lead in bold, on its own line. */
  title?: string;
  children: ReactNode;
  className?: string;
}

/** A boxed note inside a screen (automatic payments, opening hours, hidden instalments). */
export function Notice({ tone, title, children, className = 'mt-6' }: NoticeProps) {
  const { box, icon, path } = style[tone];
  return (
    <div role="note" className={`flex gap-3 rounded-xl px-4 py-3.5 ${box} ${className}`.trim()}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className={`mt-0.5 size-5 shrink-0 fill-current ${icon}`}>
        <path d={path} />
      </svg>
      <div className="min-w-0 text-sm text-ink sm:text-base">
        {title ? <p className="font-semibold">{title}</p> : null}
        <div>{children}</div>
      </div>
    </div>
  );
}
