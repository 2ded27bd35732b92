import { BrowserRouter } from 'react-router';
import { AppRoutes } from './routes';

/*
 * Declarative routing (BrowserRouter + Routes) rather than a data router: the screens need no loaders, and the
 * data router costs about 17 KB gzip more, which the home's 90 KB budget cannot spare.
 */
export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
