import type { FinishReason } from '../../handler/types';

const CONTENT_FILTER_REASONS: ReadonlySet<string> = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']);

/**
 * The finish reason of a Gemini candidate's `finishReason`: `STOP` → `STOP`, `MAX_TOKENS` →
 * `LENGTH`, the safety, recitation, blocklist, prohibited-content and SPII reasons →
 * `CONTENT_FILTER`, anything else → `OTHER`; null (none seen) stays null. (Function calls turn it into `TOOL_EXECUTION`;
 * the mapper applies that.)
 */
export function mapGeminiFinishReason(finishReason: string | null): FinishReason | null {
  if (finishReason === null) return null;
  if (finishReason === 'STOP') return 'STOP';
  if (finishReason === 'MAX_TOKENS') return 'LENGTH';
  return CONTENT_FILTER_REASONS.has(finishReason) ? 'CONTENT_FILTER' : 'OTHER';
}
