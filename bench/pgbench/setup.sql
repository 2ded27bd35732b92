-- Run once on the benchmark's own database before pgbench: the canonical RUT of benchmark member n (bench/lib.mjs
-- seeds members 30.000.000 upwards), so the scripts can name a member the way the API's statements do (by RUT).
create or replace function bench_rut(n bigint) returns text language sql immutable as $$
  select n::text || '-' || case 11 - (sum(substr(reverse(n::text), i, 1)::int * (2 + (i - 1) % 6)) % 11)
    when 11 then '0' when 10 then 'K' else (11 - (sum(substr(reverse(n::text), i, 1)::int * (2 + (i - 1) % 6)) % 11))::text end
  from generate_series(1, length(n::text)) as i
$$;
