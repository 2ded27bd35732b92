-- Call 2 (POST /prod/producto/listar), statement by statement as the API sends them (each in its own implicit
-- transaction, as the service runs them), for one benchmark member chosen at random.
-- Variables from bench/run.mjs: -D first=30000000 -D members=N.
\set n :first + random(0, :members - 1)
\set sig random(1, 9007199254740991)
\set tok random(1, 9007199254740991)
-- captcha-service: spend the solution, prune expired ones
insert into "captcha_uses" ("signature", "expires_at", "used_at") values (:sig, now() + interval '5 minutes', default) on conflict do nothing returning "signature";
delete from "captcha_uses" where "captcha_uses"."expires_at" < now() - interval '1 minute';
-- product-repository: the member, their products, the instalments
select "id", "rut", "name", "email", "password_hash", "password_failures", "password_blocked_at", "list_notice_code", "created_at" from "members" where "members"."rut" = bench_rut(:n) \gset m_
select "id", "member_id", "family", "numero_producto", "permite_abono", "permite_multiple_abono", "monto_minimo_abono_multiple", "fecha_vigencia_abono", "fecha_facturacion", "deuda_total", "deuda_total_internacional", "cupo_total", "numero_cuotas_pactadas", "saldo", "created_at" from "products" where "products"."member_id" = :m_id order by "products"."family" asc, "products"."numero_producto" asc \gset p_
select "id", "product_id", "numero_cuota", "monto_original", "monto_pendiente", "pago_minimo", "fecha_vencimiento", "medio_pago", "paid_at" from "instalments" where "instalments"."product_id" in (:p_id) order by "instalments"."fecha_vencimiento" asc, "instalments"."numero_cuota" asc;
-- session-service: the new session
insert into "sessions" ("id", "token_hash", "rut", "created_at", "last_seen_at", "revoked_at") values (default, :tok, bench_rut(:n), default, default, default) returning "id", "rut";
