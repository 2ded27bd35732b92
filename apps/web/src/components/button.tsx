import type { ButtonHTMLAttributes, ComponentProps, MouseEvent } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

export type ButtonVariant = 'primary' | 'secondary';

/** The classes of a button (styles.css, .btn and .btn-{variant}), for anything that must look like one. */
export function buttonClass(variant: ButtonVariant = 'primary', extra = ''): string {
  return `btn btn-${variant} ${extra}`.trim();
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
}

export function Button({ variant = 'primary', className = '', type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}

interface ButtonLinkProps extends Omit<ComponentProps<'a'>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
  variant?: ButtonVariant;
}

/**
 * A link that looks like a button: for actions that only navigate ('Ir al Home'). A plain <a> with React Router's
 * hooks rather than its `Link`: `Link` brings its prefetching and framework-mode code, about 2 KB gzip, into the
 * framework chunk, which is part of the home's first load. A modified or middle click, or a `target`, is left to the
 * browser (new tab, new window), as with `Link`.
 */
export function ButtonLink({ to, replace, state, target, onClick, variant = 'primary', className = '', ...props }: ButtonLinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target });

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  }

  return <a {...props} href={href} target={target} onClick={handleClick} className={buttonClass(variant, className)} />;
}
