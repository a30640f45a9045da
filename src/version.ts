/** This package's version, sent as `clientInfo.version` (a test keeps it equal to package.json). */
export const PACKAGE_VERSION = '0.1.0';
