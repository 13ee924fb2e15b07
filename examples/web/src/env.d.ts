/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TITLEGRAPH_URL?: string;
  readonly VITE_PERSISTED_OPERATIONS?: string;
  readonly VITE_TITLEGRAPH_API_KEY?: string;
  readonly VITE_OIDC_AUTHORITY?: string;
  readonly VITE_OIDC_CLIENT_ID?: string;
  readonly VITE_OIDC_SCOPE?: string;
  readonly VITE_OIDC_RESOURCE?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
