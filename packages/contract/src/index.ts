export * from './constants.ts';
export * from './messages.ts';
export * from './rules.ts';
export * from './schemas.ts';
export * from './providers.ts';
export * from './api.ts';
export * from './roles.ts';
export * from './authorize.ts';
