import { errors } from '../../../protocol/errors.js';
import { INSTALL_ACTIONS, voiceInstallReplySchema, voiceInstallSchema, voiceStatusSchema } from '../../../protocol/schemas/voice.js';
import type { Core } from '../../core/core.js';
import type { Route } from '../route.js';

type Services = Pick<Core, 'speech' | 'voiceSetup'>;

/** POST /v1/voice/install's action, done (docs/api/voice.md#post-v1-voice-install); the window's Voice setting takes the same. */
export function installVoice(services: Services, action: unknown) {
  if (action === 'install') return services.voiceSetup.install();
  if (action === 'cancel') return services.voiceSetup.cancel();
  if (action === 'useExisting') return services.voiceSetup.useExisting();
  throw errors.invalidChoice('action', INSTALL_ACTIONS);
}

/** GET /v1/voice and POST /v1/voice/install (docs/api/voice.md#get-v1-voice, #post-v1-voice-install). */
export function voiceRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      path: '/v1/voice',
      door: 'token',
      summary: 'The voice engine',
      description: "Which engine this computer has, its voices, and the installation's state.",
      tag: 'Voice',
      reply: voiceStatusSchema,
      errors: {},
      examples: [{ summary: 'Its state' }],
      handle: ({ services }) => services.speech.status(),
    },
    {
      method: 'POST',
      path: '/v1/voice/install',
      door: 'token',
      summary: 'Install, cancel, or take an installed engine into use',
      description:
        'install runs apt-get (only when the service runs as root; it answers at once, GET /v1/voice shows progress); cancel stops it; useExisting takes an espeak-ng installed by the person into use.',
      tag: 'Voice',
      body: voiceInstallSchema,
      reply: voiceInstallReplySchema,
      errors: {
        400: 'action is not install, cancel or useExisting',
        404: 'useExisting: there is no engine on the PATH',
        409: 'install: an engine is there already, an installation runs, or the service cannot install (it does not run as root); cancel: no installation runs',
      },
      examples: [
        { summary: 'Use the espeak-ng the person installed', body: { action: 'useExisting' } },
        {
          summary: 'Install espeak-ng',
          body: { action: 'install' },
          notSent:
            'it would install a system package on the computer running the tests, and where an engine is installed (as the tests need) it answers 409',
        },
      ],
      handle: ({ services, body }) => installVoice(services, body.action),
    },
  ];
}
