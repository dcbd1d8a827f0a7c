import { errors } from '../../../protocol/errors.js';
import { MAX_APPS } from '../../../protocol/limits.js';
import type { Document, Store } from '../../store/store.js';
import type { AppRegistration } from '../../../protocol/types.js';

interface AppsFile {
  apps: AppRegistration[];
}

/** Registered apps (`apps.json`). An app is registered by `POST /v1/register` or by its first notification. */
export class AppRegistry {
  private readonly byId = new Map<string, AppRegistration>();

  private constructor(
    private readonly store: Store,
    private readonly document: Document<AppsFile>,
  ) {
    for (const registration of document.data.apps ?? []) {
      if (typeof registration?.app === 'string') this.byId.set(registration.app, registration);
    }
  }

  static async open(store: Store): Promise<AppRegistry> {
    return new AppRegistry(store, await store.open<AppsFile>('apps.json', { apps: [] }));
  }

  get(app: string): AppRegistration | undefined {
    return this.byId.get(app);
  }

  count(): number {
    return this.byId.size;
  }

  list(): AppRegistration[] {
    return [...this.byId.values()].sort((a, b) => (a.app < b.app ? -1 : a.app > b.app ? 1 : 0));
  }

  /**
   * Makes sure the app is registered, registering it now if it is new; docs/api/apps.md#a1: 429 when the app id is new and
   * 200 apps are already registered. Returns the save to wait for, or null when nothing changed. Reserving the
   * slot synchronously keeps two concurrent requests from both taking the last one.
   */
  ensure(app: string): Promise<void> | null {
    if (this.byId.has(app)) return null;
    this.checkRoomFor(app);
    return this.put({ app });
  }

  /** POST /v1/register: replaces or updates an app; omitted fields keep their values (docs/api/apps.md#a3). */
  register(update: AppRegistration): Promise<void> {
    const current = this.byId.get(update.app);
    if (!current) this.checkRoomFor(update.app);
    const merged: AppRegistration = { ...current, ...update };
    if (current?.defaults || update.defaults) merged.defaults = { ...current?.defaults, ...update.defaults };
    return this.put(merged);
  }

  /** Replaces an app's registration as it is (PUT /v1/apps/settings computed the whole of it). */
  replace(registration: AppRegistration): Promise<void> {
    return this.put(registration);
  }

  /** Forgets an app (DELETE /v1/apps/{id}); false when it was not registered. */
  async remove(app: string): Promise<boolean> {
    if (!this.byId.delete(app)) return false;
    this.document.data = { apps: [...this.byId.values()] };
    await this.store.save(this.document);
    return true;
  }

  private checkRoomFor(app: string): void {
    if (!this.byId.has(app) && this.byId.size >= MAX_APPS) {
      throw errors.tooManyApps();
    }
  }

  private put(registration: AppRegistration): Promise<void> {
    this.byId.set(registration.app, registration);
    this.document.data = { apps: [...this.byId.values()] };
    return this.store.save(this.document);
  }
}
