import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DeferredModal } from './deferred-modal';
import { ModalActions } from './modal-actions';

function Offer() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Crédito de Consumo
      </button>
      <DeferredModal open={open} onOpenChange={setOpen} title="¡Buena noticia!" description="Puedes abonar.">
        <ModalActions>
          <button type="button">Continuar</button>
        </ModalActions>
      </DeferredModal>
    </>
  );
}

describe('DeferredModal', () => {
  it('renders nothing before its first opening, then the dialog with its name, description and actions', async () => {
    render(<Offer />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Crédito de Consumo' }));
    const dialog = await screen.findByRole('dialog', { name: '¡Buena noticia!' });
    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Puedes abonar.');
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeTruthy();
  });

  it('closes on Escape and gives focus back to what opened it', async () => {
    render(<Offer />);
    const opener = screen.getByRole('button', { name: 'Crédito de Consumo' });
    await userEvent.click(opener);
    await screen.findByRole('dialog', { name: '¡Buena noticia!' });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
