/**
 * What a person typed into a form whose call did not come back: a timeout or a 5xx takes the app to
 * its error page, and that page's Go back mounts the form again, empty. Kept in this module's memory
 * only, never in storage, so nothing stays once the tab reloads or closes (a shared device); keep no
 * password in it. Clear it when the call succeeds: the next person's form starts empty.
 */
export interface FormDraft<Values> {
  /** What was kept for this form (`key`: which one, an invite's code), else undefined; forgotten once read. */
  take(key?: string): Values | undefined;
  save(values: Values, key?: string): void;
  clear(): void;
}

export function formDraft<Values>(): FormDraft<Values> {
  let kept: { key: string | undefined; values: Values } | undefined;
  return {
    take: (key) => {
      const taken = kept && kept.key === key ? kept.values : undefined;
      kept = undefined;
      return taken;
    },
    save: (values, key) => {
      kept = { key, values };
    },
    clear: () => {
      kept = undefined;
    },
  };
}
