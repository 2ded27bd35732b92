-- The API's own database role may only insert into the audit trail (decision 042): the browser's reports, the only
-- rows that ever go, are removed through this function, which runs as its owner (the role that migrates).
CREATE OR REPLACE FUNCTION prune_browser_reports(older_than_days integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  removed integer;
BEGIN
  DELETE FROM audit_log WHERE kind = 'navegador.log' AND at < now() - make_interval(days => older_than_days);
  GET DIAGNOSTICS removed = ROW_COUNT;
  RETURN removed;
END;
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION prune_browser_reports(integer) FROM PUBLIC;
