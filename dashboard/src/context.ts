// What every view gets: the API client for the signed-in environment, where to draw, and a way to
// register work (polling) that must stop when the view is left.
import type { Api } from './api';
import type { Environment } from './session';

export interface ViewContext {
  api: Api;
  env: Environment;
  root: HTMLElement;
  /** Called when the view is left: stop timers, drop the map. */
  onLeave(fn: () => void): void;
  navigate(hash: string): void;
  /** The signed-in key changed (rotation): keep the session working. */
  replaceKey(key: string): void;
}

export type View = (ctx: ViewContext, arg?: string) => Promise<void> | void;

/** Polls `fn` every `ms` until the view is left; one run at a time, errors shown by the caller. */
export function poll(ctx: ViewContext, ms: number, fn: () => Promise<void>): void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = async () => {
    try {
      await fn();
    } finally {
      if (!stopped) timer = setTimeout(loop, ms);
    }
  };
  timer = setTimeout(loop, ms);
  ctx.onLeave(() => { stopped = true; if (timer) clearTimeout(timer); });
}
