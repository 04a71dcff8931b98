-- A metadata-document client's row outlives its document's cache: expires_at is now when any client is
-- forgotten (as for registered ones: a quarter hour unless authorized, moved on by each authorization and
-- refresh), and document_expires_at when the consent page fetches the document again. The token endpoint
-- never fetches, so a client authorized before this kept its grants' rows only while its cached copy was
-- fresh: those with a grant or a code get the idle lifetime of an authorized client (31 days).
ALTER TABLE "oauth_clients" ADD COLUMN "document_expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "oauth_clients" c
   SET "document_expires_at" = c."expires_at",
       "expires_at" = CASE
         WHEN EXISTS (SELECT 1 FROM "oauth_grants" g WHERE g."client_id" = c."id")
           OR EXISTS (SELECT 1 FROM "oauth_codes" k WHERE k."client_id" = c."id")
         THEN greatest(c."expires_at", now() + interval '31 days')
         ELSE c."expires_at"
       END
 WHERE c."kind" = 'metadata_document';
