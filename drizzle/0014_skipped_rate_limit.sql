-- A provider attempt skipped because its key was paused after a 429 or had no send slot left (the
-- provider's per-second limit): traced as its own outcome, never as an error of the provider.
ALTER TYPE "public"."span_outcome" ADD VALUE 'skipped_rate_limit';
