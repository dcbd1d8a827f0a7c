import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { bodyObject } from '../params.js';
import type { Route } from '../routes.js';

/** docs/api/voice.md#v10: the actions of POST /v1/voice/install (the CLI's word for useExisting is `use-existing`). */
const INSTALL_ACTIONS = ['install', 'cancel', 'useExisting'] as const;

/** GET /v1/voice and POST /v1/voice/install (docs/api/voice.md#get-v1-voice, #post-v1-voice-install). */
export function voiceRoutes(core: NotifierCore): Route[] {
  return [
    { method: 'GET', path: '/v1/voice', handle: () => core.voiceStatus() },
    {
      method: 'POST',
      path: '/v1/voice/install',
      handle: (req) => {
        const action = bodyObject(req).action;
        if (action === 'install') return core.voiceSetup.install();
        if (action === 'cancel') return core.voiceSetup.cancel();
        if (action === 'useExisting') return core.voiceSetup.useExisting();
        throw errors.invalidChoice('action', INSTALL_ACTIONS);
      },
    },
  ];
}
