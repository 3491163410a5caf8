-- Debits, refunds and plan grants as functions, so that each is one round trip and one
-- transaction: the balance row is locked first (FOR UPDATE), which serialises one account's
-- operations across every server instance, so caps and the balance check are exact. Outcomes a
-- caller must see (402s) are returned as codes, not raised, so a batch of operations commits
-- together (group commit) while each keeps its own result. See docs/operations.md#postgresql.

-- Apply the plan's grant of `p_period` once: monthly plans top up to `p_credits` (purchased
-- credits above it are kept), one-off grants add. Call with the balance row locked.
CREATE FUNCTION os_ensure_grant(p_account TEXT, p_period TEXT, p_credits BIGINT, p_monthly BOOLEAN, p_ts BIGINT)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cur BIGINT;
  add BIGINT;
  after BIGINT;
  lid BIGINT;
BEGIN
  IF EXISTS (SELECT 1 FROM grants WHERE account_id = p_account AND period = p_period) THEN RETURN; END IF;
  SELECT credits INTO cur FROM balances WHERE account_id = p_account FOR UPDATE;
  IF NOT FOUND THEN RETURN; END IF;
  -- Read committed: this statement sees a grant committed while we waited for the lock.
  IF EXISTS (SELECT 1 FROM grants WHERE account_id = p_account AND period = p_period) THEN RETURN; END IF;
  add := CASE WHEN p_monthly THEN greatest(0, p_credits - cur) ELSE p_credits END;
  UPDATE balances SET credits = credits + add WHERE account_id = p_account RETURNING credits INTO after;
  INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
    VALUES (p_account, p_ts, add, 'grant', 'grant:' || p_period, 'grant', after) RETURNING id INTO lid;
  INSERT INTO grants (account_id, period, ledger_id) VALUES (p_account, p_period, lid);
END $$;

-- One debit: code 'ok' | 'forbidden' (no such account) | 'daily_cap_reached' |
-- 'monthly_cap_reached' | 'insufficient_credits'; `cap` names the cap that refused.
CREATE FUNCTION os_debit(p_account TEXT, p_credits BIGINT, p_request TEXT, p_route TEXT, p_ts BIGINT,
                         p_day TEXT, p_month TEXT, p_gperiod TEXT, p_gcredits BIGINT, p_gmonthly BOOLEAN,
                         OUT code TEXT, OUT balance BIGINT, OUT ledger_id BIGINT, OUT cap BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  caps RECORD;
  used_d BIGINT;
  used_m BIGINT;
BEGIN
  PERFORM 1 FROM balances WHERE account_id = p_account FOR UPDATE;
  IF NOT FOUND THEN code := 'forbidden'; balance := 0; RETURN; END IF;
  PERFORM os_ensure_grant(p_account, p_gperiod, p_gcredits, p_gmonthly, p_ts);
  SELECT daily_cap, monthly_cap INTO caps FROM accounts WHERE id = p_account;
  used_d := coalesce((SELECT credits FROM usage WHERE account_id = p_account AND period = p_day), 0);
  used_m := coalesce((SELECT credits FROM usage WHERE account_id = p_account AND period = p_month), 0);
  SELECT credits INTO balance FROM balances WHERE account_id = p_account;
  IF caps.daily_cap IS NOT NULL AND used_d + p_credits > caps.daily_cap THEN
    code := 'daily_cap_reached'; cap := caps.daily_cap; RETURN;
  END IF;
  IF caps.monthly_cap IS NOT NULL AND used_m + p_credits > caps.monthly_cap THEN
    code := 'monthly_cap_reached'; cap := caps.monthly_cap; RETURN;
  END IF;
  IF balance < p_credits THEN code := 'insufficient_credits'; RETURN; END IF;
  UPDATE balances SET credits = credits - p_credits WHERE account_id = p_account AND credits >= p_credits
    RETURNING credits INTO balance;
  INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
    VALUES (p_account, p_ts, -p_credits, 'debit', p_request, p_route, balance) RETURNING id INTO ledger_id;
  INSERT INTO usage (account_id, period, credits) VALUES (p_account, p_day, p_credits), (p_account, p_month, p_credits)
    ON CONFLICT (account_id, period) DO UPDATE SET credits = usage.credits + excluded.credits;
  code := 'ok';
END $$;

-- The ET day and month keys of an instant (the same periods as server/accounts/et-periods.ts).
CREATE FUNCTION os_et_periods(p_ts BIGINT, OUT day TEXT, OUT month TEXT) LANGUAGE sql IMMUTABLE AS $$
  SELECT 'd:' || to_char(to_timestamp(p_ts / 1000.0) AT TIME ZONE 'America/New_York', 'YYYY-MM-DD'),
         'm:' || to_char(to_timestamp(p_ts / 1000.0) AT TIME ZONE 'America/New_York', 'YYYY-MM')
$$;

-- Compensating entry for the debits of one request id, never more than was debited net of
-- earlier refunds (so a repeat is harmless). Refunded credits leave the caps of the period they
-- were spent in. code 'ok' always; ledger_id NULL when nothing was refunded.
CREATE FUNCTION os_refund(p_account TEXT, p_credits BIGINT, p_request TEXT, p_route TEXT, p_ts BIGINT,
                          p_gperiod TEXT, p_gcredits BIGINT, p_gmonthly BOOLEAN,
                          OUT code TEXT, OUT balance BIGINT, OUT ledger_id BIGINT, OUT cap BIGINT)
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  amount BIGINT;
  spent RECORD;
BEGIN
  code := 'ok';
  PERFORM 1 FROM balances WHERE account_id = p_account FOR UPDATE;
  IF NOT FOUND THEN balance := 0; RETURN; END IF;
  PERFORM os_ensure_grant(p_account, p_gperiod, p_gcredits, p_gmonthly, p_ts);
  SELECT coalesce(sum(CASE WHEN kind = 'debit' THEN -delta END), 0) AS debited,
         coalesce(sum(CASE WHEN kind = 'refund' THEN delta END), 0) AS refunded,
         max(CASE WHEN kind = 'debit' THEN ts_ms END) AS last_debit_ms
    INTO r FROM ledger WHERE account_id = p_account AND request_id = p_request;
  amount := least(p_credits, r.debited - r.refunded);
  IF amount <= 0 THEN
    SELECT credits INTO balance FROM balances WHERE account_id = p_account;
    RETURN;
  END IF;
  UPDATE balances SET credits = credits + amount WHERE account_id = p_account RETURNING credits INTO balance;
  INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
    VALUES (p_account, p_ts, amount, 'refund', p_request, p_route, balance) RETURNING id INTO ledger_id;
  SELECT * INTO spent FROM os_et_periods(coalesce(r.last_debit_ms, p_ts));
  INSERT INTO usage (account_id, period, credits) VALUES (p_account, spent.day, 0), (p_account, spent.month, 0)
    ON CONFLICT (account_id, period) DO UPDATE SET credits = greatest(0, usage.credits - amount);
END $$;

-- A batch of debits and refunds in one transaction (one commit, one WAL flush: group commit).
-- Each element: {"op": "debit"|"refund", "a": account, "n": credits, "rq": request id, "rt": route,
-- "ts": ms, "d": day, "m": month, "gp": grant period, "gc": grant credits, "gm": monthly}.
-- Each runs in its own subtransaction: an unexpected error fails that one ('error') only.
CREATE FUNCTION os_apply(p_ops JSONB)
RETURNS TABLE (i INTEGER, code TEXT, balance BIGINT, ledger_id BIGINT, cap BIGINT) LANGUAGE plpgsql AS $$
DECLARE
  o JSONB;
  k INTEGER := 0;
  res RECORD;
BEGIN
  FOR o IN SELECT value FROM jsonb_array_elements(p_ops) LOOP
    BEGIN
      IF o->>'op' = 'debit' THEN
        SELECT * INTO res FROM os_debit(o->>'a', (o->>'n')::BIGINT, o->>'rq', o->>'rt', (o->>'ts')::BIGINT,
          o->>'d', o->>'m', o->>'gp', (o->>'gc')::BIGINT, (o->>'gm')::BOOLEAN);
      ELSE
        SELECT * INTO res FROM os_refund(o->>'a', (o->>'n')::BIGINT, o->>'rq', o->>'rt', (o->>'ts')::BIGINT,
          o->>'gp', (o->>'gc')::BIGINT, (o->>'gm')::BOOLEAN);
      END IF;
      i := k; code := res.code; balance := res.balance; ledger_id := res.ledger_id; cap := res.cap;
    EXCEPTION WHEN OTHERS THEN
      i := k; code := 'error'; balance := NULL; ledger_id := NULL; cap := NULL;
    END;
    RETURN NEXT;
    k := k + 1;
  END LOOP;
END $$;
