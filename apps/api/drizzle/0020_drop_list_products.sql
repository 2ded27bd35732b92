-- Call 2 is plain statements in one transaction again (decision 038): the listing's database function goes.
DROP FUNCTION IF EXISTS list_products(text, timestamptz, text, text);
