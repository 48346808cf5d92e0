// How the CLI speaks: plain lines for people, one JSON document for scripts (--json).
export interface CliOutput {
  json: boolean;
  print(text: string): void;
  data(value: unknown): void;
}

export function cliOutput(json: boolean): CliOutput {
  return {
    json,
    print: (text) => {
      if (!json) process.stdout.write(text + '\n');
    },
    data: (value) => {
      if (json) process.stdout.write(JSON.stringify(value, null, 2) + '\n');
    },
  };
}
