// Words for start-up failures: which server we tried (never the password) and why it failed.

/** `user@host:port/database` from a connection URL, without its password. */
export function describeDatabaseUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `${user}${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname || ''}`;
  } catch {
    return 'the server named by DATABASE_URL';
  }
}

/** Node reports a refused dual-stack connect as an AggregateError with an empty message; dig out its causes. */
export function errorText(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.map(errorText).join('; ');
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return err.message || code || err.name;
  }
  return String(err);
}
