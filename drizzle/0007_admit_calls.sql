-- Budget admission of a whole fan-out in one statement (one round trip): lib/services/budgets/admission.ts
-- explains the rules; this is their one implementation.
--
-- p_calls: [{key, provider, cost, operator}] in the order the caller wants answers.
-- p_day / p_months: the period keys of the admission time: day, and the month for each anchor day 1–31.
-- p_quotas: the operator's quotas [{metric, period, limit}] (they limit the @operator counters).
-- Returns, per call in order, {id, replayed} or {exhausted: [{budget_id, provider, metric, period, limit,
-- anchor_day}]}.
--
-- Each call is all or nothing (a subtransaction): its reservation and the counters a budget or quota limits,
-- each charged only while it stays within its hard limit. The counters nothing limits are recorded on the
-- reservation (deferred_charges) and added when the call settles.
-- Admissions of one tenant, and refunds of its charges, take turns: they lock several counter rows each,
-- and in turns they can never hold them in conflicting orders.
CREATE OR REPLACE FUNCTION lock_tenant_counters(p_tenant uuid) RETURNS void
LANGUAGE sql
AS $$ SELECT pg_advisory_xact_lock(hashtextextended('searchmux.counters:' || p_tenant::text, 0)) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION admit_calls(
  p_tenant uuid,
  p_calls jsonb,
  p_day text,
  p_months jsonb,
  p_quotas jsonb,
  p_expires timestamptz
) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
  v_call jsonb;
  v_results jsonb := '[]'::jsonb;
  v_id uuid;
  v_plan jsonb;
  v_charges jsonb;
  v_deferred jsonb;
  v_exhausted jsonb;
  v_limit record;
  v_used bigint;
BEGIN
  -- As the application role of this tenant, like every tenant transaction: row-level security applies.
  PERFORM set_config('role', 'searchmux_app', true);
  PERFORM set_config('searchmux.tenant_id', p_tenant::text, true);
  IF jsonb_array_length(p_quotas) > 0 OR EXISTS (SELECT 1 FROM budgets WHERE tenant_id = p_tenant) THEN
    PERFORM lock_tenant_counters(p_tenant);
  END IF;

  FOR v_call IN SELECT value FROM jsonb_array_elements(p_calls) LOOP
    -- Every counter the call adds to: its provider, `*` and (drawing on the operator) @operator; requests
    -- and (when it costs something) usd; today, this month (anchor 1), lifetime. Each with the budget or
    -- quota that limits it, if any; a monthly budget anchored on another day has a counter of its own.
    WITH candidates AS (
      SELECT s.scope AS provider, m.metric, k.period_key, m.amount
        FROM unnest(ARRAY[v_call->>'provider', '*'] || CASE WHEN (v_call->>'operator')::boolean
                                                            THEN ARRAY['@operator'] ELSE ARRAY[]::text[] END) s(scope)
       CROSS JOIN (VALUES ('requests', 1::bigint), ('usd', (v_call->>'cost')::bigint)) m(metric, amount)
       CROSS JOIN (VALUES (p_day), (p_months->>'1'), ('lifetime')) k(period_key)
    ), limits AS (
      SELECT b.id AS budget_id, b.provider, b.metric::text AS metric, b.period::text AS period,
             b.hard_limit, b.soft_limit, b.anchor_day
        FROM budgets b
       WHERE b.tenant_id = p_tenant AND b.provider IN (v_call->>'provider', '*')
      UNION ALL
      SELECT NULL, '@operator', q->>'metric', q->>'period', (q->>'limit')::bigint, NULL, 1::smallint
        FROM jsonb_array_elements(p_quotas) q
       WHERE (v_call->>'operator')::boolean
    ), keyed AS (
      SELECT l.*,
             CASE l.period WHEN 'day' THEN p_day WHEN 'lifetime' THEN 'lifetime'
                           ELSE p_months->>(l.anchor_day::text) END AS period_key,
             CASE l.metric WHEN 'requests' THEN 1::bigint ELSE (v_call->>'cost')::bigint END AS amount
        FROM limits l
    )
    SELECT coalesce(jsonb_agg(to_jsonb(p) ORDER BY p.provider, p.metric, p.period_key), '[]')
      INTO v_plan
      FROM (SELECT coalesce(k.provider, c.provider) AS provider, coalesce(k.metric, c.metric) AS metric,
                   coalesce(k.period_key, c.period_key) AS period_key, coalesce(k.amount, c.amount) AS amount,
                   k.budget_id, k.period, k.hard_limit, k.soft_limit, k.anchor_day
              FROM candidates c
              FULL JOIN keyed k ON k.provider = c.provider AND k.metric = c.metric AND k.period_key = c.period_key) p
     WHERE p.amount > 0;
    SELECT coalesce(jsonb_agg(jsonb_build_array(e->'provider', e->'metric', e->'period_key', e->'amount'))
                      FILTER (WHERE e->'hard_limit' <> 'null'), '[]'),
           coalesce(jsonb_agg(jsonb_build_array(e->'provider', e->'metric', e->'period_key', e->'amount'))
                      FILTER (WHERE e->'hard_limit' = 'null'), '[]')
      INTO v_charges, v_deferred
      FROM jsonb_array_elements(v_plan) e;

    v_exhausted := '[]'::jsonb;
    BEGIN
      INSERT INTO reservations (tenant_id, idempotency_key, provider, charges, deferred_charges, amount, expires_at)
      VALUES (p_tenant, v_call->>'key', v_call->>'provider', v_charges, v_deferred, (v_call->>'cost')::bigint,
              p_expires)
      ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
      RETURNING id INTO v_id;

      IF v_id IS NULL THEN
        -- A replay of the key: admitted again, charged once.
        SELECT id INTO v_id FROM reservations WHERE tenant_id = p_tenant AND idempotency_key = v_call->>'key';
        v_results := v_results || jsonb_build_object('id', v_id, 'replayed', true);
        CONTINUE;
      END IF;

      FOR v_limit IN SELECT * FROM jsonb_to_recordset(v_plan) AS x(
                        provider text, metric text, period_key text, amount bigint, budget_id uuid,
                        period text, hard_limit bigint, soft_limit bigint, anchor_day smallint)
                      WHERE x.hard_limit IS NOT NULL LOOP
        v_used := NULL;
        INSERT INTO usage_counters AS c (tenant_id, provider, metric, period_key, used)
        SELECT p_tenant, v_limit.provider, v_limit.metric::budget_metric, v_limit.period_key, v_limit.amount
         WHERE v_limit.amount <= v_limit.hard_limit
        ON CONFLICT (tenant_id, provider, metric, period_key) DO UPDATE
           SET used = c.used + excluded.used, updated_at = now()
         WHERE c.used + excluded.used <= v_limit.hard_limit
        RETURNING c.used INTO v_used;

        IF v_used IS NULL THEN
          v_exhausted := v_exhausted || jsonb_build_object(
            'budget_id', v_limit.budget_id, 'provider', v_limit.provider, 'metric', v_limit.metric,
            'period', v_limit.period, 'period_key', v_limit.period_key, 'limit', v_limit.hard_limit,
            'anchor_day', v_limit.anchor_day);
        ELSIF v_limit.soft_limit IS NOT NULL AND v_limit.budget_id IS NOT NULL
              AND v_used >= v_limit.soft_limit AND v_used - v_limit.amount < v_limit.soft_limit THEN
          INSERT INTO budget_alerts (tenant_id, budget_id, kind, period_key, used, "limit")
          VALUES (p_tenant, v_limit.budget_id, 'soft_limit', v_limit.period_key, v_used, v_limit.soft_limit)
          ON CONFLICT DO NOTHING;
        END IF;
      END LOOP;

      IF jsonb_array_length(v_exhausted) > 0 THEN
        -- Undoes this call's reservation and charges; the calls before it keep theirs.
        RAISE EXCEPTION USING ERRCODE = 'SMX01', MESSAGE = 'budget exhausted';
      END IF;
      v_results := v_results || jsonb_build_object('id', v_id, 'replayed', false);
    EXCEPTION WHEN SQLSTATE 'SMX01' THEN
      -- Each exhausted budget is recorded once per period (quotas have no budget row).
      INSERT INTO budget_alerts (tenant_id, budget_id, kind, period_key, used, "limit")
      SELECT p_tenant, (e->>'budget_id')::uuid, 'exhausted', e->>'period_key',
             coalesce((SELECT used FROM usage_counters u
                        WHERE u.tenant_id = p_tenant AND u.provider = e->>'provider'
                          AND u.metric = (e->>'metric')::budget_metric AND u.period_key = e->>'period_key'), 0),
             (e->>'limit')::bigint
        FROM jsonb_array_elements(v_exhausted) e
       WHERE e->>'budget_id' IS NOT NULL
      ON CONFLICT DO NOTHING;
      v_results := v_results || jsonb_build_object('exhausted', v_exhausted);
    END;
  END LOOP;
  RETURN v_results;
END
$$;
--> statement-breakpoint
-- Refunds reservations still `reserved` among p_ids: marks them released and subtracts each recorded charge
-- from its counter, in one statement. Runs with the caller's role: a tenant transaction sees its own rows.
CREATE OR REPLACE FUNCTION release_reservations(p_ids uuid[]) RETURNS integer
LANGUAGE sql
AS $$
  WITH released AS (
    UPDATE reservations SET status = 'released', settled_at = now()
     WHERE status = 'reserved' AND id = ANY(p_ids)
    RETURNING tenant_id, charges
  ), charges AS (
    SELECT r.tenant_id, c->>0 AS provider, c->>1 AS metric, c->>2 AS period_key, sum((c->>3)::bigint) AS amount
      FROM released r, jsonb_array_elements(r.charges) c
     GROUP BY 1, 2, 3, 4
  ), refunded AS (
    UPDATE usage_counters u SET used = greatest(u.used - charges.amount, 0), updated_at = now()
      FROM charges
     WHERE u.tenant_id = charges.tenant_id AND u.provider = charges.provider
       AND u.metric = charges.metric::budget_metric AND u.period_key = charges.period_key
    RETURNING 1
  )
  SELECT count(*)::integer FROM released
$$;
--> statement-breakpoint
-- Closes a tool call's reservations in one statement: `p_kept` calls happened (their charges stay),
-- `p_refunded` ones were not billable (refunded, in turn with admissions). Returns the deferred charges of
-- the kept ones, the usage no budget limits, for the usage sink to add.
CREATE OR REPLACE FUNCTION settle_calls(p_tenant uuid, p_kept uuid[], p_refunded uuid[]) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
  v_deferred jsonb;
BEGIN
  PERFORM set_config('role', 'searchmux_app', true);
  PERFORM set_config('searchmux.tenant_id', p_tenant::text, true);
  IF cardinality(p_refunded) > 0 THEN
    PERFORM lock_tenant_counters(p_tenant);
    PERFORM release_reservations(p_refunded);
  END IF;
  WITH settled AS (
    UPDATE reservations SET status = 'settled', settled_at = now()
     WHERE tenant_id = p_tenant AND id = ANY(p_kept) AND status = 'reserved'
    RETURNING deferred_charges
  )
  SELECT coalesce(jsonb_agg(deferred_charges), '[]') INTO v_deferred FROM settled;
  RETURN v_deferred;
END
$$;
