// ESM entry of the Node client. The code is in notifier.cjs and is re-exported here rather than copied: one copy
// of the logic, and the same class objects for `import` and `require` users (so `instanceof` works across both).
import client from './notifier.cjs';

export const { Notifier, NotifierError, NotifierUnavailable, defaultSupportDir, DEFAULT_PORT, DEFAULT_TIMEOUT_MS } = client;
export default client;
