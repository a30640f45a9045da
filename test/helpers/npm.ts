/**
 * The environment of every npm and npx the tests, scripts and benchmarks start: npm's own notices off, so
 * that what a child prints is what the command printed. npm checks the registry for a newer npm once a
 * week (never when it sees a CI variable, so CI runs hid it; a fresh machine, or an env built from
 * scratch, shows it) and prints "New minor version of npm available!" on stderr at exit; `fund` and
 * `audit` print after installs. test/scripts/npm-notices.test.ts checks that every npm and npx started
 * from test/, scripts/, bench/ and examples/ gets this environment, and that npm reads it.
 */

/** npm's settings, as the environment variables npm reads them from, that turn its notices off. */
export const QUIET_NPM: Readonly<Record<string, string>> = {
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
};

/**
 * `env` (this process's by default) with npm's notices off. npm reads `npm_config_*` in any case, so a
 * variable of another spelling for the same setting is dropped rather than left to compete.
 */
export function npmEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const quiet = new Set(Object.keys(QUIET_NPM));
  const kept = Object.entries(env).filter(([name]) => !quiet.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...QUIET_NPM };
}
