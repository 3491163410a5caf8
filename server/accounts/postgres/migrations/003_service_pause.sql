-- The maintenance pause flag (`optionscope pause|resume`), one row, shared by every instance.
-- Same table as the SQLite store's (server/control/service-state.ts).
CREATE TABLE service_pause (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  retry_after_s INTEGER NOT NULL CHECK (retry_after_s > 0),
  message       TEXT NOT NULL,
  since_ms      BIGINT NOT NULL
);
