/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TITLEGRAPH_URL?: string;
  readonly VITE_PERSISTED_OPERATIONS?: string;
  readonly VITE_TITLEGRAPH_API_KEY?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
