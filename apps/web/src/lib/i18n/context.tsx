import { createContext, useContext, useSyncExternalStore } from 'react';
import type { TranslationService } from './service.ts';

const TranslationServiceContext = createContext<TranslationService | null>(null);
export const TranslationServiceProvider = TranslationServiceContext.Provider;

export function useTranslationService(): TranslationService {
  const service = useContext(TranslationServiceContext);
  if (!service) throw new Error('useTranslationService() used outside <TranslationServiceProvider>');
  return service;
}

/** The current language code; re-renders on every change. */
export function useCurrentLanguage(): string {
  const service = useTranslationService();
  return useSyncExternalStore(service.subscribe, service.current, service.current);
}
