-- A member's whole own-account payment, calls 2 → 7, statement by statement and transaction by transaction as the
-- API sends them (read from PostgreSQL's statement log of one flow: log_statement = 'all'). What the API decides in
-- JavaScript between statements (the password, the coordinates, the rules) is not here; the database work is.
-- The parameters are not read per call: each replica checks them once per lease (PARAMETERS_LEASE_MS, 1 s).
-- Variables from bench/run.mjs: -D first=30000000 -D members=N -D clients=C -D iter=0. Each client pays for its own
-- members (client_id, client_id + C, …) in turn, the oldest instalment each time, as the API benchmark does, so no
-- two clients pay for the same member at once.
\set iter :iter + 1
\set n :first + :client_id + :clients * (:iter % (:members / :clients))
\set sig random(1, 9007199254740991)
\set sig2 random(1, 9007199254740991)
\set tok random(1, 9007199254740991)
\set trx random(1, 9007199254740991)
\set authcode random(100000, 999999)
\set timeout 5
\set lifetime 60
\set loginmins 5
\set authsecs 120
\set one 1

-- Call 2, listar (one statement: the captcha spent, the member's list read, the session inserted; the aliases are
-- pgbench's only, for \gset)
with "spent" as (insert into "captcha_uses" ("signature", "expires_at", "used_at") values (:sig, now() + interval '5 minutes', default) on conflict do nothing returning "signature"), "member" as (select "id", "list_notice_code", (select coalesce(json_agg(json_build_array("p"."family", "p"."numero_producto", "p"."permite_abono", "p"."permite_multiple_abono", "p"."monto_minimo_abono_multiple", "p"."fecha_vigencia_abono", "p"."fecha_facturacion", "p"."deuda_total", "p"."deuda_total_internacional", "p"."cupo_total", "p"."numero_cuotas_pactadas", (select coalesce(json_agg(json_build_array("i"."numero_cuota", "i"."monto_pendiente", "i"."pago_minimo", "i"."fecha_vencimiento", "i"."medio_pago") order by "i"."fecha_vencimiento", "i"."numero_cuota"), '[]') from "instalments" i where "i"."product_id" = "p"."id" and "p"."family" <> 'AH' and ("p"."family" = 'TC' or "i"."monto_pendiente" > 0))) order by "p"."family", "p"."numero_producto"), '[]') from "products" p where "p"."member_id" = "members"."id") as "products" from "members" where ("members"."rut" = bench_rut(:n) and exists (select 1 from "spent"))), "created" as (insert into "sessions" ("token_hash", "rut") select :tok, bench_rut(:n) from "spent" where not exists (select 1 from "member" where "member"."list_notice_code" is not null) returning "id") select "member"."id" as "m_id", "member"."list_notice_code", "products", "created"."id" as "s_id" from "spent" left join "member" on true left join "created" on true \gset

-- Call 3, seleccionar (the session touched, the member and their products of the family with every instalment, in one statement)
with "touched" as (update "sessions" set "last_seen_at" = now() where ("sessions"."token_hash" = :tok and "sessions"."rut" = bench_rut(:n) and "sessions"."revoked_at" is null and "sessions"."last_seen_at" > now() - make_interval(mins => :timeout) and "sessions"."created_at" > now() - make_interval(mins => :lifetime)) returning "id", "rut") select "touched"."id", "members"."id", (select coalesce(json_agg(json_build_array("p"."id", "p"."member_id", "p"."family", "p"."numero_producto", "p"."permite_abono", "p"."permite_multiple_abono", "p"."monto_minimo_abono_multiple", "p"."fecha_vigencia_abono", "p"."fecha_facturacion", "p"."deuda_total", "p"."deuda_total_internacional", "p"."cupo_total", "p"."numero_cuotas_pactadas", "p"."saldo", "p"."created_at", (select coalesce(json_agg(json_build_array("i"."id", "i"."product_id", "i"."numero_cuota", "i"."monto_original", "i"."monto_pendiente", "i"."pago_minimo", "i"."fecha_vencimiento", "i"."medio_pago", "i"."paid_at") order by "i"."fecha_vencimiento", "i"."numero_cuota"), '[]') from "instalments" i where "i"."product_id" = "p"."id")) order by "p"."family", "p"."numero_producto"), '[]') from "products" p where "p"."member_id" = "members"."id" and "p"."family" = 'PC') as "products" from "touched" left join "members" on "members"."rut" = "touched"."rut";
-- pgbench only: the member's credit and its oldest instalment still owed, which the API (and the browser) pick from the listing in JavaScript
select "p"."id" as "p_id", "p"."numero_producto" as "p_numero_producto", "i"."id" as "i_id", "i"."numero_cuota" as "i_cuota", "i"."fecha_vencimiento" as "i_fecha", "i"."monto_pendiente" as "i_monto", '{' || "i"."id" || '}' as "i_ids", '{' || "p"."id" || '}' as "p_ids" from "products" p join "instalments" i on "i"."product_id" = "p"."id" where "p"."member_id" = :m_id and "p"."family" = 'PC' and "i"."monto_pendiente" > 0 order by "i"."fecha_vencimiento", "i"."numero_cuota" limit 1 \gset
-- (the transaction and its items in one statement, with no BEGIN and COMMIT around it)
with "w0" as (insert into "transactions" ("id_transaccion", "session_id", "member_id", "family", "total", "status", "medio_pago", "payer_rut", "account_id", "login_at", "host_token_hash", "created_at", "updated_at", "settled_at") values (:trx, :s_id, :m_id, 'PC', :i_monto, default, default, default, default, default, default, default, default, default)) insert into "transaction_items" ("id", "id_transaccion", "product_id", "instalment_id", "numero_cuota", "monto", "fecha_vencimiento", "authorization_code", "status") values (default, :trx, :p_id, :i_id, :i_cuota, :i_monto, :i_fecha, default, default);

-- Call 4, autentica
insert into "captcha_uses" ("signature", "expires_at", "used_at") values (:sig2, now() + interval '5 minutes', default) on conflict do nothing returning "signature";
update "sessions" set "last_seen_at" = now() where ("sessions"."token_hash" = :tok and "sessions"."revoked_at" is null and "sessions"."last_seen_at" > now() - make_interval(mins => :timeout) and "sessions"."created_at" > now() - make_interval(mins => :lifetime)) returning "id", "rut";
-- (the payer's password hash, account and both factors, without locks and with no transaction open; the aliases are
-- pgbench's only, for \gset)
select "members"."id" as "m_pre_id", "members"."password_hash", "members"."password_blocked_at", "accounts"."id" as "a_id", "accounts"."numero_cuenta", "coordinate_cards"."id" as "card_id", "coordinate_cards"."blocked_at", "authoriser_enrolments"."id" as "enrolment_id", "authoriser_enrolments"."blocked_at" as "enrolment_blocked_at" from "members" left join "accounts" on "accounts"."member_id" = "members"."id" left join "coordinate_cards" on "coordinate_cards"."member_id" = "members"."id" left join "authoriser_enrolments" on "authoriser_enrolments"."member_id" = "members"."id" where "members"."rut" = bench_rut(:n) limit :one \gset
-- (the API verifies the password here, argon2id, before the transaction)
begin;
select "id_transaccion", "session_id", "member_id", "family", "total", "status", "medio_pago", "payer_rut", "account_id", "login_at", "host_token_hash", "created_at", "updated_at", "settled_at", coalesce("login_at" > now() - make_interval(mins => :loginmins), false), (select "a"."numero_cuenta" from "accounts" "a" where "a"."id" = "transactions"."account_id") from "transactions" where "transactions"."session_id" = :s_id order by "transactions"."created_at" desc limit :one for update;
select "id", "rut", "name", "email", "password_hash", "password_failures", "password_blocked_at", "list_notice_code", "created_at" from "members" where "members"."rut" = bench_rut(:n) for no key update;
-- (a password failure count already at zero is not rewritten; the login and its audit line in one statement)
with "w0" as (insert into "audit_log" ("id", "at", "kind", "rut_masked", "request_id", "detail") values (default, default, 'clave.correcta', '*****000-2', gen_random_uuid()::text, jsonb_build_object('idTransaccion', (:trx)::text))) update "transactions" set "medio_pago" = 'CUENTA VISTA', "payer_rut" = bench_rut(:n), "account_id" = :a_id, "login_at" = now(), "updated_at" = now() where "transactions"."id_transaccion" = (:trx)::text;
commit;

-- Call 5, autorizar (factor 1: three coordinates)
update "sessions" set "last_seen_at" = now() where ("sessions"."token_hash" = :tok and "sessions"."rut" = bench_rut(:n) and "sessions"."revoked_at" is null and "sessions"."last_seen_at" > now() - make_interval(mins => :timeout) and "sessions"."created_at" > now() - make_interval(mins => :lifetime)) returning "id", "rut";
begin;
select "id_transaccion", "session_id", "member_id", "family", "total", "status", "medio_pago", "payer_rut", "account_id", "login_at", "host_token_hash", "created_at", "updated_at", "settled_at", coalesce("login_at" > now() - make_interval(mins => :loginmins), false), (select "a"."numero_cuenta" from "accounts" "a" where "a"."id" = "transactions"."account_id") from "transactions" where "transactions"."session_id" = :s_id order by "transactions"."created_at" desc limit :one for update;
select "members"."id", "coordinate_cards"."id", "coordinate_cards"."blocked_at", "authoriser_enrolments"."id", "authoriser_enrolments"."blocked_at" from "members" left join "coordinate_cards" on "coordinate_cards"."member_id" = "members"."id" left join "authoriser_enrolments" on "authoriser_enrolments"."member_id" = "members"."id" where "members"."rut" = bench_rut(:n);
with "w0" as (update "authorizations" set "status" = 'expired', "decided_at" = now() where ("authorizations"."id_transaccion" = (:trx)::text and "authorizations"."status" = 'pending')) insert into "authorizations" ("id", "id_transaccion", "member_id", "factor", "cells", "status", "amount", "expires_at", "created_at", "decided_at") values (default, :trx, :m_id, :one, '["G3", "D1", "J5"]', default, :i_monto, now() + make_interval(secs => :authsecs), default, default);
commit;

-- Call 6, pagar
update "sessions" set "last_seen_at" = now() where ("sessions"."token_hash" = :tok and "sessions"."rut" = bench_rut(:n) and "sessions"."revoked_at" is null and "sessions"."last_seen_at" > now() - make_interval(mins => :timeout) and "sessions"."created_at" > now() - make_interval(mins => :lifetime)) returning "id", "rut";
begin;
select "id_transaccion", "session_id", "member_id", "family", "total", "status", "medio_pago", "payer_rut", "account_id", "login_at", "host_token_hash", "created_at", "updated_at", "settled_at", coalesce("login_at" > now() - make_interval(mins => :loginmins), false), (select "a"."numero_cuenta" from "accounts" "a" where "a"."id" = "transactions"."account_id") from "transactions" where "transactions"."session_id" = :s_id order by "transactions"."created_at" desc limit :one for update;
select "id", "id_transaccion", "member_id", "factor", "cells", "status", "amount", "expires_at", "created_at", "decided_at", "expires_at" < now() as "expired" from "authorizations" where "authorizations"."id_transaccion" = (:trx)::text order by "authorizations"."created_at" desc limit :one for update \gset au_
select "id", "member_id", "serial", "cells", "failures", "blocked_at" from "coordinate_cards" where "coordinate_cards"."member_id" = :m_id for update;
update "authorizations" set "status" = 'used', "decided_at" = now() where "authorizations"."id" = :au_id;
-- (the card's failure count, already at zero, is not rewritten)
select "id", "id_transaccion", "product_id", "instalment_id", "numero_cuota", "monto", "fecha_vencimiento", "authorization_code", "status" from "transaction_items" where "transaction_items"."id_transaccion" = (:trx)::text order by "transaction_items"."product_id" asc, "transaction_items"."numero_cuota" asc \gset ti_
select "id", "member_id", "numero_cuenta", "saldo" from "accounts" where "accounts"."id" = :a_id for no key update \gset acc_
select "id", "member_id", "family", "numero_producto", "permite_abono", "permite_multiple_abono", "monto_minimo_abono_multiple", "fecha_vigencia_abono", "fecha_facturacion", "deuda_total", "deuda_total_internacional", "cupo_total", "numero_cuotas_pactadas", "saldo", "created_at" from "products" where "products"."id" = any(:p_ids::uuid[]) order by "products"."id" asc for no key update;
select "id", "product_id", "numero_cuota", "monto_original", "monto_pendiente", "pago_minimo", "fecha_vencimiento", "medio_pago", "paid_at" from "instalments" where "instalments"."id" = any(:i_ids::uuid[]) order by "instalments"."id" asc for no key update;
\set saldo :acc_saldo - :i_monto
select "id", "rut", "name", "email", "password_hash", "password_failures", "password_blocked_at", "list_notice_code", "created_at" from "members" where "members"."id" = :m_id;
-- (every write of the payment in one statement)
with "w0" as (update "accounts" set "saldo" = :saldo where "accounts"."id" = :a_id), "w1" as (update "instalments" set "monto_pendiente" = "instalments"."monto_pendiente" - :i_monto, "pago_minimo" = greatest("instalments"."pago_minimo" - :i_monto, 0), "paid_at" = case when "instalments"."monto_pendiente" - :i_monto = 0 then now() else null end where "instalments"."id" = :i_id), "w2" as (update "products" set "deuda_total" = greatest("products"."deuda_total" - :i_monto, 0) where "products"."id" = :p_id), "w3" as (update "transaction_items" set "authorization_code" = :authcode, "status" = 'paid' where "transaction_items"."id" = :ti_id), "w4" as (insert into "vouchers" ("id", "id_transaccion", "payload", "created_at") values (default, :trx, jsonb_build_array(jsonb_build_object('email', '', 'horaPago', '13:00:00', 'fechaPago', '20261121', 'medioPago', 'CUENTA VISTA', 'rutDeudor', bench_rut(:n), 'cuentaPago', '****0000', 'detallePago', jsonb_build_object('montoPagado', (:i_monto)::int, 'numeroCuota', (:i_cuota)::int, 'cantidadCuotas', 1, 'numeroAutorizacion', (:authcode)::text), 'idTransaccion', (:trx)::text, 'numeroProducto', (:p_numero_producto)::text, 'descripcionProducto', 'CREDITO DE CONSUMO')), default)), "w5" as (insert into "audit_log" ("id", "at", "kind", "rut_masked", "request_id", "detail") values (default, default, 'pago.cuentavista', '*****000-2', gen_random_uuid()::text, jsonb_build_object('total', (:i_monto)::int, 'idTransaccion', (:trx)::text))) update "transactions" set "status" = 'paid', "medio_pago" = 'CUENTA VISTA', "updated_at" = now(), "settled_at" = now() where ("transactions"."id_transaccion" = (:trx)::text and "transactions"."status" = 'pending');
commit;

-- Call 7, consultar (the voucher)
update "sessions" set "last_seen_at" = now() where ("sessions"."token_hash" = :tok and "sessions"."revoked_at" is null and "sessions"."last_seen_at" > now() - make_interval(mins => :timeout) and "sessions"."created_at" > now() - make_interval(mins => :lifetime)) returning "id", "rut";
-- (the transaction and its voucher in one read)
select "transactions"."status", "vouchers"."payload" from "transactions" left join "vouchers" on "vouchers"."id_transaccion" = "transactions"."id_transaccion" where ("transactions"."id_transaccion" = (:trx)::text and "transactions"."session_id" = :s_id);
