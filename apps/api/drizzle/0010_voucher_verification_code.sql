ALTER TABLE "vouchers" ADD COLUMN "verification_code" text;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_verification_code_unique" UNIQUE("verification_code");