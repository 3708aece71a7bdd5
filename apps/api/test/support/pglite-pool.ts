import { readFileSync } from 'node:fs';
import { openDatabase, type Database } from '../../src/data/db';
import { migrate } from '../../src/data/migrate';

/**
 * The embedded databases of one test worker, handed out again once closed. Opening one from the run's template costs
 * ~0.5 s of CPU alone and over a second on a loaded machine (WebAssembly start-up and the tarball's unpacking): the
 * API files open about 160, which was about a quarter of their time. A database closed by its test goes back to its
 * first state (every table emptied and the migrations' rows written again, every sequence set back) and waits here
 * for the next one: a test sees the same database it would get fresh, rows, sequences and plans included.
 */

interface FirstState {
  /** One SQL text that takes a database back to the template's rows and sequences. */
  resetSql: string;
}

const idle: Database[] = [];
let firstState: Promise<FirstState> | undefined;

export async function pooledPglite(templatePath: string | undefined): Promise<Database> {
  const database = idle.pop() ?? (await openFromTemplate(templatePath));
  firstState ??= readFirstState(database);
  await firstState;
  const listening = new Set<() => Promise<void>>();
  let released = false;
  return {
    ...database,
    // A notification handler left by a test must not hear the next test's database.
    listen: async (channel, onPayload) => {
      const stop = await database.listen(channel, onPayload);
      const once = async () => {
        listening.delete(once);
        await stop();
      };
      listening.add(once);
      return once;
    },
    close: async () => {
      if (released) return;
      released = true;
      try {
        for (const stop of [...listening]) await stop();
        await database.sql.exec((await firstState!).resetSql);
        idle.push(database);
      } catch {
        await database.close(); // a database that cannot be reset is not handed out again
      }
    },
  };
}

async function openFromTemplate(templatePath: string | undefined): Promise<Database> {
  const template = templatePath ? new Blob([readFileSync(templatePath)]) : undefined;
  const database = await openDatabase({ pgliteTemplate: template });
  if (!template) await migrate(database);
  return database;
}

/** Read from a database nobody has used yet: its tables' rows and its sequences' positions. */
async function readFirstState(database: Database): Promise<FirstState> {
  const tables = await database.sql.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const statements = [`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`];
  for (const { name } of tables) {
    const [result] = await database.sql.query<{ rows: string }>(
      `SELECT coalesce(json_agg(t), '[]')::text AS rows FROM ${name} t`,
    );
    const rows = result?.rows ?? '[]';
    if (rows === '[]') continue;
    if (rows.includes('$rows$')) throw new Error(`the rows of ${name} cannot be quoted`);
    statements.push(
      `INSERT INTO ${name} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${name}, $rows$${rows}$rows$)`,
    );
  }
  const sequences = await database.sql.query<{ name: string; last_value: string | null; start_value: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text, start_value::text FROM pg_sequences`,
  );
  for (const s of sequences) {
    statements.push(
      s.last_value === null
        ? `SELECT setval('${s.name}', ${s.start_value}, false)`
        : `SELECT setval('${s.name}', ${s.last_value}, true)`,
    );
  }
  return { resetSql: `${statements.join(';\n')};` };
}
