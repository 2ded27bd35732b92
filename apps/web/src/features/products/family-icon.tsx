import type { Family } from '@pago/domain/families';
import type { ReactNode } from 'react';

// Line icons on a 24-unit grid, drawn with the current text colour; decorative, the family's name says it all.
const SHAPES: Readonly<Record<Family, ReactNode>> = {
  // Consumer credit: a banknote.
  PC: (
    <>
      <rect x="2.5" y="6" width="19" height="12" rx="2" />
      <circle cx="12" cy="12" r="2.75" />
      <path d="M6 9.5v5M18 9.5v5" />
    </>
  ),
  // Participation shares: the members who own the cooperative.
  CP: (
    <>
      <circle cx="9" cy="8" r="3" />
      <path d="M3.5 19.5c0-3.3 2.5-5.5 5.5-5.5s5.5 2.2 5.5 5.5" />
      <circle cx="16.5" cy="9" r="2.5" />
      <path d="M16 14.1c2.7-.3 4.8 1.6 4.8 4.6" />
    </>
  ),
  // Mortgage: a house.
  HI: (
    <>
      <path d="M3 11.2 12 4l9 7.2" />
      <path d="M5.5 9.5V20h13V9.5" />
      <path d="M10 20v-5.5h4V20" />
    </>
  ),
  // Credit card.
  TC: (
    <>
      <rect x="2.5" y="5" width="19" height="14" rx="2" />
      <path d="M2.5 9.5h19M6 15h4" />
    </>
  ),
  // Small business: a shop front.
  PM: (
    <>
      <path d="M4 9.5 5.5 4h13L20 9.5" />
      <path d="M4 9.5c0 1.4 1.1 2.5 2.7 2.5s2.6-1.1 2.6-2.5c0 1.4 1.1 2.5 2.7 2.5s2.7-1.1 2.7-2.5c0 1.4 1 2.5 2.6 2.5S20 10.9 20 9.5Z" />
      <path d="M5 12v8h14v-8M10 20v-5h4v5" />
    </>
  ),
  // Savings: a stack of coins.
  AH: (
    <>
      <ellipse cx="12" cy="6" rx="7" ry="2.5" />
      <path d="M5 6v4c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5V6" />
      <path d="M5 10v4c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5v-4" />
      <path d="M5 14v4c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5v-4" />
    </>
  ),
};

export function FamilyIcon({ family, className = '' }: { family: Family; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
    >
      {SHAPES[family]}
    </svg>
  );
}
