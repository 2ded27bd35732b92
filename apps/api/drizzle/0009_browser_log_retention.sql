-- The audit trail stays evidence: no server event is ever rewritten or removed. What browsers report through call 11
-- is anyone's to send, so it is kept only for BROWSER_LOG_RETENTION_DAYS and then pruned.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.kind = 'navegador.log' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
