// HF eta_cutoff 阶段的中文文本（英文见 eta.en.ts）：仅当 trace 中有该阶段时显示。
import type { etaEn } from "./eta.en";

export const etaZh: Record<keyof typeof etaEn, string> = {
  "stage.eta_cutoff.title": "Eta 截断",
  "stage.eta_cutoff.explain": "移除 p < min(η, √η·e^(−H)) = {cut} 的 Token（η = {e}，H 为熵）。",
};
