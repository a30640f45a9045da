/**
 * A throwaway PostgreSQL cluster for one test file: `initdb` into a fresh temp dir, `pg_ctl start` with TCP
 * off (`listen_addresses = ''`) so the server listens only on a unix socket inside that same temp dir, one
 * database `autos_test` with a table `fruit` of three rows, then `pg_ctl stop` and the dir deleted in
 * `after()`. Nothing outside the temp dir is touched, so it cannot clash with a system cluster or a port.
 *
 * The binaries are Debian's, from /usr/lib/postgresql/<major>/bin (the newest major present);
 * scripts/test-all.sh installs them. When they are missing the hook fails with a message saying so: the
 * tests that need a database never skip. initdb refuses to run as root, so as root every binary runs as
 * the `postgres` system user (`runuser -u postgres --`), which owns the temp dir.
 */
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';

const DEBIAN_ROOT = '/usr/lib/postgresql';
/** The port only names the socket file (`.s.PGSQL.5432`) in the private dir; no TCP port is opened. */
const PORT = 5432;
export const PG_DATABASE = 'autos_test';
export const PG_USER = 'postgres';

/** The rows of table `fruit`, as `SELECT id, name, colour FROM fruit ORDER BY id` returns them. */
export const FRUIT = [
  { id: 1, name: 'apple', colour: 'green' },
  { id: 2, name: 'banana', colour: 'yellow' },
  { id: 3, name: 'cherry', colour: 'red' },
] as const;

/** The directory holding initdb, pg_ctl and psql: the newest /usr/lib/postgresql/<major>/bin that has them. */
export function postgresBinDir(): string {
  const majors = existsSync(DEBIAN_ROOT)
    ? readdirSync(DEBIAN_ROOT)
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const major of majors) {
    const bin = path.join(DEBIAN_ROOT, major, 'bin');
    if (['initdb', 'pg_ctl', 'psql'].every((tool) => existsSync(path.join(bin, tool)))) return bin;
  }
  throw new Error(
    `PostgreSQL server binaries not found: no ${DEBIAN_ROOT}/<major>/bin with initdb, pg_ctl and psql ` +
      `(found majors: ${majors.join(', ') || 'none'}). Install Debian's package: ` +
      'apt-get install --no-install-recommends postgresql (scripts/test-all.sh does this).',
  );
}

type Run = (tool: string, args: string[]) => Promise<string>;

/** Runs `bin/tool args` (as the postgres user when we are root), failing with its output on a non-zero exit. */
function runner(bin: string, dir: string, asPostgres: boolean): Run {
  return (tool, args) => {
    const command = asPostgres ? 'runuser' : path.join(bin, tool);
    const argv = asPostgres ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    return new Promise((resolve, reject) => {
      // cwd is the temp dir: the postgres user may not be able to read the test's own cwd.
      execFile(command, argv, { cwd: dir, timeout: 60_000, encoding: 'utf8' }, (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${tool} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        } else {
          resolve(stdout);
        }
      });
    });
  };
}

/** The running cluster: `url` is ready once the file's `before()` hooks have run. */
export interface PostgresCluster {
  /** `postgresql://postgres@localhost:5432/autos_test?host=<socket dir>` — for node `pg` (and psql). */
  readonly url: string;
  /** The temp dir holding the data dir, the socket and the server log. */
  readonly dir: string;
}

/**
 * Registers `before()` (initdb, start, create the table) and `after()` (stop, delete) in the current
 * suite or file, and returns the cluster whose fields are set once `before()` has run.
 */
export function usePostgres(): PostgresCluster {
  let state: { url: string; dir: string } | undefined;
  let stop: (() => Promise<void>) | undefined;

  before(async () => {
    const bin = postgresBinDir();
    const asPostgres = process.getuid?.() === 0;
    const dir = mkdtempSync(path.join(tmpdir().length > 60 ? '/tmp' : tmpdir(), 'autos-pg-'));
    const data = path.join(dir, 'data');
    const log = path.join(dir, 'server.log');
    if (asPostgres) {
      const ids = await new Promise<string>((resolve, reject) =>
        execFile('id', ['postgres'], { encoding: 'utf8' }, (error, stdout) =>
          error
            ? reject(new Error(`running as root, but there is no 'postgres' system user: ${error.message}`))
            : resolve(stdout),
        ),
      );
      const uid = Number(/uid=(\d+)/.exec(ids)?.[1]);
      const gid = Number(/gid=(\d+)/.exec(ids)?.[1]);
      chownSync(dir, uid, gid);
    }
    const run = runner(bin, dir, asPostgres);
    let started = false;
    stop = async () => {
      try {
        if (started) await run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };

    await run('initdb', ['-D', data, '-U', PG_USER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    appendFileSync(
      path.join(data, 'postgresql.conf'),
      [
        '',
        "listen_addresses = ''",
        `unix_socket_directories = '${dir}'`,
        `port = ${PORT}`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
    );
    try {
      await run('pg_ctl', ['start', '-D', data, '-l', log, '-w', '-t', '60']);
    } catch (error) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '(no server log)';
      throw new Error(`${(error as Error).message}\nserver log:\n${serverLog}`);
    }
    started = true;

    const psql = (database: string, sql: string) =>
      run('psql', [
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        dir,
        '-p',
        String(PORT),
        '-U',
        PG_USER,
        '-d',
        database,
        '-c',
        sql,
      ]);
    await psql('postgres', `CREATE DATABASE ${PG_DATABASE}`);
    const values = FRUIT.map((row) => `(${row.id}, '${row.name}', '${row.colour}')`).join(', ');
    await psql(
      PG_DATABASE,
      `CREATE TABLE fruit (id integer PRIMARY KEY, name text NOT NULL, colour text NOT NULL)`,
    );
    await psql(PG_DATABASE, `INSERT INTO fruit (id, name, colour) VALUES ${values}`);

    state = {
      dir,
      url: `postgresql://${PG_USER}@localhost:${PORT}/${PG_DATABASE}?host=${encodeURIComponent(dir)}`,
    };
  });

  after(async () => {
    await stop?.();
  });

  const ready = () => {
    if (state === undefined)
      throw new Error('the PostgreSQL cluster is not running (did its before() hook fail?)');
    return state;
  };
  return {
    get url() {
      return ready().url;
    },
    get dir() {
      return ready().dir;
    },
  };
}
