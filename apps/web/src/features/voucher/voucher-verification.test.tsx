import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VoucherVerification } from './voucher-verification';

const NAME = 'Código QR para verificar este comprobante';

describe("the voucher's proof", () => {
  it('shows the code and its address at once, and the QR code once drawn, in a task after the render', async () => {
    render(<VoucherVerification code="ABCDEFGHIJKLMNOPQRST" />);
    expect(screen.getByRole('link').getAttribute('href')).toBe(`${window.location.origin}/comprobante/verificar/ABCDEFGHIJKLMNOPQRST`);
    expect(screen.getByText('MNOP')).toBeVisible();
    expect(screen.queryByRole('img', { name: NAME })).toBeNull();
    const image = await screen.findByRole<HTMLImageElement>('img', { name: NAME });
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml,%3Csvg%20/);
    expect(image.getAttribute('width')).toBe('112');
  });
});
