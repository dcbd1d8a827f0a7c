// "Are you sure?" before something that cannot be undone: the question ui/confirm.tsx asks in its dialog, and the
// answer it gives back. A new question answers the one before "no".

import { createModel, signal } from '@preact/signals';

export interface ConfirmQuestion {
  title: string;
  message: string;
  /** The button that does it ("Delete all"). */
  confirm: string;
}

export const ConfirmModel = createModel(() => {
  const asked = signal<(ConfirmQuestion & { answer: (yes: boolean) => void }) | null>(null);
  return {
    asked,
    ask(question: ConfirmQuestion): Promise<boolean> {
      asked.value?.answer(false);
      return new Promise((resolve) => (asked.value = { ...question, answer: resolve }));
    },
    answer(yes: boolean): void {
      asked.value?.answer(yes);
      asked.value = null;
    },
  };
});
export type ConfirmModel = InstanceType<typeof ConfirmModel>;
