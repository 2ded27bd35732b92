import type { DbOrTx } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditEvent {
  kind: string;
  /** Already masked: the audit trail never holds a full RUT. */
  rutMasked?: string | null;
  requestId?: string | null;
  detail?: Record<string, unknown>;
}

export async function appendAudit(db: DbOrTx, event: AuditEvent): Promise<void> {
  await db.insert(auditLog).values({
    kind: event.kind,
    rutMasked: event.rutMasked ?? null,
    requestId: event.requestId ?? null,
    detail: event.detail ?? {},
  });
}
