// The LLM settings the recorded replies were made with (chunking decides which blocks a request holds).
export const RECORD_ENV: NodeJS.ProcessEnv = { LLM_MODEL: 'replay', LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_CHUNK_LINES: '60', LLM_OVERLAP_LINES: '10', LLM_BACKOFF_MS: '10', LLM_ATTEMPTS: '3' };
