// The CLI's dialect: options named as typed, named once; one environment flag; unknown subcommands said.
import { cliMessage, environmentFlag, parseArgs, unknownSubcommand } from '../../server/cli/args';

test.each([
  ['codeProperty', 'codeProperty must be a string', '--code-property must be a string'],
  ['testUrl', 'testUrl is refused: 127.0.0.1 is a loopback address', '--test-url is refused: 127.0.0.1 is a loopback address'],
  ['url', 'must use http or https', '--url: must use http or https'],
  ['id', 'No webhook 123', 'No webhook 123'],
  [undefined, 'Something failed', 'Something failed'],
])('%s: %s', (param, message, expected) => {
  expect(cliMessage(param, message)).toBe(expected);
});

test.each([
  [[], 'test'], [['--live'], 'live'], [['--env', 'live'], 'live'], [['--env=test'], 'test'],
])('%j → %s', (argv, expected) => {
  expect(environmentFlag(parseArgs(argv))).toBe(expected);
});

test.each([
  [['--env', 'prod'], '--env must be test or live, got "prod"'],
  [['--env', 'test', '--live'], '--env test and --live contradict each other'],
])('%j is a usage error', (argv, message) => {
  expect(() => environmentFlag(parseArgs(argv))).toThrow(message);
});

test('unknown and missing subcommands are said as such, then the usage', () => {
  expect(unknownSubcommand('project', 'explode', 'USAGE').message).toBe('Unknown project subcommand "explode"\nUSAGE');
  expect(unknownSubcommand('project', undefined, 'USAGE').message).toBe('project needs a subcommand\nUSAGE');
});
