-- A paid payment reversed through four eyes (decision 050): transactions reversing → reversed, items reversed (owed
-- again), the core's reversal operations, and the change that proposes one.
ALTER TABLE "core_operations" DROP CONSTRAINT "core_operations_kind_chk";--> statement-breakpoint
ALTER TABLE "operator_changes" DROP CONSTRAINT "operator_changes_kind_chk";--> statement-breakpoint
ALTER TABLE "transaction_items" DROP CONSTRAINT "transaction_items_status_chk";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_status_chk";--> statement-breakpoint
ALTER TABLE "core_operations" ADD CONSTRAINT "core_operations_kind_chk" CHECK ("core_operations"."kind" in ('cuenta_vista','abono_webpay','anulacion'));--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_kind_chk" CHECK ("operator_changes"."kind" in ('parametro','reposteo_core','devolucion_webpay','token','roles_operador','codigo_autorizador','cierre_dia','anulacion_pago'));--> statement-breakpoint
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_status_chk" CHECK ("transaction_items"."status" in ('pending','paid','reversed','rejected'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_chk" CHECK ("transactions"."status" in ('pending','posting','paid','reversing','reversed','rejected','cancelled','expired'));