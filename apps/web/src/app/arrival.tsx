import { createContext, useContext } from 'react';
import { useLocation } from 'react-router';
import { Loader } from '../components/loader';
import type { ArrivalFor } from './arrivals';

/**
 * The screens' arrivals (arrivals.tsx), when this page has loaded them: a screen's page does before it starts
 * (start.tsx), the home does without them.
 */
export const ArrivalsContext = createContext<ArrivalFor | null>(null);

/** What stands for the current screen while its code loads: its arrival, else the loader. */
export function ScreenArrival() {
  const arrivalFor = useContext(ArrivalsContext);
  const { pathname, search } = useLocation();
  return arrivalFor?.(pathname + search) ?? <Loader />;
}
