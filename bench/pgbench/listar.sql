-- Call 2 (POST /prod/producto/listar), statement by statement as the API sends them (each in its own implicit
-- transaction, as the service runs them), for one benchmark member chosen at random. Written from PostgreSQL's
-- statement log of one flow (log_statement = 'all'). The API sends them as named prepared statements (parsed and
-- planned once per pooled connection); spent captchas are pruned by a timer of each replica, not per call.
-- Variables from bench/run.mjs: -D first=30000000 -D members=N.
\set n :first + random(0, :members - 1)
\set sig random(1, 9007199254740991)
\set tok random(1, 9007199254740991)
-- captcha-service: spend the solution
insert into "captcha_uses" ("signature", "expires_at", "used_at") values (:sig, now() + interval '5 minutes', default) on conflict do nothing returning "signature";
-- product-repository: the member with their products and the instalments the list may show, as JSON, in one statement
select "id", "list_notice_code", (select coalesce(json_agg(json_build_array("p"."family", "p"."numero_producto", "p"."permite_abono", "p"."permite_multiple_abono", "p"."monto_minimo_abono_multiple", "p"."fecha_vigencia_abono", "p"."fecha_facturacion", "p"."deuda_total", "p"."deuda_total_internacional", "p"."cupo_total", "p"."numero_cuotas_pactadas", (select coalesce(json_agg(json_build_array("i"."numero_cuota", "i"."monto_pendiente", "i"."pago_minimo", "i"."fecha_vencimiento", "i"."medio_pago") order by "i"."fecha_vencimiento", "i"."numero_cuota"), '[]') from "instalments" i where "i"."product_id" = "p"."id" and "p"."family" <> 'AH' and ("p"."family" = 'TC' or "i"."monto_pendiente" > 0))) order by "p"."family", "p"."numero_producto"), '[]') from "products" p where "p"."member_id" = "members"."id") as "products" from "members" where "members"."rut" = bench_rut(:n);
-- session-service: the new session
insert into "sessions" ("id", "token_hash", "rut", "created_at", "last_seen_at", "revoked_at") values (default, :tok, bench_rut(:n), default, default, default) returning "id", "rut";
