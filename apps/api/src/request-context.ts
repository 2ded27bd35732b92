import { AsyncLocalStorage } from 'node:async_hooks';

/** The id of the request being served, for log lines written outside its own logger (services, jobs). */
export const requestContext = new AsyncLocalStorage<string>();
