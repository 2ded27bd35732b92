import { deferred } from './deferred';

/** The Modal, with Radix (~14 KB) fetched off the screen's critical path. Children must not use ModalClose (Radix's own). */
export const DeferredModal = deferred(() => import('./modal').then((m) => m.Modal));
