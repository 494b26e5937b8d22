import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './dialect.ts';

const coded = (code: string, message = 'from PostgreSQL') => Object.assign(new Error(message), { code });

describe('databaseUnavailable', () => {
  it('a PostgreSQL that cannot be reached or takes no more connections, never a statement it refused', () => {
    for (const error of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('08006'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
    ])
      expect(databaseUnavailable(error)).toBe('unreachable');
    expect(databaseUnavailable(coded('53300', 'sorry, too many clients already'))).toBe('tooManyConnections');
    for (const error of [
      coded('55P03'),
      coded('23505'),
      coded('57014'),
      coded('SQLITE_BUSY'),
      new Error('boom'),
      null,
    ])
      expect(databaseUnavailable(error)).toBeNull();
  });
});
