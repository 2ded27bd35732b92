import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MouseEvent, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LocationDisplay } from '../test/location-display';
import { ButtonLink } from './button';

function renderLink(link: ReactNode) {
  render(
    <MemoryRouter initialEntries={['/pagoonline/stepone']}>
      {link}
      <LocationDisplay />
    </MemoryRouter>,
  );
  return {
    link: screen.getByRole('link', { name: 'Ir al Home' }),
    location: () => screen.getByTestId('location').textContent,
  };
}

describe('ButtonLink', () => {
  it('is a link with the href of its path and the classes of a button', () => {
    const { link } = renderLink(
      <ButtonLink to="/" variant="secondary" className="w-full">
        Ir al Home
      </ButtonLink>,
    );
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/');
    expect(link.className).toBe('btn btn-secondary w-full');
  });

  it('navigates in the page on a plain click', async () => {
    const { link, location } = renderLink(<ButtonLink to="/">Ir al Home</ButtonLink>);
    await userEvent.setup().click(link);
    expect(location()).toBe('/');
  });

  it('leaves a modified click and a middle click to the browser (new tab, new window)', () => {
    const { link, location } = renderLink(<ButtonLink to="/">Ir al Home</ButtonLink>);
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      // true: the browser's own action (a new tab or window) was not prevented.
      expect(fireEvent.click(link, init)).toBe(true);
    }
    expect(location()).toBe('/pagoonline/stepone');
  });

  it('leaves a link with another target to the browser', () => {
    const { link, location } = renderLink(
      <ButtonLink to="/" target="_blank">
        Ir al Home
      </ButtonLink>,
    );
    expect(fireEvent.click(link)).toBe(true);
    expect(location()).toBe('/pagoonline/stepone');
  });

  it('runs its own onClick first, which may keep the navigation from happening', async () => {
    const onClick = vi.fn((event: MouseEvent) => event.preventDefault());
    const { link, location } = renderLink(
      <ButtonLink to="/" onClick={onClick}>
        Ir al Home
      </ButtonLink>,
    );
    await userEvent.setup().click(link);
    expect(onClick).toHaveBeenCalledOnce();
    expect(location()).toBe('/pagoonline/stepone');
  });
});
