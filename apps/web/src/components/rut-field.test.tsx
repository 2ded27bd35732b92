import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RutField, useRutInput } from './rut-field';

function Harness({ initial = '', autoComplete = 'off' as const }: { initial?: string; autoComplete?: 'off' | 'username' }) {
  const rut = useRutInput(() => initial);
  return (
    <>
      <RutField rut={rut} autoComplete={autoComplete} />
      <output data-testid="canonical">{rut.canonical ?? 'none'}</output>
    </>
  );
}

function renderField(props: Parameters<typeof Harness>[0] = {}) {
  render(<Harness {...props} />);
  return {
    field: screen.getByRole('textbox', { name: 'RUT' }) as HTMLInputElement,
    canonical: () => screen.getByTestId('canonical').textContent,
  };
}

describe('RutField', () => {
  it('is the RUT field of the specification', () => {
    const { field } = renderField({ autoComplete: 'username' });
    expect(field.name).toBe('rut');
    expect(field.placeholder).toBe('12345678-9');
    // At most 12 characters as shown, kept by the formatting rather than maxlength (which would cut a paste).
    expect(field.maxLength).toBe(-1);
    expect(field.inputMode).toBe('text');
    expect(field.getAttribute('autocomplete')).toBe('username');
    expect(field.getAttribute('autocapitalize')).toBe('characters');
    expect(field.getAttribute('spellcheck')).toBe('false');
    expect(field.getAttribute('autocorrect')).toBe('off');
  });

  it('holds at most a RUT of 12 characters, whatever is typed or pasted', async () => {
    const user = userEvent.setup();
    const { field, canonical } = renderField();
    await user.type(field, '1234567851234');
    expect(field.value).toBe('12.345.678-5');
    await user.clear(field);
    await user.click(field);
    await user.paste('  12.345.678 - 5  ');
    expect(field.value).toBe('12.345.678-5');
    expect(canonical()).toBe('12345678-5');
  });

  it('starts from a RUT in any spelling, formatted', () => {
    const { field, canonical } = renderField({ initial: '11111111-1' });
    expect(field.value).toBe('11.111.111-1');
    expect(canonical()).toBe('11111111-1');
  });

  it('formats while the member types, and gives the RUT to send once it is right', async () => {
    const user = userEvent.setup();
    const { field, canonical } = renderField();
    expect(canonical()).toBe('none');
    await user.type(field, '123456785');
    expect(field.value).toBe('12.345.678-5');
    expect(canonical()).toBe('12345678-5');
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });

  it("says 'Rut inválido' for a wrong check digit, announced with the field", async () => {
    const user = userEvent.setup();
    const { field, canonical } = renderField();
    await user.type(field, '123456789');
    expect(screen.getByText('Rut inválido')).toBeVisible();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByText('Rut inválido').id);
    expect(canonical()).toBe('none');
  });

  it('shows no error while empty', () => {
    const { field } = renderField();
    expect(screen.queryByText('Rut inválido')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });
});
