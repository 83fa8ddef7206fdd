// Projector mode (placeholder until it lands): large type, high contrast, advanced controls hidden.
import type { Actions } from "../actions";

export interface Projector {
  set(on: boolean): void;
  toggle(): void;
  isOn(): boolean;
  toggleFullscreen(): void;
}

export function createProjector(_actions: Actions, handlers: { onChange(on: boolean): void }): Projector {
  let on = false;
  const set = (next: boolean): void => {
    on = next;
    document.body.dataset["projector"] = String(on);
    handlers.onChange(on);
  };
  return {
    set,
    toggle: () => set(!on),
    isOn: () => on,
    toggleFullscreen() {},
  };
}
