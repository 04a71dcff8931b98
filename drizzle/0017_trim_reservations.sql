-- Calls priced by what they use (a model's tokens, lib/engine/extract) reserve the most they can cost at
-- admission; when such a call settles for less, its reservation is trimmed to what it cost before it is
-- settled: the difference leaves every usd counter it was charged to (in turn with admissions, like a
-- refund), and the reservation's charges, deferred charges and amount become the cost. A trim never raises a
-- charge, and only a reservation still `reserved` is trimmed (a replayed close changes nothing).
-- p_trims: [{id, amount}] in micro-dollars.
CREATE OR REPLACE FUNCTION trim_reservations(p_tenant uuid, p_trims jsonb) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM set_config('role', 'searchmux_app', true);
  PERFORM set_config('searchmux.tenant_id', p_tenant::text, true);
  PERFORM lock_tenant_counters(p_tenant);
  WITH targets AS (
    SELECT r.id, r.amount AS reserved, greatest((t->>'amount')::bigint, 0) AS cost, r.charges
      FROM jsonb_array_elements(p_trims) t
      JOIN reservations r ON r.id = (t->>'id')::uuid
     WHERE r.tenant_id = p_tenant AND r.status = 'reserved' AND (t->>'amount')::bigint < r.amount
  ), back AS (
    SELECT c->>0 AS provider, c->>2 AS period_key, sum(t.reserved - t.cost) AS amount
      FROM targets t, jsonb_array_elements(t.charges) c
     WHERE c->>1 = 'usd'
     GROUP BY 1, 2
  ), refunded AS (
    UPDATE usage_counters u SET used = greatest(u.used - back.amount, 0), updated_at = now()
      FROM back
     WHERE u.tenant_id = p_tenant AND u.provider = back.provider AND u.metric = 'usd'
       AND u.period_key = back.period_key
    RETURNING 1
  )
  UPDATE reservations r
     SET amount = t.cost,
         charges = (SELECT coalesce(jsonb_agg(CASE WHEN c->>1 = 'usd'
                                                   THEN jsonb_build_array(c->0, c->1, c->2, t.cost) ELSE c END), '[]')
                      FROM jsonb_array_elements(r.charges) c),
         deferred_charges = (SELECT coalesce(jsonb_agg(CASE WHEN c->>1 = 'usd'
                                                            THEN jsonb_build_array(c->0, c->1, c->2, t.cost) ELSE c END), '[]')
                               FROM jsonb_array_elements(r.deferred_charges) c)
    FROM targets t
   WHERE r.id = t.id;
END
$$;
