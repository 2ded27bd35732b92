import type { ReactNode } from 'react';
import { Card, type CardWidth } from './card';
import { useDocumentTitle } from './use-document-title';

interface ScreenProps {
  /** The screen's one h1; also names the browser tab. */
  title: string;
  width?: CardWidth;
  /** Drawn above the title (the step header, an icon). */
  before?: ReactNode;
  children?: ReactNode;
}

/** A screen's card: what comes before the title, the h1, then the content. */
export function Screen({ title, width = 'narrow', before, children }: ScreenProps) {
  useDocumentTitle(title);
  return (
    <Card width={width}>
      {before}
      <h1 className="text-2xl leading-tight font-bold text-ink sm:text-3xl">{title}</h1>
      {children}
    </Card>
  );
}
