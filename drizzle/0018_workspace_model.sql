-- The workspace model (lib/providers/extract/model.ts, `workspace_llm`): the non-secret settings stored beside
-- a sealed provider key (base URL, model, price per million tokens); null for every other provider.
ALTER TABLE "provider_keys" ADD COLUMN "settings" jsonb;
