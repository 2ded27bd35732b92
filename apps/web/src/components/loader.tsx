export const LOADING_TEXT = 'Cargando…';

interface LoaderProps {
  /** Cover the page and keep the member from acting twice while a call is under way. */
  overlay?: boolean;
  label?: string;
}

export function Loader({ overlay = false, label = LOADING_TEXT }: LoaderProps) {
  const content = (
    <div role="status" className="flex flex-col items-center gap-3 text-base font-medium text-ink">
      <svg aria-hidden="true" viewBox="0 0 48 48" className="size-12 animate-spin">
        <circle cx="24" cy="24" r="20" fill="none" strokeWidth="5" className="stroke-brand-100" />
        <path d="M24 4a20 20 0 0 1 20 20" fill="none" strokeWidth="5" strokeLinecap="round" className="stroke-brand-700" />
      </svg>
      <span>{label}</span>
    </div>
  );

  if (!overlay) return <div className="flex justify-center py-8">{content}</div>;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-white/85 backdrop-blur-[1px]">{content}</div>
  );
}
