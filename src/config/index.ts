/** The config module's entry: server configs as plain data, validated without side effects. */
export { findNonPlainData } from './plain-data.js';
export {
  type BaseServerConfig,
  type ClientInfo,
  type HttpServerConfig,
  type NormalizedCommon,
  type NormalizedConfig,
  normalizeBaseConfig,
  normalizeConfig,
  type ServerConfig,
  type StdioServerConfig,
} from './server-config.js';
