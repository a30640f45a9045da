/**
 * Codex's `config.toml`, parsed by `smol-toml` (loaded on first use). An error is a line number, never the
 * parser's message: it quotes the file, and the file may hold secrets.
 */
import type { Parsed } from './parse-json.js';

export async function parseToml(text: string): Promise<Parsed> {
  const { parse, TomlError } = await import('smol-toml');
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    if (error instanceof TomlError && Number.isInteger(error.line) && error.line > 0)
      return { ok: false, line: error.line, message: 'is not valid TOML' };
    return { ok: false, message: 'is not valid TOML' };
  }
}
