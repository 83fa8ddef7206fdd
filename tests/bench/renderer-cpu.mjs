// The page benchmarks' CPU clock (page-link.mjs, page-step.mjs): the renderer processes Chromium
// lists, and the CPU time their main threads have run, which on a loaded machine is steadier than
// wall-clock time (it leaves out the time other processes were given).
import { readFileSync } from "node:fs";

/** The page's renderer processes (Chromium's own list), so a new one can be told apart. */
export async function renderers(cdp) {
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  return processInfo.filter((p) => p.type === "renderer").map((p) => p.id);
}

/** CPU time (ms) the main thread of each renderer in `pids` has run so far (Linux: its schedstat; NaN elsewhere). */
export function mainThreadCpu(pids) {
  try {
    return pids.reduce((sum, pid) => sum + Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6, 0);
  } catch {
    return NaN;
  }
}
