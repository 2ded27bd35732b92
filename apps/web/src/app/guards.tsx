import { isFamily } from '@pago/domain/family-codes';
import { useState } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { paidVoucherOfPayment, useAppStore } from '../lib/app-store';
import { paths, type Access } from '../lib/paths';
import { NotFoundPage } from './screens';

/**
 * Specification §2 and §6: who may open a group of screens. 'both' screens need no guard. Decided when a screen is
 * opened: an error page for authenticated sessions clears the state on entry (specification §4) and stays shown.
 */
export function AccessGuard({ access }: { access: Exclude<Access, 'both'> }) {
  const { key } = useLocation();
  const isAuthenticatedNow = useAppStore((state) => state.config.isAuthenticated);
  const [entry, setEntry] = useState({ key, isAuthenticated: isAuthenticatedNow });
  if (entry.key !== key) setEntry({ key, isAuthenticated: isAuthenticatedNow });
  const isAuthenticated = entry.key === key ? entry.isAuthenticated : isAuthenticatedNow;
  if (access === 'authenticated' && !isAuthenticated) return <Navigate to={paths.home} replace />;
  if (access === 'unauthenticated' && isAuthenticated) return <Navigate to={paths.stepOne} replace />;
  return <Outlet />;
}

/** A :category outside the product families is not a screen. */
export function CategoryGuard() {
  // The params of a layout route include its children's, so :category is visible here.
  const { category } = useParams();
  if (isFamily(category)) return <Outlet />;
  return <NotFoundPage />;
}

/**
 * The screens of a payment (steps 2 and 3, the login, the factors, the card) lead to its voucher once it is paid:
 * Back from the voucher never asks to pay again, nor shows a failure for a payment that went through.
 */
export function PaidGuard() {
  const voucherPath = useAppStore((state) => paidVoucherOfPayment(state)?.path);
  if (voucherPath) return <Navigate to={voucherPath} replace />;
  return <Outlet />;
}
