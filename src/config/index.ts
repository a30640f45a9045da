/** The config module's entry: server configs as plain data, one table of field rules, checked without side effects. */
export {
  type EnvFromResolver,
  type EnvSource,
  envFromResolver,
  type SettingsReader,
} from './env-from.js';
export {
  CONFIG_FIELDS,
  type ConfigFieldName,
  type FieldKind,
  type FieldRule,
  fieldRule,
  type MergeRule,
  type SecretRule,
} from './fields.js';
export { mergeConfig } from './merge.js';
export {
  checkConfigData,
  checkPartialConfig,
  normalizeBaseConfig,
  normalizeConfig,
  type PartialServerConfig,
} from './normalize.js';
export type {
  NormalizedCommon,
  NormalizedConfig,
  NormalizedHttp,
  NormalizedStdio,
} from './normalized.js';
export { findNonPlainData, snapshotPlainData } from './plain-data.js';
export { secretValues } from './secrets.js';
export type {
  BaseServerConfig,
  ClientInfo,
  HttpServerConfig,
  ServerConfig,
  StderrMode,
  StdioServerConfig,
} from './server-config.js';
export { fromStoredConfig, toStoredConfig } from './stored.js';
