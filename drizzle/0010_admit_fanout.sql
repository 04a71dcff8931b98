-- Budget admission of a whole fan-out (admit_fanout, what lib/services/budgets/admission.ts calls): in a
-- handful of statements when the batch fits every limit it touches (admit_calls_together), else call by call
-- (admit_calls, drizzle/0007_admit_calls.sql). The call-by-call loop costs a few statements and a
-- subtransaction per call: about 0.3 ms each on PostgreSQL, more on the embedded database, on the path of
-- every uncached search.
--
-- admit_calls_together answers exactly what the loop would, or NULL when it cannot say at once: a key
-- already admitted (a replay) or repeated in the batch, a hard limit the batch would pass, or a soft limit
-- it would cross (the loop records the alert at the call that crosses it). It raises SMX02, which undoes
-- its writes, when a counter or a key moved between its checks and its writes (usage added outside the
-- tenant lock, a concurrent replay).
CREATE OR REPLACE FUNCTION admit_calls_together(
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
  v_plan jsonb;
  v_results jsonb;
  v_counters integer;
  v_updated integer;
BEGIN
  IF (SELECT count(DISTINCT c.value->>'key') FROM jsonb_array_elements(p_calls) c) <> jsonb_array_length(p_calls)
     OR EXISTS (SELECT 1 FROM reservations r
                 WHERE r.tenant_id = p_tenant
                   AND r.idempotency_key IN (SELECT c.value->>'key' FROM jsonb_array_elements(p_calls) c)) THEN
    RETURN NULL;
  END IF;

  -- Every call's plan, numbered by call: the rows admit_calls plans for each call in turn.
  WITH calls AS (
    SELECT c.value AS call, c.n FROM jsonb_array_elements(p_calls) WITH ORDINALITY c(value, n)
  ), candidates AS (
    SELECT calls.n, s.scope AS provider, m.metric, k.period_key, m.amount
      FROM calls
     CROSS JOIN LATERAL unnest(ARRAY[calls.call->>'provider', '*']
                               || CASE WHEN (calls.call->>'operator')::boolean
                                       THEN ARRAY['@operator'] ELSE ARRAY[]::text[] END) s(scope)
     CROSS JOIN LATERAL (VALUES ('requests', 1::bigint), ('usd', (calls.call->>'cost')::bigint)) m(metric, amount)
     CROSS JOIN (VALUES (p_day), (p_months->>'1'), ('lifetime')) k(period_key)
  ), limits AS (
    SELECT calls.n, b.id AS budget_id, b.provider, b.metric::text AS metric, b.period::text AS period,
           b.hard_limit, b.soft_limit, b.anchor_day
      FROM calls
      JOIN budgets b ON b.tenant_id = p_tenant AND b.provider IN (calls.call->>'provider', '*')
    UNION ALL
    SELECT calls.n, NULL, '@operator', q->>'metric', q->>'period', (q->>'limit')::bigint, NULL, 1::smallint
      FROM calls
     CROSS JOIN jsonb_array_elements(p_quotas) q
     WHERE (calls.call->>'operator')::boolean
  ), keyed AS (
    SELECT l.*,
           CASE l.period WHEN 'day' THEN p_day WHEN 'lifetime' THEN 'lifetime'
                         ELSE p_months->>(l.anchor_day::text) END AS period_key,
           CASE l.metric WHEN 'requests' THEN 1::bigint ELSE (calls.call->>'cost')::bigint END AS amount
      FROM limits l
      JOIN calls ON calls.n = l.n
  )
  SELECT coalesce(jsonb_agg(to_jsonb(p)), '[]')
    INTO v_plan
    FROM (SELECT coalesce(k.n, c.n) AS n, coalesce(k.provider, c.provider) AS provider,
                 coalesce(k.metric, c.metric) AS metric, coalesce(k.period_key, c.period_key) AS period_key,
                 coalesce(k.amount, c.amount) AS amount, k.budget_id, k.hard_limit, k.soft_limit
            FROM candidates c
            FULL JOIN keyed k
              ON k.n = c.n AND k.provider = c.provider AND k.metric = c.metric AND k.period_key = c.period_key) p
   WHERE p.amount > 0;

  -- What the whole batch adds to each limited counter, against what the counter holds now.
  IF EXISTS (
    SELECT 1
      FROM (SELECT x.provider, x.metric, x.period_key, sum(x.amount) AS amount,
                   min(x.hard_limit) AS hard_limit, min(x.soft_limit) FILTER (WHERE x.budget_id IS NOT NULL) AS soft_limit
              FROM jsonb_to_recordset(v_plan) AS x(provider text, metric text, period_key text, amount bigint,
                                                   budget_id uuid, hard_limit bigint, soft_limit bigint)
             WHERE x.hard_limit IS NOT NULL
             GROUP BY x.provider, x.metric, x.period_key) t
      LEFT JOIN usage_counters u
        ON u.tenant_id = p_tenant AND u.provider = t.provider AND u.metric = t.metric::budget_metric
       AND u.period_key = t.period_key
     WHERE coalesce(u.used, 0) + t.amount > t.hard_limit
        OR (coalesce(u.used, 0) < t.soft_limit AND coalesce(u.used, 0) + t.amount >= t.soft_limit)
  ) THEN
    RETURN NULL;
  END IF;

  WITH totals AS (
    SELECT x.provider, x.metric, x.period_key, sum(x.amount) AS amount, min(x.hard_limit) AS hard_limit
      FROM jsonb_to_recordset(v_plan) AS x(provider text, metric text, period_key text, amount bigint,
                                           hard_limit bigint)
     WHERE x.hard_limit IS NOT NULL
     GROUP BY x.provider, x.metric, x.period_key
  ), charged AS (
    INSERT INTO usage_counters AS c (tenant_id, provider, metric, period_key, used)
    SELECT p_tenant, t.provider, t.metric::budget_metric, t.period_key, t.amount
      FROM totals t
     WHERE t.amount <= t.hard_limit
    ON CONFLICT (tenant_id, provider, metric, period_key) DO UPDATE
       SET used = c.used + excluded.used, updated_at = now()
     WHERE c.used + excluded.used <= (SELECT t.hard_limit FROM totals t
                                       WHERE t.provider = excluded.provider AND t.metric = excluded.metric::text
                                         AND t.period_key = excluded.period_key)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM totals), (SELECT count(*) FROM charged) INTO v_counters, v_updated;
  IF v_updated <> v_counters THEN
    RAISE EXCEPTION USING ERRCODE = 'SMX02', MESSAGE = 'a counter moved during admission';
  END IF;

  -- Each call's reservation, its limited charges and deferred ones ordered as admit_calls orders them.
  WITH charges AS (
    SELECT x.n,
           coalesce(jsonb_agg(jsonb_build_array(x.provider, x.metric, x.period_key, x.amount)
                              ORDER BY x.provider, x.metric, x.period_key)
                      FILTER (WHERE x.hard_limit IS NOT NULL), '[]') AS charges,
           coalesce(jsonb_agg(jsonb_build_array(x.provider, x.metric, x.period_key, x.amount)
                              ORDER BY x.provider, x.metric, x.period_key)
                      FILTER (WHERE x.hard_limit IS NULL), '[]') AS deferred
      FROM jsonb_to_recordset(v_plan) AS x(n bigint, provider text, metric text, period_key text, amount bigint,
                                           hard_limit bigint)
     GROUP BY x.n
  ), reserved AS (
    INSERT INTO reservations (tenant_id, idempotency_key, provider, charges, deferred_charges, amount, expires_at)
    SELECT p_tenant, c.value->>'key', c.value->>'provider', coalesce(ch.charges, '[]'),
           coalesce(ch.deferred, '[]'), (c.value->>'cost')::bigint, p_expires
      FROM jsonb_array_elements(p_calls) WITH ORDINALITY c(value, n)
      LEFT JOIN charges ch ON ch.n = c.n
    ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
    RETURNING id, idempotency_key
  )
  SELECT jsonb_agg(jsonb_build_object('id', r.id, 'replayed', false) ORDER BY c.n)
    INTO v_results
    FROM reserved r
    JOIN jsonb_array_elements(p_calls) WITH ORDINALITY c(value, n) ON c.value->>'key' = r.idempotency_key;
  IF jsonb_array_length(coalesce(v_results, '[]')) <> jsonb_array_length(p_calls) THEN
    -- Another admission took one of the keys meanwhile: the loop answers it as a replay.
    RAISE EXCEPTION USING ERRCODE = 'SMX02', MESSAGE = 'a key was admitted during admission';
  END IF;
  RETURN v_results;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION admit_fanout(
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
  v_results jsonb;
BEGIN
  -- As admit_calls starts: the tenant's role and, when anything is limited, its turn at the counters.
  PERFORM set_config('role', 'searchmux_app', true);
  PERFORM set_config('searchmux.tenant_id', p_tenant::text, true);
  IF jsonb_array_length(p_quotas) > 0 OR EXISTS (SELECT 1 FROM budgets WHERE tenant_id = p_tenant) THEN
    PERFORM lock_tenant_counters(p_tenant);
  END IF;
  BEGIN
    v_results := admit_calls_together(p_tenant, p_calls, p_day, p_months, p_quotas, p_expires);
  EXCEPTION WHEN SQLSTATE 'SMX02' THEN
    v_results := NULL;
  END;
  RETURN coalesce(v_results, admit_calls(p_tenant, p_calls, p_day, p_months, p_quotas, p_expires));
END
$$;
