/** The version `GET /v1/health` reports. A test keeps it equal to package.json's. */
export const VERSION = '0.1.0';
