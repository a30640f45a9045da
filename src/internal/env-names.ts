/**
 * What an environment variable name and value may hold, as the OS and Node's spawn see them. One rule,
 * read by config (which refuses a bad `env` before anything starts) and by the stdio transport (its last
 * check before a process gets the environment). Messages never quote a value, nor a name past its first
 * unusual character.
 */

/**
 * Why `name` cannot be an environment variable name, or undefined when it can: it is empty, holds `=`
 * (the OS splits `NAME=value` at the first `=`, so the rest would become the value of another variable)
 * or holds NUL. Never quotes the name past its first such character.
 */
export function envNameProblem(name: string): string | undefined {
  if (name === '') return 'an env variable name is empty';
  const at = name.search(/[=\0]/);
  if (at < 0) return undefined;
  const what = name[at] === '=' ? '"="' : 'a NUL byte';
  if (at === 0) return `an env variable name starts with ${what}`;
  const prefix = /^[A-Za-z0-9_.-]{0,32}/.exec(name)?.[0] ?? '';
  const shown = prefix.length === at ? JSON.stringify(prefix) : `starting ${JSON.stringify(prefix)}`;
  return `the env variable name ${shown} is followed by ${what}, which a name cannot contain`;
}

/** Why `value` cannot be an environment variable value (it holds NUL), or undefined. Never quotes it. */
export function envValueProblem(value: string): string | undefined {
  return value.includes('\0') ? 'holds a NUL byte, which an environment value cannot contain' : undefined;
}
