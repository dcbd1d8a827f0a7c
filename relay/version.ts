/** The version the relay reports (MCP serverInfo). A test keeps it equal to package.json's. */
export const RELAY_VERSION = '0.1.0';
