import type { ReactNode } from 'react';

export type CardWidth = 'narrow' | 'wide';

const widths: Record<CardWidth, string> = {
  // The home and message screens: one column a phone's width, also on a desktop.
  narrow: 'max-w-md',
  // The payment steps: room for a product list beside its summary.
  wide: 'max-w-4xl',
};

interface CardProps {
  width?: CardWidth;
  children: ReactNode;
  className?: string;
}

export function Card({ width = 'narrow', children, className = '' }: CardProps) {
  return (
    <section className={`card ${widths[width]} ${className}`.trim()}>
      {children}
    </section>
  );
}
