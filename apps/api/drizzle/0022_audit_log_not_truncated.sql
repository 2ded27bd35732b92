-- The audit trail is evidence: emptying it at once is refused as removing a row is (issue 48).
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
