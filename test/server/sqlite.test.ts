// The SQLite wrapper keeps the behaviour the stores were written against (docs/operations.md#sqlite-driver):
// better-sqlite3's transaction nesting, its error codes and closed-handle message, its defaults.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openAccountsDb } from "../../server/accounts/open-db";
import { openSqlite, PAGE_CACHE_PRAGMA, type Sqlite, SqliteError, sqliteCodeName } from "../../server/sqlite";

const dir = mkdtempSync(join(tmpdir(), "osc-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh in-memory table `t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)`. */
function table(trace?: (sql: string) => void): Sqlite {
  const db = openSqlite(":memory:", { trace });
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)");
  return db;
}

/** What `fn` throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

const names = (db: Sqlite) => db.prepare("SELECT name FROM t ORDER BY id").pluck().all();

describe("transactions nest as better-sqlite3's did", () => {
  it("commits at the outermost call; a failed inner call undoes only its own writes", () => {
    const db = table();
    const insert = db.prepare("INSERT INTO t (name) VALUES (?)");
    const inner = db.transaction((name: string) => {
      insert.run(name);
      if (name === "bad") throw new Error("inner");
    });
    const outer = db.transaction(() => {
      insert.run("a");
      inner("b");
      expect(() => inner("bad")).toThrow("inner");
      expect(db.inTransaction).toBe(true); // the savepoint was released, the transaction goes on
      insert.run("c");
    });
    outer.immediate();
    expect(db.inTransaction).toBe(false);
    expect(names(db)).toEqual(["a", "b", "c"]);
  });

  it("a failed outer call rolls everything back and rethrows the same error", () => {
    const db = table();
    const boom = new Error("outer");
    const tx = db.transaction(() => {
      db.prepare("INSERT INTO t (name) VALUES ('x')").run();
      db.transaction(() => db.prepare("INSERT INTO t (name) VALUES ('y')").run())();
      throw boom;
    });
    expect(thrown(() => tx())).toBe(boom);
    expect(db.inTransaction).toBe(false);
    expect(names(db)).toEqual([]);
  });

  it("does not roll back again what SQLite (here the function itself) already rolled back", () => {
    const db = table();
    const tx = db.transaction(() => {
      db.prepare("INSERT INTO t (name) VALUES ('x')").run();
      db.exec("ROLLBACK");
      throw new Error("after rollback");
    });
    // A second ROLLBACK would fail with "no transaction is active" and hide this error.
    expect(() => tx()).toThrow("after rollback");
    expect(names(db)).toEqual([]);
  });

  it("refuses a function that returns a promise, and rolls back", () => {
    const db = table();
    const tx = db.transaction(async () => db.prepare("INSERT INTO t (name) VALUES ('x')").run());
    expect(() => tx()).toThrow(TypeError);
    expect(names(db)).toEqual([]);
  });

  it("every variant is reachable from every other and runs BEGIN of its kind", () => {
    const traced: string[] = [];
    const db = table((sql) => traced.push(sql));
    const tx = db.transaction(() => 1);
    expect([tx(), tx.immediate(), tx.exclusive(), tx.immediate.deferred(), tx.exclusive.immediate()]).toEqual([1, 1, 1, 1, 1]);
    expect(traced.filter((s) => s.startsWith("BEGIN"))).toEqual(["BEGIN", "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE", "BEGIN", "BEGIN IMMEDIATE"]);
  });
});

describe("errors", () => {
  it("names SQLite's extended result codes as better-sqlite3 did, from run, get, all and exec", () => {
    const db = table();
    db.prepare("INSERT INTO t (id, name) VALUES (1, 'a')").run();
    const codes = [
      thrown(() => db.prepare("INSERT INTO t (id, name) VALUES (1, 'b')").run()),
      thrown(() => db.prepare("INSERT INTO t (id, name) VALUES (2, 'a') RETURNING id").get()),
      thrown(() => db.prepare("INSERT INTO t (id, name) VALUES (3, NULL) RETURNING id").all()),
      thrown(() => db.exec("SELEC 1")),
    ];
    for (const e of codes) expect(e).toBeInstanceOf(SqliteError);
    expect(codes.map((e) => [(e as SqliteError).name, (e as SqliteError).code])).toEqual([
      ["SqliteError", "SQLITE_CONSTRAINT_PRIMARYKEY"],
      ["SqliteError", "SQLITE_CONSTRAINT_UNIQUE"],
      ["SqliteError", "SQLITE_CONSTRAINT_NOTNULL"],
      ["SqliteError", "SQLITE_ERROR"],
    ]);
  });

  it("a lock held elsewhere is SQLITE_BUSY after the timeout; a read-only handle's write is SQLITE_READONLY", () => {
    const path = join(dir, "busy.sqlite");
    const a = openSqlite(path);
    a.exec("CREATE TABLE t (x)");
    const b = openSqlite(path, { timeoutMs: 0 });
    const ro = openSqlite(path, { readonly: true });
    a.exec("BEGIN EXCLUSIVE");
    expect((thrown(() => b.prepare("SELECT * FROM t").all()) as SqliteError).code).toBe("SQLITE_BUSY");
    a.exec("ROLLBACK");
    expect((thrown(() => ro.exec("INSERT INTO t VALUES (1)")) as SqliteError).code).toBe("SQLITE_READONLY");
    for (const db of [a, b, ro]) db.close();
  });

  it("a file that is not a database is SQLITE_NOTADB", () => {
    const path = join(dir, "garbage.sqlite");
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    const db = openSqlite(path);
    expect((thrown(() => db.prepare("SELECT * FROM sqlite_master").all()) as SqliteError).code).toBe("SQLITE_NOTADB");
    db.close();
  });

  it("a closed handle throws better-sqlite3's message from prepare, exec and a statement prepared before", () => {
    const db = table();
    const stmt = db.prepare("SELECT * FROM t");
    db.close();
    db.close(); // a second close does nothing
    expect(db.open).toBe(false);
    for (const fn of [() => stmt.all(), () => db.prepare("SELECT 1"), () => db.exec("SELECT 1")]) {
      expect(thrown(fn)).toEqual(new TypeError("The database connection is not open"));
    }
  });

  it("what a SQL function throws reaches the caller unchanged, through run and all", () => {
    const db = table();
    const outage = new SqliteError("disk I/O error", "SQLITE_IOERR");
    db.function("fail", () => {
      throw outage;
    });
    expect(thrown(() => db.prepare("SELECT fail()").all())).toBe(outage);
    db.exec("CREATE TEMP TRIGGER t_fail BEFORE INSERT ON t BEGIN SELECT fail(); END");
    expect(thrown(() => db.prepare("INSERT INTO t (name) VALUES ('x')").run())).toBe(outage);
  });

  // Result codes from sqlite3.h (primary | index << 8), independent of the table in server/sqlite.ts.
  it.each([
    [5, "SQLITE_BUSY"],
    [261, "SQLITE_BUSY_RECOVERY"],
    [517, "SQLITE_BUSY_SNAPSHOT"],
    [266, "SQLITE_IOERR_READ"],
    [8714, "SQLITE_IOERR_IN_PAGE"],
    [779, "SQLITE_CORRUPT_INDEX"],
    [1555, "SQLITE_CONSTRAINT_PRIMARYKEY"],
    [2067, "SQLITE_CONSTRAINT_UNIQUE"],
    [516, "SQLITE_ABORT_ROLLBACK"],
    [260, "UNKNOWN_SQLITE_ERROR_260"],
    [29, "UNKNOWN_SQLITE_ERROR_29"],
  ])("code %i is %s", (code, name) => {
    expect(sqliteCodeName(code)).toBe(name);
  });
});

describe("statements and settings", () => {
  it("pluck, pragma, named and undefined parameters, blobs and run results", () => {
    const db = table();
    expect(db.prepare("INSERT INTO t (name) VALUES (@name)").run({ name: "a", unused: 1 })).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(db.prepare("SELECT name FROM t WHERE id = ?").pluck().get(1)).toBe("a");
    expect(db.prepare("SELECT name FROM t WHERE id = ?").pluck().get(2)).toBeUndefined();
    expect(db.prepare("SELECT id, name FROM t").all()).toEqual([{ id: 1, name: "a" }]);
    expect(db.prepare("SELECT ? AS v").get(undefined)).toEqual({ v: null });
    const blob = db
      .prepare("SELECT ? AS b")
      .pluck()
      .get(Buffer.from([1, 2, 3]));
    expect(blob).toEqual(Uint8Array.of(1, 2, 3));
    expect(db.pragma("user_version = 3")).toEqual([]);
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    expect(db.pragma("user_version")).toEqual([{ user_version: 3 }]);
  });

  it("defaults to better-sqlite3's busy timeout (5 s), timeoutMs overrides; the stores set its 16 MB page cache", () => {
    expect(openSqlite(":memory:").pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(openSqlite(":memory:", { timeoutMs: 20 }).pragma("busy_timeout", { simple: true })).toBe(20);
    const accounts = openAccountsDb(join(dir, "accounts.sqlite"));
    const daily = openSqlite(join(dir, "daily.sqlite"));
    daily.pragma(PAGE_CACHE_PRAGMA);
    expect([accounts.pragma("cache_size", { simple: true }), daily.pragma("cache_size", { simple: true })]).toEqual([-16000, -16000]);
    accounts.close();
    daily.close();
  });

  it("traces every statement run with its parameters filled in, transaction control included", () => {
    const traced: string[] = [];
    const db = table((sql) => traced.push(sql));
    traced.length = 0;
    db.transaction(() => db.prepare("INSERT INTO t (name) VALUES (?)").run("it's"))();
    db.prepare("SELECT name FROM t WHERE id = ?").pluck().get(1);
    // A JS number binds as REAL (better-sqlite3 did the same), so it is written 1.0.
    expect(traced).toEqual(["BEGIN", "INSERT INTO t (name) VALUES ('it''s')", "COMMIT", "SELECT name FROM t WHERE id = 1.0"]);
  });
});
