import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Countdown, countdownMilestone } from './countdown';

describe('Countdown', () => {
  it('shows minutes and seconds in a timer, not read out every second', () => {
    render(<Countdown seconds={119} />);
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('1:59');
    expect(timer.getAttribute('aria-live')).toBeNull();
    expect(timer.getAttribute('aria-label')).toBe('Tiempo para autorizar: 1:59');
  });

  it('speaks up only when the time crosses one minute, thirty seconds and the end', () => {
    expect(countdownMilestone(120)).toBe('');
    expect(countdownMilestone(61)).toBe('');
    expect(countdownMilestone(60)).toBe('Queda menos de 1 minuto para autorizar.');
    expect(countdownMilestone(31)).toBe('Queda menos de 1 minuto para autorizar.');
    expect(countdownMilestone(30)).toBe('Quedan menos de 30 segundos para autorizar.');
    expect(countdownMilestone(0)).toBe('El tiempo para autorizar terminó.');
  });
});
