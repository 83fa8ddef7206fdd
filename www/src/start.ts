// The page's first work, imported first by main.ts so that it runs before the rest of the bundle is
// evaluated (D3, the views, the lessons): the core's download and compile (streaming) and the
// model's download start here, side by side, and the page's own set-up runs while the bytes arrive.
import { initCore } from "./core";
import { MODEL_FILES } from "./payload";
import { fetchModel } from "./sources/load";
import type { LoadProgress, ModelBytes } from "./sources/load";

export const coreLoading: Promise<void> = initCore();

let lastProgress: LoadProgress | null = null;
let listener: ((progress: LoadProgress) => void) | null = null;

export const modelLoading: Promise<ModelBytes> = fetchModel(MODEL_FILES, (progress) => {
  lastProgress = progress;
  listener?.(progress);
});

// awaited by main.ts's boot(); until then a failure must not count as unhandled
coreLoading.catch(() => undefined);
modelLoading.catch(() => undefined);

/** Progress of the model's download from now on (`listen`), and what it was so far. */
export function modelProgress(listen: (progress: LoadProgress) => void): LoadProgress | null {
  listener = listen;
  return lastProgress;
}
