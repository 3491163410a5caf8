-- The debit path's per-call costs on PostgreSQL (issue 18), measured on bench/scale-out.ts and
-- bench/pg-apply.ts; docs/methodology.md#set-based-group-commit.
--
-- 1. `os_apply_set` took its balance-row locks in the outer transaction and updated the rows
--    inside the fast path's subtransaction. PostgreSQL keeps such a row's lock and update as a
--    MultiXact: one new MultiXact per call (members written to pg_multixact and WAL, looked up by
--    every later reader of the row, and frozen by anti-wraparound vacuums: at 200 calls/s the
--    default 400 M freeze age is reached in about 23 days). The locks are now taken inside the
--    block, so the subtransaction that locks a row is the one that updates it.
-- 2. The ledger and usage tables' foreign keys to `accounts` ran one referential check per row
--    (an SPI query and a `FOR KEY SHARE` row lock, WAL-logged, on the account row) inside every
--    batch. Every row of both tables is written by the functions of 002/005 and by the admin's
--    grant, each after reading or locking the account's `balances` row, whose foreign key to
--    `accounts` stays; and accounts are never deleted, now enforced by a trigger. So those two
--    checks could never fail, and they are dropped.


ALTER TABLE ledger DROP CONSTRAINT ledger_account_id_fkey;
ALTER TABLE usage DROP CONSTRAINT usage_account_id_fkey;

-- Accounts are closed by status ('blocked'), never deleted: the ledger outlives them.
CREATE FUNCTION accounts_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'accounts are never deleted (set status to blocked)';
END $$;
CREATE TRIGGER accounts_no_delete BEFORE DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION accounts_never_deleted();
CREATE TRIGGER balances_no_delete BEFORE DELETE ON balances FOR EACH ROW EXECUTE FUNCTION accounts_never_deleted();

CREATE OR REPLACE FUNCTION os_apply_set(p_ops JSONB)
RETURNS TABLE (i INTEGER, code TEXT, balance BIGINT, ledger_id BIGINT, cap BIGINT) LANGUAGE plpgsql AS $$
DECLARE
  ops os_op[];
  fast TEXT[] := '{}';
  o os_op;
  res RECORD;
  done_i INTEGER[];
  done_after BIGINT[];
  done_id BIGINT[];
BEGIN
  -- Elements carry no index: number them in array order (the caller's order).
  SELECT array_agg(ROW((x.k - 1)::INTEGER, x.op, x.a, x.n, x.rq, x.rt, x.ts, x.d, x.m, x.gp, x.gc, x.gm)::os_op ORDER BY x.k)
    INTO ops
    FROM ROWS FROM (jsonb_to_recordset(p_ops)
           AS (op TEXT, a TEXT, n BIGINT, rq TEXT, rt TEXT, ts BIGINT, d TEXT, m TEXT, gp TEXT, gc BIGINT, gm BOOLEAN))
         WITH ORDINALITY AS x(op, a, n, rq, rt, ts, d, m, gp, gc, gm, k);
  IF ops IS NULL THEN RETURN; END IF;

  -- Fast path: accounts whose operations are all debits of one day, month and grant period, whose
  -- grant is recorded, and whose caps and balance hold for the batch's total. Each prefix of a
  -- fitting total fits too, so every one of these debits is admitted, as one by one.
  BEGIN
    -- Lock every balance row of the batch in account order (the order every batch of every
    -- instance uses, so two batches cannot deadlock). Later statements see the rows as locked.
    -- Locked inside this block, by the same subtransaction that updates them: a lock taken by the
    -- outer transaction and an update by a subtransaction make PostgreSQL record both in a new
    -- MultiXact, one per call (see the header).
    PERFORM 1 FROM balances b WHERE b.account_id IN (SELECT DISTINCT u.a FROM unnest(ops) u)
      ORDER BY b.account_id FOR UPDATE;

    SELECT coalesce(array_agg(t.a), '{}') INTO fast
      FROM (SELECT u.a, sum(u.n) AS total, min(u.d) AS d, min(u.m) AS m, min(u.gp) AS gp
              FROM unnest(ops) u
             GROUP BY u.a
            HAVING bool_and(u.op = 'debit' AND u.n > 0 AND u.d IS NOT NULL AND u.m IS NOT NULL)
               AND count(DISTINCT u.d) = 1 AND count(DISTINCT u.m) = 1 AND count(DISTINCT u.gp) = 1) t
      JOIN balances b ON b.account_id = t.a
      JOIN accounts ac ON ac.id = t.a
     WHERE b.credits >= t.total
       AND EXISTS (SELECT 1 FROM grants g WHERE g.account_id = t.a AND g.period = t.gp)
       AND (ac.daily_cap IS NULL OR coalesce((SELECT s.credits FROM usage s WHERE s.account_id = t.a AND s.period = t.d), 0) + t.total <= ac.daily_cap)
       AND (ac.monthly_cap IS NULL OR coalesce((SELECT s.credits FROM usage s WHERE s.account_id = t.a AND s.period = t.m), 0) + t.total <= ac.monthly_cap);

    IF cardinality(fast) > 0 THEN
      WITH upd AS (
        UPDATE balances b SET credits = b.credits - t.total
          FROM (SELECT u.a, sum(u.n) AS total FROM unnest(ops) u WHERE u.a = ANY (fast) GROUP BY u.a) t
         WHERE b.account_id = t.a AND b.credits >= t.total
        RETURNING b.account_id, b.credits + t.total AS before
      ), deb AS (
        -- Balance after each debit, in the batch's order (strictly decreasing: n > 0).
        SELECT u.i, u.a, u.n, u.rq, u.rt, u.ts,
               p.before - sum(u.n) OVER (PARTITION BY u.a ORDER BY u.i) AS after
          FROM unnest(ops) u JOIN upd p ON p.account_id = u.a
      ), ins AS (
        INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
        SELECT r.a, r.ts, -r.n, 'debit', r.rq, r.rt, r.after FROM deb r ORDER BY r.a, r.i
        RETURNING ledger.id, ledger.account_id, ledger.balance_after
      ), used AS (
        INSERT INTO usage (account_id, period, credits)
        SELECT u.a, per.period, sum(u.n)
          FROM unnest(ops) u CROSS JOIN LATERAL (VALUES (u.d), (u.m)) AS per(period)
         WHERE u.a = ANY (fast)
         GROUP BY u.a, per.period
        ON CONFLICT (account_id, period) DO UPDATE SET credits = usage.credits + excluded.credits
      )
      SELECT array_agg(r.i), array_agg(r.after), array_agg(l.id) INTO done_i, done_after, done_id
        FROM deb r JOIN ins l ON l.account_id = r.a AND l.balance_after = r.after;
    END IF;
  EXCEPTION WHEN OTHERS THEN
    -- Nothing of the fast path is kept (its subtransaction rolled back, its locks with it): every
    -- operation goes the one-by-one way below, which locks each row again as `os_apply` does.
    fast := '{}';
    done_i := NULL;
  END;
  -- Answered after the block, so a rolled-back fast path has answered nothing.
  RETURN QUERY SELECT x.i, 'ok'::TEXT, x.after, x.id, NULL::BIGINT FROM unnest(done_i, done_after, done_id) AS x(i, after, id)
    WHERE done_i IS NOT NULL;

  -- Everything else, one operation at a time in the batch's order, each in its own subtransaction
  -- (an unexpected error fails that operation only, as in os_apply).
  FOREACH o IN ARRAY ops LOOP
    CONTINUE WHEN o.a = ANY (fast);
    BEGIN
      IF o.op = 'debit' THEN
        SELECT * INTO res FROM os_debit(o.a, o.n, o.rq, o.rt, o.ts, o.d, o.m, o.gp, o.gc, o.gm);
      ELSE
        SELECT * INTO res FROM os_refund(o.a, o.n, o.rq, o.rt, o.ts, o.gp, o.gc, o.gm);
      END IF;
      i := o.i; code := res.code; balance := res.balance; ledger_id := res.ledger_id; cap := res.cap;
    EXCEPTION WHEN OTHERS THEN
      i := o.i; code := 'error'; balance := NULL; ledger_id := NULL; cap := NULL;
    END;
    RETURN NEXT;
  END LOOP;
END $$;
