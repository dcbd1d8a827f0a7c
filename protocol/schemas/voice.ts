// The voice engine: its state and installing it.

import { flag, integer, list, object, oneOfText, text, timestamp } from './json-schema.js';

/** What POST /v1/voice/install can be asked to do (the CLI writes useExisting as use-existing). */
export const INSTALL_ACTIONS = ['install', 'cancel', 'useExisting'] as const;

export const voiceStatusSchema = object(
  {
    engine: oneOfText(['system', 'off'], 'the voiceEngine setting'),
    engineName: { type: ['string', 'null'], description: 'the engine this computer has (espeak-ng, say), or null' },
    installed: flag(),
    audioPlayer: {
      type: ['string', 'null'],
      description: 'the program that plays speech (paplay, pw-play, aplay, afplay), or null: speech then shows as a banner',
    },
    installCommand: text('how to install an engine, when the service cannot'),
    voices: list(object({ id: text(), name: text(), language: text() }, ['id', 'name'])),
    install: object(
      {
        state: oneOfText(['idle', 'installing', 'done', 'failed', 'cancelled']),
        step: text(),
        stepNumber: integer(),
        steps: integer(),
        startedAt: timestamp(),
        error: text(),
        log: list(text(), 'the last lines of its output'),
      },
      ['state', 'log'],
    ),
  },
  ['engine', 'engineName', 'installed', 'audioPlayer', 'voices', 'install'],
);

export const voiceInstallSchema = object({ action: oneOfText(INSTALL_ACTIONS) }, ['action']);

export const voiceInstallReplySchema = object(
  { ok: { const: true }, action: oneOfText(INSTALL_ACTIONS), next: text(), engineName: text() },
  ['ok', 'action'],
);
