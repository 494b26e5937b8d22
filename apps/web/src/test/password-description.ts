/**
 * A new-password field's accessible description: its error first, then the rules checklist that
 * also describes it (features/shared/form.tsx). Matches with expect.stringMatching.
 */
export const passwordDescription = (error: string): RegExp =>
  new RegExp(`^${error.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} Your password needs:`);
