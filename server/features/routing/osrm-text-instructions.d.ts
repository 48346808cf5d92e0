// The slice of osrm-text-instructions (no published types) that step-instructions.ts uses.
declare module 'osrm-text-instructions' {
  interface CompileOptions {
    legCount?: number;
    legIndex?: number;
    waypointName?: string;
  }
  interface Instructions {
    compile(language: string, step: object, options?: CompileOptions): string;
    tokenize(language: string, instruction: string, tokens: Record<string, string>, options?: object): string;
  }
  function osrmTextInstructions(version: 'v5'): Instructions;
  export = osrmTextInstructions;
}
