/**
 * The environment variables through which scripts/test-all.sh hands every test file the package it built
 * and packed once for the run (test/helpers/package-build.ts makes it; built-package.ts reads its bin).
 */
export const BUILD_ENV = 'AUTOS_MCP_TEST_BUILD';
export const TARBALL_ENV = 'AUTOS_MCP_TEST_TARBALL';
