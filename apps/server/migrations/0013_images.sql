CREATE TABLE "images" (
	"id" uuid PRIMARY KEY NOT NULL,
	"original_filename" text NOT NULL,
	"alt_text" text DEFAULT '' NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"category" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"file_name" text NOT NULL,
	"thumbnail_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_created_idx" ON "images" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "images_category_idx" ON "images" USING btree ("category","created_at");