import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from './config/config-error';
import { loadConfig } from './config/env';
import { openDatabase, type Database } from './data/db';
import { migrate } from './data/migrate';
import { readPassword } from './cli-password';
import { AppError } from './lib/app-error';
import { createUser } from './services/accounts/create-user';
import { setUserRole } from './services/accounts/set-user-role';

/**
 * Operator commands, run against the same configuration and database as the server:
 *
 *   npm run docflow -- create-user --email a@b.c --name 'X' [--role admin] [--company 'Y']   (password: prompt or stdin)
 *   npm run docflow -- set-role --email a@b.c --role super_admin
 *
 * Exit codes: 0 done, 1 refused (bad input, duplicate, unknown user), 64 usage error, 78 bad configuration.
 */

const USAGE = `Usage: npm run docflow -- <command> [options]

Commands:
  create-user --email <email> --name <name> [--role user|admin|super_admin|owner] [--company <company>]
      Create a verified account. The password is typed at the prompt, or read from the first line of stdin
      (printf '%s\\n' "$PASSWORD" | npm run docflow -- create-user ...); it must pass the sign-up strength rule.
  set-role --email <email> --role user|admin|super_admin|owner
      Change the role of an existing account.
  help
      Show this text.

The database is the server's: DATABASE_URL, or the embedded one under DATA_DIR (stop the server first: the
embedded database serves one process at a time).`;

export interface CliIo {
  env?: NodeJS.ProcessEnv;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Tests: use this database instead of opening the configured one. */
  database?: Database;
  /** Where create-user's password comes from (default: the prompt, or stdin when it is not a terminal). */
  readPassword?: () => Promise<string>;
}

class UsageError extends Error {}

function options(args: string[], allowed: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: Object.fromEntries(allowed.map((name) => [name, { type: 'string' as const }])),
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  return values as Record<string, string | undefined>;
}

function required(values: Record<string, string | undefined>, ...names: string[]): void {
  const missing = names.filter((n) => !values[n]);
  if (missing.length) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
}

export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const out = io.out ?? ((l: string) => console.log(l));
  const err = io.err ?? ((l: string) => console.error(l));
  const [command, ...rest] = argv;

  if (!command || command === 'help' || command === '--help' || command === '-h') {
    (command ? out : err)(USAGE);
    return command ? 0 : 64;
  }

  let run: (database: Database) => Promise<string>;
  try {
    if (command === 'create-user') {
      const v = options(rest, ['email', 'password', 'name', 'role', 'company']);
      if (v.password !== undefined)
        throw new UsageError(
          '--password is not taken on the command line (other users see it in ps, and it stays in the shell history): ' +
            'type it at the prompt, or give it on stdin: printf \'%s\\n\' "$PASSWORD" | npm run docflow -- create-user ...',
        );
      required(v, 'email', 'name');
      run = async (database) => {
        const password = await (io.readPassword ?? readPassword)();
        if (!password) throw new AppError('VALIDATION_ERROR', 'password: none given (prompt or first line of stdin)');
        const user = await createUser(database.db, {
          email: v.email!,
          password,
          name: v.name!,
          role: v.role,
          company: v.company,
        });
        return `Created ${user.role} ${user.email} (id ${user.id}), e-mail verified.`;
      };
    } else if (command === 'set-role') {
      const v = options(rest, ['email', 'role']);
      required(v, 'email', 'role');
      run = async (database) => {
        const user = await setUserRole(database.db, v.email!, v.role!);
        return `${user.email} is now ${user.role}.`;
      };
    } else {
      throw new UsageError(`unknown command: ${command}`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`Error: ${(e as Error).message}\n\n${USAGE}`);
      return 64;
    }
    throw e;
  }

  let database = io.database;
  try {
    if (!database) {
      const config = loadConfig(io.env); // undefined: the process's environment, read by config/env.ts
      // The embedded database serves one process at a time: opening it beside a running server would corrupt it.
      const pidFile = path.join(config.dataDir, 'pglite', 'postmaster.pid');
      if (!config.DATABASE_URL && existsSync(pidFile)) {
        err(
          `Error: the embedded database in ${config.dataDir} is in use (${pidFile} exists). Stop the DocFlow server ` +
            'first, or set DATABASE_URL to use PostgreSQL. If no server is running, the file is left from a crash: delete it and retry.',
        );
        return 1;
      }
      database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
      await migrate(database);
    }
    out(await run(database));
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      err(e.message);
      return 78;
    }
    if (e instanceof AppError) {
      err(`Error: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    if (database && database !== io.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
