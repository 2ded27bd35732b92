CREATE TABLE "authoriser_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"name" text NOT NULL,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "authoriser_enrolment_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"issued_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "authoriser_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"authorization_id" uuid NOT NULL,
	"body" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "push" jsonb;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "nonce" text;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "device_id" uuid;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "signature" text;--> statement-breakpoint
ALTER TABLE "authoriser_devices" ADD CONSTRAINT "authoriser_devices_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authoriser_enrolment_codes" ADD CONSTRAINT "authoriser_enrolment_codes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authoriser_webhooks" ADD CONSTRAINT "authoriser_webhooks_authorization_id_authorizations_id_fk" FOREIGN KEY ("authorization_id") REFERENCES "public"."authorizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "authoriser_devices_active_idx" ON "authoriser_devices" USING btree ("member_id") WHERE "authoriser_devices"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "authoriser_webhooks_due_idx" ON "authoriser_webhooks" USING btree ("next_attempt_at") WHERE "authoriser_webhooks"."delivered_at" is null;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_device_id_authoriser_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."authoriser_devices"("id") ON DELETE no action ON UPDATE no action;