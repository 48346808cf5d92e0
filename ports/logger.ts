// Structured one-line JSON logs on stdout/stderr; every request line carries its request id.
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n';
}

export function consoleLogger(): Logger {
  return {
    info: (m, f) => process.stdout.write(line('info', m, f)),
    warn: (m, f) => process.stderr.write(line('warn', m, f)),
    error: (m, f) => process.stderr.write(line('error', m, f)),
  };
}

export function silentLogger(): Logger {
  const nothing = (): void => undefined;
  return { info: nothing, warn: nothing, error: nothing };
}
